import type { INodeParameters } from 'n8n-workflow';
import { byId, useEnv, VALID } from './support';

const env = useEnv();

const receivableCreate = (p: INodeParameters): INodeParameters => ({
	resource: 'receivable',
	operation: 'create',
	invoiceNumber: 'INV-1',
	amount: 10,
	additionalFields: {},
	...p,
});
const vendorCreate = (p: INodeParameters): INodeParameters => ({
	resource: 'vendor',
	operation: 'create',
	name: 'Acme',
	paymentMethod: 'wire',
	additionalFields: { accountNumber: VALID.account, routingNumber: VALID.routing },
	...p,
});
const endpoint = (operation: string, p: INodeParameters): INodeParameters => ({
	resource: 'webhookEndpoint',
	operation,
	webhookEndpointId: 'ep_1',
	...p,
});

/** The fields an error names: its list of invalid parameters, or the one its problem is about. */
const fieldsNamed = (message: string) =>
	message.startsWith('Invalid parameters: ')
		? [...message.matchAll(/'([^']+)'/g)].map((match) => match[1])
		: [/^'([^']+)'/.exec(message)?.[1]];

// [operation and families, parameters, the fields the error names, in order]
const cases: Array<[string, INodeParameters, string[]]> = [
	[
		'receivable create: required text, amount, uuid, email, date, boolean',
		receivableCreate({
			invoiceNumber: '  ',
			amount: 0,
			additionalFields: {
				customerId: 'abc',
				customerEmail: 'x@',
				dueDate: '2026-02-30',
				sendImmediately: '={{ "soon" }}',
			},
		}),
		['Invoice Number', 'Amount', 'Customer ID', 'Customer Email', 'Due Date', 'Send Immediately'],
	],
	[
		'payable create: amount, vendor uuid, email, date, ABA',
		{
			resource: 'payable',
			operation: 'create',
			invoiceNumber: 'B-1',
			amount: -5,
			vendorId: byId('={{ "123" }}'),
			additionalFields: {
				vendorEmail: 'x@',
				dueDate: '31/12/2026',
				paymentMethod: 'ach',
				accountNumber: VALID.account,
				routingNumber: '011000016',
			},
		},
		['Amount', 'Vendor', 'Vendor Email', 'Due Date', 'Routing Number'],
	],
	[
		'vendor create: email, IBAN, SWIFT',
		vendorCreate({
			additionalFields: {
				email: 'a b@c.d',
				accountNumber: VALID.account,
				iban: 'DE89370400440532013001',
				swiftCode: 'DEUT',
			},
		}),
		['Email', 'SWIFT Code', 'IBAN'],
	],
	[
		'vendor create: required text, wallet address',
		vendorCreate({
			name: '={{ "  " }}',
			paymentMethod: 'crypto',
			additionalFields: { walletAddress: '0x1234', walletChain: 'ethereum' },
		}),
		['Name', 'Wallet Address'],
	],
	[
		// From a spreadsheet or an expression, 000123456789 is the number 123456789 and 17 digits are
		// rounded: their text would pay another account (as text they are sent exactly: resources.test).
		'vendor create: bank identifiers given as numbers',
		vendorCreate({
			paymentMethod: 'ach',
			additionalFields: {
				accountNumber: '={{ 12345678901234567 }}',
				routingNumber: '={{ 11000015 }}',
			},
		}),
		['Account Number', 'Routing Number'],
	],
	[
		'receivable update: uuid, an update of only empty fields',
		{
			resource: 'receivable',
			operation: 'update',
			receivableId: 'nope',
			updateFields: { notes: '' },
		},
		['Receivable ID', 'Update Fields'],
	],
	[
		'vendor update: locator uuid, nothing to update',
		{ resource: 'vendor', operation: 'update', vendorId: byId('={{ "x" }}'), updateFields: {} },
		['Vendor', 'Update Fields'],
	],
	[
		'transactions: dates',
		{
			resource: 'treasury',
			operation: 'getTransactions',
			filters: { from: '1/2', to: '2026-13-01' },
		},
		['From', 'To'],
	],
	[
		'transactions: limit, from after to',
		{
			resource: 'treasury',
			operation: 'getTransactions',
			limit: 0,
			filters: { from: '2026-02-01', to: '2026-01-01' },
		},
		['Limit', 'From'],
	],
	[
		'webhook update: id, URL, event types, boolean',
		endpoint('update', {
			webhookEndpointId: 'ep_1/../x',
			updateFields: {
				url: 'ftp://x',
				filterTypes: '={{ ["receivable.created", "invoice.paid"] }}',
				disabled: '={{ "maybe" }}',
			},
		}),
		['Webhook Endpoint ID', 'URL', 'Event Types', 'Disabled'],
	],
	[
		'webhook update: an id that resolves to nothing, nothing to update',
		endpoint('update', { webhookEndpointId: '={{ "" }}', updateFields: {} }),
		['Webhook Endpoint ID', 'Update Fields'],
	],
	[
		'webhook get: an id that resolves to nothing',
		endpoint('get', { webhookEndpointId: '={{ " " }}' }),
		['Webhook Endpoint ID'],
	],
	[
		'rate-limit wait above the maximum of one day',
		{ resource: 'treasury', operation: 'getBalance', options: { rateLimitWaitSeconds: 86_401 } },
		['Max Wait for Rate Limits (Seconds)'],
	],
];

it.each(cases)('%s: refused before any request, naming each field', async (_name, p, fields) => {
	const res = await env.run(p);
	expect(res.error?.name).toBe('NodeOperationError');
	expect(fieldsNamed(res.error!.message)).toEqual(fields);
	// One reason a line (the reasons themselves: test/unit/validation.test.ts).
	if (fields.length > 1) expect(res.error!.description!.split('\n')).toHaveLength(fields.length);
	expect(res.error!.context.itemIndex).toBe(0);
	expect(res.items).toEqual([]);
	expect(await env.requests()).toEqual([]);
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
