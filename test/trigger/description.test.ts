/** The trigger's public interface: the names and defaults saved workflows depend on. */
import { Workflow, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { EVENT_TYPES } from '../../nodes/BusinessFinance/helpers/constants';
import { BusinessFinanceTrigger } from '../../nodes/BusinessFinance/BusinessFinanceTrigger.node';

const description = new BusinessFinanceTrigger().description;
const param = (name: string) =>
	description.properties.find((p) => p.name === name) as INodeProperties;

describe('businessFinanceTrigger description', () => {
	it('has the fixed names, version, group, icon, credential and webhook', () => {
		expect(description).toMatchObject({
			displayName: 'Business Finance Trigger',
			name: 'businessFinanceTrigger',
			version: [1, 2],
			defaultVersion: 2,
			group: ['trigger'],
			inputs: [],
			icon: {
				light: 'file:../../icons/businessFinance.svg',
				dark: 'file:../../icons/businessFinance.dark.svg',
			},
			credentials: [{ name: 'businessFinanceApi', required: true }],
			webhooks: [
				{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
			],
		});
	});

	it('has the fixed parameters with their types and defaults', () => {
		expect(param('webhookEndpointId')).toMatchObject({ type: 'string', default: '' });
		const events = param('events');
		expect(events).toMatchObject({ type: 'multiOptions', default: ['*'] });
		expect(events.options!.map((o) => (o as { value: string }).value).sort()).toEqual(
			['*', ...EVENT_TYPES].sort(),
		);
		const options = param('options');
		expect(options.type).toBe('collection');
		const byName = Object.fromEntries(
			(options.options as INodeProperties[]).map((o) => [o.name, o]),
		);
		expect(byName.allowUnsigned).toMatchObject({ type: 'boolean', default: false });
		expect(byName.toleranceSeconds).toMatchObject({ type: 'number', default: 300 });
		expect(byName.output).toMatchObject({ type: 'options', default: 'event' });
		expect((byName.output.options as Array<{ value: string }>).map((o) => o.value).sort()).toEqual([
			'data',
			'event',
		]);
	});

	it('shows events as n8n’s guidelines ask: Trigger On without a tooltip, readable labels, no notices', () => {
		const events = param('events');
		expect(events.displayName).toBe('Trigger On');
		expect(events.description).toBeUndefined();
		const options = events.options as Array<{ name: string; value: string }>;
		expect(options.find((o) => o.value === '*')!.name).toBe('All Events');
		expect(options.find((o) => o.value === 'receivable.created')!.name).toBe('Receivable Created');
		expect(options.find((o) => o.value === 'treasury.transaction.failed')!.name).toBe(
			'Treasury Transaction Failed',
		);
		expect(description.properties.filter((p) => p.type === 'notice')).toEqual([]);
		expect(param('webhookEndpointId').placeholder).toMatch(/^e\.g\. ep_/);
	});

	it('the subtitle names the events by label, and All Events for *', () => {
		const trigger = new BusinessFinanceTrigger();
		const nodeTypes = {
			getByName: () => trigger,
			getByNameAndVersion: () => trigger,
			getKnownTypes: () => ({}),
		};
		/** The subtitle as the editor computes it (an expression over the node's parameters). */
		const subtitle = (events: unknown) => {
			const node = {
				id: '1',
				name: 'T',
				type: description.name,
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: { events } as INodeParameters,
			};
			const workflow = new Workflow({
				nodes: [node],
				connections: {},
				active: false,
				nodeTypes: nodeTypes as never,
			});
			return workflow.expression.getSimpleParameterValue(
				node,
				description.subtitle!,
				'internal',
				{},
			);
		};
		expect(subtitle(['*'])).toBe('All Events');
		expect(subtitle(['payable.paid', '*'])).toBe('All Events');
		expect(subtitle(['receivable.created', 'treasury.transaction.failed'])).toBe(
			'Receivable Created, Treasury Transaction Failed',
		);
	});

	it('implements the whole webhook lifecycle and the handler', () => {
		const node = new BusinessFinanceTrigger();
		expect(Object.keys(node.webhookMethods.default).sort()).toEqual([
			'checkExists',
			'create',
			'delete',
		]);
		expect(typeof node.webhook).toBe('function');
	});
});
