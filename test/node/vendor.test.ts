import { byId, useEnv, VALID } from './support';

const env = useEnv();

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
		expect(JSON.stringify(output)).not.toContain(VALID.account);
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
