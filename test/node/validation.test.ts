/**
 * Bad input is refused before any request: for each rule, the node fails with a
 * NodeOperationError that names the field and carries the item index, and the sandbox receives
 * nothing.
 */
import type { INodeParameters } from 'n8n-workflow';
import { byId, startEnv, VALID, type NodeTestEnv } from './support';

let env: NodeTestEnv;
beforeAll(async () => {
	env = await startEnv();
});
afterAll(async () => {
	await env.close();
});
beforeEach(async () => {
	await env.clear();
});

const RID = '5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const rc = (p: INodeParameters): INodeParameters => ({
	resource: 'receivable',
	operation: 'create',
	invoiceNumber: 'INV-1',
	amount: 10,
	additionalFields: {},
	...p,
});
const pc = (p: INodeParameters): INodeParameters => ({
	resource: 'payable',
	operation: 'create',
	invoiceNumber: 'B-1',
	amount: 10,
	vendorId: byId(RID),
	additionalFields: {},
	...p,
});
const vc = (p: INodeParameters): INodeParameters => ({
	resource: 'vendor',
	operation: 'create',
	name: 'Acme',
	paymentMethod: 'ach',
	additionalFields: { accountNumber: VALID.account, routingNumber: VALID.routing },
	...p,
});

// [case, parameters, text the error (message or description) must contain]
const cases: Array<[string, INodeParameters, string]> = [
	['receivable amount 0', rc({ amount: 0 }), 'Amount'],
	['receivable amount below 0.01', rc({ amount: 0.001 }), 'Amount'],
	['receivable amount as non-numeric text', rc({ amount: 'ten' }), 'Amount'],
	['receivable invoice number empty', rc({ invoiceNumber: '  ' }), 'Invoice Number'],
	[
		'receivable customer email',
		rc({ additionalFields: { customerEmail: 'not-an-email' } }),
		'Customer Email',
	],
	['receivable customer id', rc({ additionalFields: { customerId: 'abc' } }), 'Customer ID'],
	[
		'receivable due date not in the calendar',
		rc({ additionalFields: { dueDate: '2026-02-30' } }),
		'Due Date',
	],
	[
		'receivable due date not a date',
		rc({ additionalFields: { dueDate: 'next friday' } }),
		'Due Date',
	],
	[
		'receivable send immediately without email',
		rc({ additionalFields: { sendImmediately: true } }),
		'Customer Email',
	],
	[
		'receivable send immediately not a boolean',
		rc({ additionalFields: { customerEmail: 'a@b.co', sendImmediately: '={{ "soon" }}' } }),
		'Send Immediately',
	],
	[
		'receivable update id',
		{
			resource: 'receivable',
			operation: 'update',
			receivableId: 'nope',
			updateFields: { notes: 'x' },
		},
		'Receivable ID',
	],
	[
		'receivable update without fields',
		{ resource: 'receivable', operation: 'update', receivableId: RID, updateFields: {} },
		'Update Fields',
	],
	[
		'receivable update with only empty fields',
		{ resource: 'receivable', operation: 'update', receivableId: RID, updateFields: { notes: '' } },
		'Update Fields',
	],
	[
		'receivable send with an id that resolves to nothing',
		{ resource: 'receivable', operation: 'send', receivableId: '={{ $json.missing }}' },
		'Receivable ID',
	],
	['payable amount 0', pc({ amount: 0 }), 'Amount'],
	['payable amount negative', pc({ amount: -5 }), 'Amount'],
	[
		'payable without vendor or vendor name',
		pc({ vendorId: { __rl: true, mode: 'list', value: '' } }),
		'Vendor Name',
	],
	['payable vendor id not a uuid', pc({ vendorId: byId('={{ "123" }}') }), 'Vendor'],
	['payable vendor email', pc({ additionalFields: { vendorEmail: 'x@' } }), 'Vendor Email'],
	['payable due date', pc({ additionalFields: { dueDate: '31/12/2026' } }), 'Due Date'],
	[
		'payable ach routing check digit',
		pc({
			additionalFields: {
				paymentMethod: 'ach',
				accountNumber: VALID.account,
				routingNumber: '011000016',
			},
		}),
		'Routing Number',
	],
	[
		'payable wire without routing, swift or iban',
		pc({ additionalFields: { paymentMethod: 'wire', accountNumber: VALID.account } }),
		'Routing Number',
	],
	[
		'payable details without a method or a vendor',
		pc({
			vendorId: { __rl: true, mode: 'list', value: '' },
			additionalFields: {
				vendorName: 'V',
				accountNumber: VALID.account,
				routingNumber: VALID.routing,
			},
		}),
		'Payment Method',
	],
	[
		'payable update without fields',
		{ resource: 'payable', operation: 'update', payableId: RID, updateFields: {} },
		'Update Fields',
	],
	[
		'payable update id',
		{
			resource: 'payable',
			operation: 'update',
			payableId: RID.slice(1),
			updateFields: { status: 'ready' },
		},
		'Payable ID',
	],
	['vendor name blank', vc({ name: '={{ "  " }}' }), 'Name'],
	[
		'vendor email',
		vc({
			additionalFields: {
				email: 'a b@c.d',
				accountNumber: VALID.account,
				routingNumber: VALID.routing,
			},
		}),
		'Email',
	],
	['vendor ach without details', vc({ additionalFields: {} }), 'Account Number'],
	[
		'vendor wire with a bad IBAN',
		vc({
			paymentMethod: 'wire',
			additionalFields: { accountNumber: VALID.account, iban: 'DE89370400440532013001' },
		}),
		'IBAN',
	],
	[
		'vendor wire with a bad SWIFT code',
		vc({
			paymentMethod: 'wire',
			additionalFields: { accountNumber: VALID.account, swiftCode: 'DEUT' },
		}),
		'SWIFT Code',
	],
	[
		'vendor crypto with a bad EVM address',
		vc({
			paymentMethod: 'crypto',
			additionalFields: { walletAddress: '0x1234', walletChain: 'ethereum' },
		}),
		'Wallet Address',
	],
	[
		'vendor crypto without a chain',
		vc({ paymentMethod: 'crypto', additionalFields: { walletAddress: VALID.evm } }),
		'Wallet Chain',
	],
	[
		'vendor update id',
		{
			resource: 'vendor',
			operation: 'update',
			vendorId: byId('={{ "x" }}'),
			updateFields: { name: 'n' },
		},
		'Vendor',
	],
	[
		'vendor update without fields',
		{ resource: 'vendor', operation: 'update', vendorId: byId(RID), updateFields: {} },
		'Update Fields',
	],
	[
		'vendor list limit 0',
		{ resource: 'vendor', operation: 'getAll', returnAll: false, limit: 0 },
		'Limit',
	],
	[
		'transactions from after to',
		{
			resource: 'treasury',
			operation: 'getTransactions',
			returnAll: true,
			filters: { from: '2026-02-01', to: '2026-01-01' },
		},
		'From',
	],
	[
		'transactions bad to date',
		{
			resource: 'treasury',
			operation: 'getTransactions',
			returnAll: true,
			filters: { to: '2026-13-01' },
		},
		'To',
	],
	[
		'webhook update url',
		{
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: 'ep_1',
			updateFields: { url: 'ftp://x' },
		},
		'URL',
	],
	[
		'webhook update disabled not a boolean',
		{
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: 'ep_1',
			updateFields: { disabled: '={{ "maybe" }}' },
		},
		'Disabled',
	],
	[
		'webhook update unknown event type',
		{
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: 'ep_1',
			updateFields: { filterTypes: '={{ ["receivable.created", "invoice.paid"] }}' },
		},
		'Event Types',
	],
	[
		'webhook update without fields',
		{
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: 'ep_1',
			updateFields: {},
		},
		'Update Fields',
	],
	[
		'webhook get with an id that resolves to nothing',
		{ resource: 'webhookEndpoint', operation: 'get', webhookEndpointId: '={{ "" }}' },
		'Webhook Endpoint ID',
	],
	[
		'webhook id with a slash',
		{ resource: 'webhookEndpoint', operation: 'get', webhookEndpointId: 'ep_1/../x' },
		'Webhook Endpoint ID',
	],
	[
		'negative rate-limit wait',
		{ resource: 'treasury', operation: 'getBalance', options: { rateLimitWaitSeconds: -1 } },
		'Max Wait for Rate Limits',
	],
	[
		'rate-limit wait above the maximum of one day',
		{ resource: 'treasury', operation: 'getBalance', options: { rateLimitWaitSeconds: 86_401 } },
		'Max Wait for Rate Limits',
	],
];

