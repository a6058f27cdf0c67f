/**
 * The public names (README, Operations), checked against the node's description:
 * saved workflows depend on them. Also the node-level facts n8n reads (type name, version, tool
 * use, credential test, list search) and that every parameter is shown for exactly the
 * operations that use it.
 */
import type { INodeProperties } from 'n8n-workflow';
import { BusinessFinance } from '../../nodes/BusinessFinance/BusinessFinance.node';
import { EVENT_TYPES, PAYMENT_METHODS, TRANSACTION_TYPES, WALLET_CHAINS } from '../../nodes/BusinessFinance/helpers/constants';

const node = new BusinessFinance();
const d = node.description;

// resource → operation → [top-level parameters, collection name, collection fields]
const INTERFACE: Record<string, Record<string, [string[], string?, string[]?]>> = {
	receivable: {
		create: [['invoiceNumber', 'amount'], 'additionalFields', ['customerId', 'customerName', 'customerEmail', 'dueDate', 'notes', 'sendImmediately']],
		update: [['receivableId'], 'updateFields', ['status', 'notes', 'dueDate']],
		send: [['receivableId']],
	},
	payable: {
		create: [
			['invoiceNumber', 'amount', 'vendorId'],
			'additionalFields',
			['vendorName', 'vendorEmail', 'dueDate', 'notes', 'paymentMethod', 'bankName', 'accountName', 'accountNumber', 'routingNumber', 'swiftCode', 'iban', 'bankAddress', 'walletAddress', 'walletChain'],
		],
		update: [['payableId'], 'updateFields', ['status', 'notes', 'dueDate']],
	},
	vendor: {
		create: [
			['name', 'paymentMethod'],
			'additionalFields',
			['email', 'bankName', 'accountName', 'accountNumber', 'routingNumber', 'swiftCode', 'iban', 'bankAddress', 'walletAddress', 'walletChain'],
		],
		getAll: [['returnAll', 'limit'], 'filters', ['search']],
		update: [['vendorId'], 'updateFields', ['name', 'email', 'paymentMethod']],
	},
	treasury: {
		getDepositInstructions: [[]],
		getTransactions: [['returnAll', 'limit'], 'filters', ['from', 'to', 'type']],
		getBalance: [[]],
	},
	webhookEndpoint: {
		get: [['webhookEndpointId']],
		update: [['webhookEndpointId'], 'updateFields', ['url', 'description', 'filterTypes', 'disabled']],
	},
};

/** The properties n8n shows for a resource/operation (displayOptions.show on resource/operation). */
function shown(resource: string, operation: string): INodeProperties[] {
	return d.properties.filter((p) => {
		const show = p.displayOptions?.show;
		if (!show) return true;
		if (show.resource && !show.resource.includes(resource)) return false;
		if (show.operation && !show.operation.includes(operation)) return false;
		return true;
	});
}

it('node facts n8n and saved workflows rely on', () => {
	expect(d.name).toBe('businessFinance');
	expect(d.displayName).toBe('Business Finance');
	expect(d.version).toBe(1);
	expect(d.usableAsTool).toBe(true);
	expect(d.subtitle).toBe('={{$parameter["operation"] + ": " + $parameter["resource"]}}');
	expect(d.credentials).toEqual([{ name: 'businessFinanceApi', required: true, testedBy: 'businessFinanceApiTest' }]);
	expect(typeof node.methods.listSearch.searchVendors).toBe('function');
	expect(typeof node.methods.credentialTest.businessFinanceApiTest).toBe('function');
	const resource = d.properties.find((p) => p.name === 'resource')!;
	expect(resource.options!.map((o) => (o as { value: string }).value).sort()).toEqual(Object.keys(INTERFACE).sort());
});

