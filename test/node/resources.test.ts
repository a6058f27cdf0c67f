import type { INodeParameters } from 'n8n-workflow';

import { expectNowhereIn } from '../helpers/secrets';
import { byId, useEnv, VALID } from './support';

const env = useEnv();

describe('receivable: create', () => {
	it('sends only the fields set, trimmed, in snake_case, dates cut to the day, Send Immediately as the flag; outputs the data object', async () => {
		const output = await env.runOne(
			{
				resource: 'receivable',
				operation: 'create',
				invoiceNumber: ' INV-1 ',
				amount: 125.5,
				additionalFields: {
					customerName: 'Globex',
					customerEmail: ' billing@globex.com ',
					customerId: '7D1E4F0A-2B3C-4D5E-8F90-A1B2C3D4E5F6',
					dueDate: '2026-12-31T00:00:00',
					notes: '',
					sendImmediately: true,
				},
			},
			'POST /v1/receivables 201',
			{
				invoice_number: 'INV-1',
				amount: 125.5,
				customer_name: 'Globex',
				customer_email: 'billing@globex.com',
				customer_id: '7d1e4f0a-2b3c-4d5e-8f90-a1b2c3d4e5f6',
				due_date: '2026-12-31',
				send_immediately: true,
			},
			{ invoice_number: 'INV-1', currency: 'USD', status: 'sent' },
		);
		expect(output).not.toHaveProperty('data');
	});
});

describe('receivable: send and update', () => {
	let id: string;
	beforeEach(async () => {
		const created = await env.api('POST', '/v1/receivables', {
			invoice_number: 'INV-S',
			amount: 50,
			customer_email: 'c@d.co',
		});
		id = created.id as string;
	});

	it('send: POST /send without a body to the id as the service writes it, outputs the sent receivable', async () => {
		const send = { resource: 'receivable', operation: 'send', receivableId: id.toUpperCase() };
		await env.runOne(send, `POST /v1/receivables/${id}/send 200`, undefined, {
			id,
			status: 'sent',
		});
		const [request] = await env.requests();
		expect(request.body === null || JSON.stringify(request.body) === '{}').toBe(true);
	});

	// The update code payable update shares (actions/statusUpdate.ts).
	it('update: PATCH with only the set fields, an empty one left out', async () => {
		const updateFields = { status: 'cancelled', notes: '', dueDate: '2027-01-15' };
		await env.runOne(
			{ resource: 'receivable', operation: 'update', receivableId: id, updateFields },
			`PATCH /v1/receivables/${id} 200`,
			{ status: 'cancelled', due_date: '2027-01-15' },
			{ id, status: 'cancelled', due_date: '2027-01-15' },
		);
	});
});

describe('payable: create', () => {
	let vendorId: string;
	beforeEach(async () => {
		const vendor = await env.api('POST', '/v1/vendors', {
			name: 'Acme Supplies',
			payment_method: 'ach',
			account_number: VALID.account,
			routing_number: VALID.routing,
		});
		vendorId = vendor.id as string;
	});

	const CREATE = { resource: 'payable', operation: 'create', invoiceNumber: 'BILL-1' };
	const create = async (parameters: INodeParameters) =>
		await env.runOk({ ...CREATE, ...parameters });

	it('with a vendor picked from the list (resource locator), only the fields set', async () => {
		await env.runOne(
			{
				...CREATE,
				amount: 99.99,
				vendorId: { __rl: true, mode: 'list', value: vendorId, cachedResultName: 'Acme Supplies' },
				additionalFields: { dueDate: '2026-12-01', notes: 'Q4 supplies', vendorEmail: '' },
			},
			'POST /v1/payables 201',
			{
				invoice_number: 'BILL-1',
				amount: 99.99,
				vendor_id: vendorId,
				due_date: '2026-12-01',
				notes: 'Q4 supplies',
			},
			{
				vendor_id: vendorId,
				vendor_name: 'Acme Supplies',
				status: 'pending_review',
				payment_method: 'ach',
			},
		);
	});

	it('without a vendor id but with a vendor name and wire details (normalised IBAN and SWIFT)', async () => {
		const { requests } = await create({
			amount: 2500,
			vendorId: { __rl: true, mode: 'list', value: '' },
			additionalFields: {
				vendorName: 'Initech GmbH',
				vendorEmail: 'ap@initech.de',
				paymentMethod: 'wire',
				accountNumber: VALID.account,
				iban: 'de89 3704 0044 0532 0130 00',
				swiftCode: 'deutdeff',
				bankName: 'Deutsche Bank',
			},
		});
		expect(requests[0].body).toEqual({
			invoice_number: 'BILL-1',
			amount: 2500,
			vendor_name: 'Initech GmbH',
			vendor_email: 'ap@initech.de',
			payment_method: 'wire',
			account_number: VALID.account,
			iban: VALID.iban,
			swift_code: VALID.swift,
			bank_name: 'Deutsche Bank',
		});
	});

	// Details of another method are left out by the code vendor create shares (vendor: create).
	it('without a method every detail is checked and sent (the vendor’s method applies)', async () => {
		const additionalFields = {
			accountNumber: VALID.account,
			routingNumber: VALID.routing,
			bankName: 'First',
		};
		const { requests } = await create({ amount: 12, vendorId: byId(vendorId), additionalFields });
		expect(requests[0].body).toEqual({
			invoice_number: 'BILL-1',
			amount: 12,
			vendor_id: vendorId,
			account_number: VALID.account,
			routing_number: VALID.routing,
			bank_name: 'First',
		});
	});
});