describe.each(cases)('%s', (_name, parameters, field) => {
	it('is refused before any request, naming the field, with the item index', async () => {
		const res = await env.run(parameters);
		expect(res.error).toBeDefined();
		expect(res.error!.name).toBe('NodeOperationError');
		expect(`${res.error!.message}\n${res.error!.description ?? ''}`).toContain(field);
		expect(res.error!.context.itemIndex).toBe(0);
		expect(res.items).toEqual([]);
		expect(await env.requests()).toEqual([]);
	});
});

it('the failing item’s index is reported, and the items before it were processed', async () => {
	const res = await env.run(
		{
			resource: 'receivable',
			operation: 'create',
			invoiceNumber: '={{ $json.inv }}',
			amount: '={{ $json.amount }}',
			additionalFields: {},
		},
		{
			items: [
				{ inv: 'OK-1', amount: 5 },
				{ inv: 'BAD', amount: 0 },
				{ inv: 'OK-2', amount: 6 },
			],
		},
	);
	expect(res.error).toBeDefined();
	expect(res.error!.message).toContain('Amount');
	expect(res.error!.context.itemIndex).toBe(1);
	const reqs = await env.requests();
	expect(reqs.map((r) => (r.body as { invoice_number: string }).invoice_number)).toEqual(['OK-1']);
});