describe.each(Object.entries(INTERFACE).flatMap(([r, ops]) => Object.entries(ops).map(([o, spec]) => [r, o, spec] as const)))(
	'%s / %s',
	(resource, operation, [params, collection, fields]) => {
		const props = shown(resource, operation);
		const names = props.map((p) => p.name);

		it('is an operation of its resource, with an action name', () => {
			const op = props.find((p) => p.name === 'operation')!;
			const option = op.options!.find((o) => (o as { value: string }).value === operation) as { action?: string };
			expect(option).toBeDefined();
			expect(option.action).toMatch(/^[A-Z]/);
		});

		it('shows exactly the interface parameters (plus the node options and notices)', () => {
			const expected = ['resource', 'operation', ...params, ...(collection ? [collection] : []), 'options'];
			const actual = props.filter((p) => p.type !== 'notice').map((p) => p.name);
			expect(actual.sort()).toEqual(expected.sort());
			for (const name of names) expect(names.filter((n) => n === name)).toHaveLength(1);
		});

		if (collection) {
			it(`${collection} holds exactly the interface fields`, () => {
				const coll = props.find((p) => p.name === collection)!;
				expect(coll.type).toBe('collection');
				const inner = (coll.options as INodeProperties[]).map((o) => o.name);
				expect(inner.sort()).toEqual([...fields!].sort());
			});
		}
	},
);

it('option values are the API’s', () => {
	const all = (props: INodeProperties[]): INodeProperties[] =>
		props.flatMap((p) => [p, ...(p.type === 'collection' ? all(p.options as INodeProperties[]) : [])]);
	const values = (name: string) =>
		[...new Set(all(d.properties).filter((p) => p.name === name).flatMap((p) => (p.options as Array<{ value: string }>).map((o) => o.value)))].sort();
	expect(values('paymentMethod')).toEqual([...PAYMENT_METHODS].sort());
	expect(values('walletChain')).toEqual([...WALLET_CHAINS].sort());
	expect(values('type')).toEqual([...TRANSACTION_TYPES].sort());
	expect(values('filterTypes')).toEqual([...EVENT_TYPES].sort());
	expect(values('status')).toEqual(['cancelled', 'draft', 'pending_review', 'ready']);
});

it('vendorId is a resource locator with list (searchVendors) and id modes; limit defaults to 50 without a maximum', () => {
	const locators = d.properties.filter((p) => p.name === 'vendorId');
	expect(locators).toHaveLength(2);
	for (const l of locators) {
		expect(l.type).toBe('resourceLocator');
		expect(l.modes!.map((m) => m.name)).toEqual(['list', 'id']);
		expect(l.modes![0].typeOptions?.searchListMethod).toBe('searchVendors');
	}
	for (const limit of d.properties.filter((p) => p.name === 'limit')) {
		expect(limit.default).toBe(50);
		expect(limit.typeOptions?.minValue).toBe(1);
		expect(limit.typeOptions?.maxValue).toBeUndefined();
		expect(limit.displayOptions?.show?.returnAll).toEqual([false]);
	}
	const options = d.properties.find((p) => p.name === 'options')!;
	const wait = (options.options as INodeProperties[]).find((o) => o.name === 'rateLimitWaitSeconds')!;
	expect(wait.default).toBe(300);
});

it('the editor shows a notice that the customer is emailed: on Send, and on Create with Send Immediately on', () => {
	const { NodeHelpers } = jest.requireActual('n8n-workflow') as typeof import('n8n-workflow');
	const shownFor = (name: string, params: Record<string, unknown>) =>
		NodeHelpers.displayParameter(
			params as never,
			d.properties.find((p) => p.name === name)!,
			{ typeVersion: 1 } as never,
			d,
			params as never,
		);
	expect(shownFor('sendNotice', { resource: 'receivable', operation: 'send' })).toBe(true);
	expect(shownFor('sendNotice', { resource: 'receivable', operation: 'create' })).toBe(false);
	const create = (additionalFields: object) => ({ resource: 'receivable', operation: 'create', additionalFields });
	expect(shownFor('sendImmediatelyNotice', create({ sendImmediately: true }))).toBe(true);
	expect(shownFor('sendImmediatelyNotice', create({ sendImmediately: false }))).toBe(false);
	expect(shownFor('sendImmediatelyNotice', create({}))).toBe(false);
	expect(d.properties.find((p) => p.name === 'sendImmediatelyNotice')!.type).toBe('notice');
});
