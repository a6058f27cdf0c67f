import type { INodeParameters } from 'n8n-workflow';
import { byId, useEnv, VALID } from './support';

const env = useEnv();

describe('vendor: create', () => {
	it('ach: name, method and details in snake_case; the output hides full numbers', async () => {
		const res = await env.run({
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
		});
		expect(res.error).toBeUndefined();
		const reqs = await env.requests();
		expect(reqs).toHaveLength(1);
		expect(reqs[0]).toMatchObject({ method: 'POST', path: '/v1/vendors', status: 201 });
		expect(reqs[0].body).toEqual({
			name: 'Acme Supplies',
			email: 'ar@acme.com',
			payment_method: 'ach',
			account_number: VALID.account,
			routing_number: VALID.routing,
			bank_name: 'First National',
			account_name: 'Acme Supplies LLC',
		});
		expect(res.items).toHaveLength(1);
		expect(res.items[0].pairedItem).toEqual({ item: 0 });
		expect(res.items[0].json).toMatchObject({
			name: 'Acme Supplies',
			payment_method: 'ach',
			account_number_last4: VALID.account.slice(-4),
			routing_number_last4: VALID.routing.slice(-4),
		});
		expect(JSON.stringify(res.items[0].json)).not.toContain(VALID.account);
	});

	it('crypto: wallet address and chain', async () => {
		const res = await env.run({
			resource: 'vendor',
			operation: 'create',
			name: 'Chain Co',
			paymentMethod: 'crypto',
			additionalFields: { walletAddress: VALID.evm, walletChain: 'polygon' },
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests())[0].body).toEqual({
			name: 'Chain Co',
			payment_method: 'crypto',
			wallet_address: VALID.evm,
			wallet_chain: 'polygon',
		});
		expect(res.items[0].json).toMatchObject({ wallet_address: VALID.evm, wallet_chain: 'polygon' });
	});
});

describe('vendor: create, details of another method', () => {
	// The editor hides them once the method is chosen but keeps what was typed before: a value the
	// user cannot see is neither checked nor sent.
	const create = (paymentMethod: string, additionalFields: INodeParameters) =>
		env.run({
			resource: 'vendor',
			operation: 'create',
			name: 'Switched Co',
			paymentMethod,
			additionalFields,
		});

	it('are not sent, even when malformed', async () => {
		const res = await create('ach', {
			accountNumber: VALID.account,
			routingNumber: VALID.routing,
			iban: 'DE00 not an iban',
			swiftCode: 'x',
			walletAddress: '0x1234',
			walletChain: 'tron',
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests())[0].body).toEqual({
			name: 'Switched Co',
			payment_method: 'ach',
			account_number: VALID.account,
			routing_number: VALID.routing,
		});
	});

	it('crypto, even from an expression, leaves every bank detail out', async () => {
		const res = await create('={{ "crypto" }}', {
			walletAddress: VALID.evm,
			walletChain: 'base',
			bankName: 'Bank',
			accountNumber: '12',
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests())[0].body).toEqual({
			name: 'Switched Co',
			payment_method: 'crypto',
			wallet_address: VALID.evm,
			wallet_chain: 'base',
		});
	});
});

describe('vendor: update', () => {
	/** Creates an ACH vendor through the API, then runs the node's update with `updateFields`. */
	async function update(updateFields: INodeParameters) {
		const v = await env.api('POST', '/v1/vendors', {
			name: 'Old',
			email: 'old@acme.com',
			payment_method: 'ach',
			account_number: VALID.account,
			routing_number: VALID.routing,
		});
		await env.clear();
		const res = await env.run({
			resource: 'vendor',
			operation: 'update',
			vendorId: byId(String(v.id)),
			updateFields,
		});
		expect(res.error).toBeUndefined();
		const reqs = await env.requests();
		expect(reqs).toHaveLength(1);
		expect(reqs[0]).toMatchObject({
			method: 'PATCH',
			path: `/v1/vendors/${String(v.id)}`,
			status: 200,
		});
		return { id: v.id, body: reqs[0].body, output: res.items[0].json };
	}

	it('PATCH by resource locator id with only the set fields', async () => {
		const { id, body, output } = await update({
			name: 'New Name',
			email: 'new@acme.com',
			paymentMethod: 'wire',
		});
		expect(body).toEqual({ name: 'New Name', email: 'new@acme.com', payment_method: 'wire' });
		expect(output).toMatchObject({ id, name: 'New Name', payment_method: 'wire' });
	});

	it('an empty field is left out of the PATCH, not sent as ""', async () => {
		const { id, body, output } = await update({ name: ' Renamed ', email: '' });
		expect(body).toEqual({ name: 'Renamed' });
		expect(output).toMatchObject({ id, name: 'Renamed', email: 'old@acme.com' });
	});
});