describe('identifiers that must keep their digits are taken only as text', () => {
	// A spreadsheet column or an expression gives 000123456789 as the number 123456789, and a
	// 17-digit number rounded: sending its text would pay another account.
	const fromSheet = vc({
		additionalFields: {
			accountNumber: '={{ $json.account }}',
			routingNumber: '={{ $json.routing }}',
		},
	});

	it('an account number given as a number is refused with what to do, and nothing is sent', async () => {
		const res = await env.run(fromSheet, {
			items: [{ account: 123456789, routing: VALID.routing }],
		});
		expect(res.error?.name).toBe('NodeOperationError');
		expect(res.error!.message).toMatch(/^'Account Number' must be text, not a number/);
		expect(res.error!.description).toContain('as text');
		expect(await env.requests()).toEqual([]);
	});

	it('a routing number or a 17-digit account number given as numbers are refused too', async () => {
		const res = await env.run(fromSheet, {
			items: [{ account: Number('12345678901234567'), routing: 11000015 }],
		});
		expect(res.error?.message).toBe("Invalid parameters: 'Account Number', 'Routing Number'");
		expect(res.error!.description).toMatch(
			/^'Account Number' must be text, not a number.*\n'Routing Number' must be text, not a number/s,
		);
		expect(await env.requests()).toEqual([]);
	});

	it('the same digits as text are sent exactly', async () => {
		const res = await env.run(fromSheet, {
			items: [{ account: VALID.account, routing: VALID.routing }],
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests())[0].body).toMatchObject({
			account_number: VALID.account,
			routing_number: VALID.routing,
		});
	});
});

it('an item with several problems gets one error that names each, and nothing is sent', async () => {
	const res = await env.run(
		rc({ amount: 0, additionalFields: { customerEmail: 'x@', dueDate: '2026-02-30' } }),
	);
	expect(res.error?.name).toBe('NodeOperationError');
	expect(res.error!.message).toBe("Invalid parameters: 'Amount', 'Customer Email', 'Due Date'");
	const reasons = res.error!.description!.split('\n');
	expect(reasons).toHaveLength(3);
	expect(reasons[0]).toBe("'Amount' must be at least 0.01, got 0");
	expect(reasons[1]).toMatch(/^'Customer Email' must be an email address/);
	expect(reasons[2]).toMatch(/^'Due Date' "2026-02-30" is not a date in the calendar/);
	expect(res.error!.context.itemIndex).toBe(0);
	expect(await env.requests()).toEqual([]);
});

it('a payable with a vendor name and no vendor id is accepted', async () => {
	const res = await env.run(
		pc({
			vendorId: { __rl: true, mode: 'id', value: '' },
			additionalFields: { vendorName: 'Walk-in Vendor' },
		}),
	);
	expect(res.error).toBeUndefined();
	expect((await env.requests())[0].body).toEqual({
		invoice_number: 'B-1',
		amount: 10,
		vendor_name: 'Walk-in Vendor',
	});
});

describe('n8n’s own parameter checks also stop the run before any request', () => {
	it.each([
		[
			'a required parameter left empty',
			{ resource: 'receivable', operation: 'send', receivableId: '' },
			'Receivable ID',
		],
		[
			'a vendor id that fails the locator’s UUID check',
			{
				resource: 'vendor',
				operation: 'update',
				vendorId: byId('123'),
				updateFields: { name: 'n' },
			},
			'vendor ID',
		],
	] as Array<[string, INodeParameters, string]>)('%s', async (_name, parameters, text) => {
		const res = await env.run(parameters);
		expect(res.error?.name).toBe('WorkflowHasIssuesError');
		expect(res.error!.message).toContain('issues');
		expect(JSON.stringify(res.error)).toContain(text);
		expect(await env.requests()).toEqual([]);
	});
});
