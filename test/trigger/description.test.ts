/** The trigger's public interface: the names and defaults saved workflows depend on. */
import { Workflow, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { EVENT_TYPES } from '../../nodes/BusinessFinance/helpers/constants';
import { BusinessFinanceTrigger } from '../../nodes/BusinessFinance/BusinessFinanceTrigger.node';
import { makeNodeTypes } from '../helpers/n8n';

const trigger = new BusinessFinanceTrigger();
const description = trigger.description;
const param = (name: string) =>
	description.properties.find((p) => p.name === name) as INodeProperties;
const values = (options: unknown) =>
	(options as Array<{ value: string }>).map((o) => o.value).sort();

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
	expect(param('webhookEndpointId').placeholder).toMatch(/^e\.g\. ep_/);
	expect(param('events')).toMatchObject({ type: 'multiOptions', default: ['*'] });
	expect(values(param('events').options)).toEqual(['*', ...EVENT_TYPES].sort());
	expect(param('options').type).toBe('collection');
	const options = Object.fromEntries(
		(param('options').options as INodeProperties[]).map((o) => [o.name, o]),
	);
	expect(options.allowUnsigned).toMatchObject({ type: 'boolean', default: false });
	expect(options.toleranceSeconds).toMatchObject({ type: 'number', default: 300 });
	expect(options.output).toMatchObject({ type: 'options', default: 'event' });
	expect(values(options.output.options)).toEqual(['data', 'event']);
});

it('shows events as n8n’s guidelines ask: Trigger On without a tooltip, readable labels, no notices', () => {
	const events = param('events');
	expect(events.displayName).toBe('Trigger On');
	expect(events.description).toBeUndefined();
	const label = (value: string) =>
		(events.options as Array<{ name: string; value: string }>).find((o) => o.value === value)!.name;
	expect(label('*')).toBe('All Events');
	expect(label('receivable.created')).toBe('Receivable Created');
	expect(label('treasury.transaction.failed')).toBe('Treasury Transaction Failed');
	expect(description.properties.filter((p) => p.type === 'notice')).toEqual([]);
});

it.each([
	[['*'], 'All Events'],
	[['payable.paid', '*'], 'All Events'],
	[
		['receivable.created', 'treasury.transaction.failed'],
		'Receivable Created, Treasury Transaction Failed',
	],
])('the subtitle, as the editor computes it, for %j is %s', (events, subtitle) => {
	const node = {
		id: '1',
		name: 'T',
		type: description.name,
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: { events } as INodeParameters,
	};
	const nodeTypes = makeNodeTypes({ [description.name]: trigger });
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	expect(
		workflow.expression.getSimpleParameterValue(node, description.subtitle!, 'internal', {}),
	).toBe(subtitle);
});