describe('vendor: create', () => {
	it('ach: name, method and details in snake_case; the output hides full numbers', async () => {
		const output = await env.runOne(
			{
				resource: 'vendor',
				operation: 'create',
				name: '  Acme Supplies  ',
				paymentMethod: 'ach',
				additionalFields: {
					email: 'ar@acme.com',
					accountNumber: VALID.account,
					routingNumber: VALID.routing,
					bankName: 'First National',
					accountName: 'Acme Supplies LLC',
					bankAddress: '',
				},
			},
			'POST /v1/vendors 201',
			{
				name: 'Acme Supplies',
				email: 'ar@acme.com',
				payment_method: 'ach',
				account_number: VALID.account,
				routing_number: VALID.routing,
				bank_name: 'First National',
				account_name: 'Acme Supplies LLC',
			},
			{
				name: 'Acme Supplies',
				account_number_last4: VALID.account.slice(-4),
				routing_number_last4: VALID.routing.slice(-4),
			},
		);
		expectNowhereIn(output, VALID.account);
	});

	// The editor hides the details of another method once one is chosen, but keeps what was typed
	// before: a value the user cannot see is neither checked nor sent.
	it.each([
		[
			'ach',
			{
				accountNumber: VALID.account,
				routingNumber: VALID.routing,
				iban: 'DE00 not an iban',
				swiftCode: 'x',
				walletAddress: '0x1234',
				walletChain: 'tron',
			},
			{ payment_method: 'ach', account_number: VALID.account, routing_number: VALID.routing },
		],
		[
			'={{ "crypto" }}',
			{ walletAddress: VALID.evm, walletChain: 'base', bankName: 'Bank', accountNumber: '12' },
			{ payment_method: 'crypto', wallet_address: VALID.evm, wallet_chain: 'base' },
		],
	])(
		'%s: details of another method are not sent, even when malformed',
		async (paymentMethod, additionalFields, sent) => {
			const parameters = { name: 'Switched Co', paymentMethod, additionalFields };
			const { requests } = await env.runOk({
				resource: 'vendor',
				operation: 'create',
				...parameters,
			});
			expect(requests[0].body).toEqual({ name: 'Switched Co', ...sent });
		},
	);
});

describe('vendor: update', () => {
	// [what, updateFields, the PATCH body, what the output then holds]
	it.each([
		[
			'PATCH by resource locator id with only the set fields',
			{ name: 'New Name', email: 'new@acme.com', paymentMethod: 'wire' },
			{ name: 'New Name', email: 'new@acme.com', payment_method: 'wire' },
			{ name: 'New Name', payment_method: 'wire' },
		],
		[
			'an empty field is left out of the PATCH, not sent as ""',
			{ name: ' Renamed ', email: '' },
			{ name: 'Renamed' },
			{ name: 'Renamed', email: 'old@acme.com' },
		],
	])('%s', async (_name, updateFields, body, output) => {
		const v = await env.api('POST', '/v1/vendors', {
			name: 'Old',
			email: 'old@acme.com',
			payment_method: 'ach',
			account_number: VALID.account,
			routing_number: VALID.routing,
		});
		const id = String(v.id);
		await env.runOne(
			{ resource: 'vendor', operation: 'update', vendorId: byId(id), updateFields },
			`PATCH /v1/vendors/${id} 200`,
			body,
			{ id, ...output },
		);
	});
});

describe('vendor: getAll', () => {
	it('search filter is sent as `search` and narrows the list', async () => {
		await env.api('POST', '/v1/vendors', {
			name: 'Zeta Widgets',
			payment_method: 'crypto',
			wallet_address: VALID.evm,
			wallet_chain: 'ethereum',
		});
		await env.sb.admin.seedVendors(5);
		const { items, requests } = await env.runOk({
			resource: 'vendor',
			operation: 'getAll',
			returnAll: true,
			filters: { search: 'zeta' },
		});
		expect(requests.map((r) => r.query)).toEqual([{ search: 'zeta', page: '1', limit: '100' }]);
		expect(items.map((i) => i.json.name)).toEqual(['Zeta Widgets']);
	});

	it('an empty list gives no items and no error', async () => {
		const { items } = await env.runOk({ resource: 'vendor', operation: 'getAll', returnAll: true });
		expect(items).toEqual([]);
	});
});

it('vendorId list search: GET /v1/vendors, 100 per page with a pagination token, the typed filter as `search`', async () => {
	const v = await env.api('POST', '/v1/vendors', {
		name: 'Findme Ltd',
		email: 'x@findme.io',
		payment_method: 'ach',
		account_number: VALID.account,
		routing_number: VALID.routing,
	});
	await env.sb.admin.seedVendors(120);
	const first = await env.search();
	expect(first.results).toHaveLength(100);
	expect(first.results[0]).toEqual({
		name: expect.any(String),
		value: expect.stringMatching(/^[0-9a-f-]{36}$/),
	});
	expect(first.paginationToken).toBe('2');
	const second = await env.search(undefined, first.paginationToken as string);
	expect(second.results).toHaveLength(21);
	expect(second.paginationToken).toBeUndefined();
	const found = await env.search('FINDME');
	expect(found.results).toEqual([{ name: 'Findme Ltd (x@findme.io)', value: v.id }]);
	expect((await env.requests()).map((r) => r.query)).toEqual([
		{ page: '1', limit: '100' },
		{ page: '2', limit: '100' },
		{ page: '1', limit: '100', search: 'FINDME' },
	]);
});
