/** The trigger's public interface: the names and defaults saved workflows depend on. */
import type { INodeProperties } from 'n8n-workflow';

import { EVENT_TYPES } from '../../nodes/BusinessFinance/helpers/constants';
import { BusinessFinanceTrigger } from '../../nodes/BusinessFinance/BusinessFinanceTrigger.node';

const description = new BusinessFinanceTrigger().description;
const param = (name: string) => description.properties.find((p) => p.name === name) as INodeProperties;

describe('businessFinanceTrigger description', () => {
	it('has the fixed names, version, group, icon, credential and webhook', () => {
		expect(description).toMatchObject({
			displayName: 'Business Finance Trigger',
			name: 'businessFinanceTrigger',
			version: 1,
			group: ['trigger'],
			inputs: [],
			icon: { light: 'file:../../icons/businessFinance.svg', dark: 'file:../../icons/businessFinance.dark.svg' },
			credentials: [{ name: 'businessFinanceApi', required: true }],
			webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		});
	});

	it('has the fixed parameters with their types and defaults', () => {
		expect(param('webhookEndpointId')).toMatchObject({ type: 'string', default: '' });
		const events = param('events');
		expect(events).toMatchObject({ type: 'multiOptions', default: ['*'] });
		expect(events.options!.map((o) => (o as { value: string }).value).sort()).toEqual(['*', ...EVENT_TYPES].sort());
		const options = param('options');
		expect(options.type).toBe('collection');
		const byName = Object.fromEntries((options.options as INodeProperties[]).map((o) => [o.name, o]));
		expect(byName.allowUnsigned).toMatchObject({ type: 'boolean', default: false });
		expect(byName.toleranceSeconds).toMatchObject({ type: 'number', default: 300 });
		expect(byName.output).toMatchObject({ type: 'options', default: 'event' });
		expect((byName.output.options as Array<{ value: string }>).map((o) => o.value)).toEqual(['event', 'data']);
	});

	it('implements the whole webhook lifecycle and the handler', () => {
		const node = new BusinessFinanceTrigger();
		expect(Object.keys(node.webhookMethods.default).sort()).toEqual(['checkExists', 'create', 'delete']);
		expect(typeof node.webhook).toBe('function');
	});
});