describe('vendor: getAll', () => {
	it('limit 10: one request with limit=10, 10 items each paired to the input item', async () => {
		await env.sb.admin.seedVendors(30);
		await env.clear();
		const res = await env.run({
			resource: 'vendor',
			operation: 'getAll',
			returnAll: false,
			limit: 10,
		});
		expect(res.error).toBeUndefined();
		const reqs = await env.requests();
		expect(reqs.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/v1/vendors', { page: '1', limit: '10' }],
		]);
		expect(res.items).toHaveLength(10);
		expect(
			res.items.every((i) => i.pairedItem && (i.pairedItem as { item: number }).item === 0),
		).toBe(true);
		expect(res.items[0].json).toHaveProperty('id');
		expect(res.items[0].json).toHaveProperty('payment_method');
	});

	it('limit 150: two requests (100 + 100), 150 distinct items in order', async () => {
		await env.sb.admin.seedVendors(220);
		await env.clear();
		const res = await env.run({
			resource: 'vendor',
			operation: 'getAll',
			returnAll: false,
			limit: 150,
		});
		expect(res.error).toBeUndefined();
		const reqs = await env.requests();
		expect(reqs.map((r) => r.query)).toEqual([
			{ page: '1', limit: '100' },
			{ page: '2', limit: '100' },
		]);
		expect(res.items).toHaveLength(150);
		expect(new Set(res.items.map((i) => i.json.id)).size).toBe(150);
	});

	it('returnAll over 250 vendors: three requests, every vendor once', async () => {
		await env.sb.admin.seedVendors(250);
		await env.clear();
		const res = await env.run({ resource: 'vendor', operation: 'getAll', returnAll: true });
		expect(res.error).toBeUndefined();
		const reqs = await env.requests();
		expect(reqs.map((r) => r.query)).toEqual([
			{ page: '1', limit: '100' },
			{ page: '2', limit: '100' },
			{ page: '3', limit: '100' },
		]);
		expect(res.items).toHaveLength(250);
		expect(new Set(res.items.map((i) => i.json.id)).size).toBe(250);
	});

	it('search filter is sent as `search` and narrows the list', async () => {
		await env.api('POST', '/v1/vendors', {
			name: 'Zeta Widgets',
			payment_method: 'crypto',
			wallet_address: VALID.evm,
			wallet_chain: 'ethereum',
		});
		await env.sb.admin.seedVendors(5);
		await env.clear();
		const res = await env.run({
			resource: 'vendor',
			operation: 'getAll',
			returnAll: true,
			filters: { search: 'zeta' },
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests()).map((r) => r.query)).toEqual([
			{ search: 'zeta', page: '1', limit: '100' },
		]);
		expect(res.items.map((i) => i.json.name)).toEqual(['Zeta Widgets']);
	});

	it('an empty list gives no items and no error', async () => {
		const res = await env.run({ resource: 'vendor', operation: 'getAll', returnAll: true });
		expect(res.error).toBeUndefined();
		expect(res.items).toEqual([]);
	});
});

describe('vendorId list search', () => {
	it('lists vendors through GET /v1/vendors, 100 per page, with a pagination token', async () => {
		await env.sb.admin.seedVendors(120);
		await env.clear();
		const first = await env.search();
		expect(first.results).toHaveLength(100);
		expect(first.results[0]).toEqual({
			name: expect.any(String),
			value: expect.stringMatching(/^[0-9a-f-]{36}$/),
		});
		expect(first.paginationToken).toBe('2');
		const second = await env.search(undefined, first.paginationToken as string);
		expect(second.results).toHaveLength(20);
		expect(second.paginationToken).toBeUndefined();
		expect((await env.requests()).map((r) => r.query)).toEqual([
			{ page: '1', limit: '100' },
			{ page: '2', limit: '100' },
		]);
	});

	it('sends the typed filter as `search`', async () => {
		const v = await env.api('POST', '/v1/vendors', {
			name: 'Findme Ltd',
			email: 'x@findme.io',
			payment_method: 'ach',
			account_number: VALID.account,
			routing_number: VALID.routing,
		});
		await env.sb.admin.seedVendors(3);
		await env.clear();
		const res = await env.search('FINDME');
		expect(res.results).toEqual([{ name: 'Findme Ltd (x@findme.io)', value: v.id }]);
		expect((await env.requests()).map((r) => r.query)).toEqual([
			{ page: '1', limit: '100', search: 'FINDME' },
		]);
	});
});
