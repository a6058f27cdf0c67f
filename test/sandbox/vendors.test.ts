/**
 * Vendors: POST /v1/vendors, GET /v1/vendors (search), GET /v1/vendors/{id} (assumed), PATCH
 * /v1/vendors/{id}. Masking (`*_last4`; never swift_code, iban, bank_address or full numbers) and
 * the per-method validation (docs/api-decisions.md).
 */
import { randomUUID } from 'crypto';

import {
	ABA_BAD_CHECK,
	VENDOR_FIELDS,
	achVendor,
	cryptoVendor,
	EVM_ADDRESS,
	expectDateTime,
	expectError,
	expectNoSecretFields,
	expectOnlyFields,
	expectUnset,
	expectValidationError,
	IBAN_BAD_CHECK,
	IBAN_VALID,
	sleep,
	startHarness,
	UUID_RE,
	wireVendor,
	type Harness,
} from './support';

let h: Harness;

beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => {
	await h?.close();
});

async function total(): Promise<number> {
	return (await h.api.get('/v1/vendors')).body.meta.total;
}

describe('POST /v1/vendors', () => {
	test('ach: 201, every field, last4 of account and routing, nothing secret', async () => {
		const body = achVendor({ account_number: '000123456789', routing_number: '021000021' });
		const res = await h.api.post('/v1/vendors', body);
		expect(res.status).toBe(201);
		expect(Object.keys(res.body)).toEqual(['data']);
		const v = res.body.data;
		expectOnlyFields(v, VENDOR_FIELDS);
		expect(v.id).toMatch(UUID_RE);
		expect(v).toMatchObject({
			name: body.name,
			email: body.email,
			payment_method: 'ach',
			bank_name: body.bank_name,
			account_name: body.account_name,
			account_number_last4: '6789',
			routing_number_last4: '0021',
			wallet_address: null,
			wallet_chain: null,
		});
		expectDateTime(v.created_at);
		expectDateTime(v.updated_at);
		expectNoSecretFields(res.body);
		expect(res.text).not.toContain('000123456789');
		expect(res.text).not.toContain('021000021');
	});

	test('wire with swift, iban and bank_address: none of them returned', async () => {
		const body = wireVendor({ account_number: 'GB12ABCD9876543210', routing_number: '011000015' });
		const res = await h.api.post('/v1/vendors', body);
		expect(res.status).toBe(201);
		const v = res.body.data;
		expectOnlyFields(v, VENDOR_FIELDS);
		expect(v).toMatchObject({
			payment_method: 'wire',
			account_number_last4: '3210',
			routing_number_last4: '0015',
		});
		expectNoSecretFields(res.body);
		for (const secret of [
			'DEUTDEFF',
			IBAN_VALID,
			'1 Bank Street',
			'GB12ABCD9876543210',
			'011000015',
		]) {
			expect(res.text).not.toContain(secret);
		}
	});

	test('wire with only a swift code, or only an iban, or only a routing number', async () => {
		const swiftOnly = wireVendor({ iban: undefined, swift_code: 'DEUTDEFF500' });
		delete swiftOnly.iban;
		expect((await h.api.post('/v1/vendors', swiftOnly)).status).toBe(201);
		const ibanOnly = wireVendor({ iban: 'GB82 WEST 1234 5698 7654 32' });
		delete ibanOnly.swift_code;
		const i = await h.api.post('/v1/vendors', ibanOnly);
		expect(i.status).toBe(201);
		expect(i.text).not.toContain('WEST');
		const routingOnly = wireVendor({ routing_number: '121000358' });
		delete routingOnly.swift_code;
		delete routingOnly.iban;
		const r = await h.api.post('/v1/vendors', routingOnly);
		expect(r.status).toBe(201);
		expect(r.body.data.routing_number_last4).toBe('0358');
	});

	test('wire without a routing number: routing_number_last4 null', async () => {
		const body = wireVendor();
		const res = await h.api.post('/v1/vendors', body);
		expect(res.status).toBe(201);
		expectUnset(res.body.data, 'routing_number_last4');
		expect(res.body.data.account_number_last4).toBe('3000');
	});

	test.each(['ethereum', 'base', 'polygon', 'arbitrum', 'optimism'])(
		'crypto on %s with an EVM address',
		async (chain) => {
			const res = await h.api.post('/v1/vendors', cryptoVendor({ wallet_chain: chain }));
			expect(res.status).toBe(201);
			expect(res.body.data).toMatchObject({
				payment_method: 'crypto',
				wallet_address: EVM_ADDRESS,
				wallet_chain: chain,
				account_number_last4: null,
				routing_number_last4: null,
				bank_name: null,
				account_name: null,
			});
		},
	);

	test.each([
		['solana', '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'],
		['tron', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'],
		['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
		['bitcoin', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
	])('crypto on %s with a native address %s', async (chain, address) => {
		const res = await h.api.post(
			'/v1/vendors',
			cryptoVendor({ wallet_chain: chain, wallet_address: address }),
		);
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({ wallet_chain: chain, wallet_address: address });
	});

	test('only the required fields for ach (name, payment_method and method details)', async () => {
		const res = await h.api.post('/v1/vendors', {
			name: 'Minimal ACH',
			payment_method: 'ach',
			account_number: '1234',
			routing_number: '021000021',
		});
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			name: 'Minimal ACH',
			email: null,
			bank_name: null,
			account_number_last4: '1234',
		});
	});

	const invalid: Array<[string, () => Record<string, unknown>, string]> = [
		['name missing', () => achVendor({ name: undefined }), 'name'],
		['name blank', () => achVendor({ name: '   ' }), 'name'],
		['name not a string', () => achVendor({ name: 7 }), 'name'],
		['payment_method missing', () => achVendor({ payment_method: undefined }), 'payment_method'],
		['payment_method unknown', () => achVendor({ payment_method: 'paypal' }), 'payment_method'],
		['payment_method upper case', () => achVendor({ payment_method: 'ACH' }), 'payment_method'],
		['email not an email', () => achVendor({ email: 'acme.example' }), 'email'],
		[
			'ach without account_number',
			() => achVendor({ account_number: undefined }),
			'account_number',
		],
		[
			'ach without routing_number',
			() => achVendor({ routing_number: undefined }),
			'routing_number',
		],
		[
			'ach routing_number bad check digit',
			() => achVendor({ routing_number: ABA_BAD_CHECK }),
			'routing_number',
		],
		[
			'ach routing_number 8 digits',
			() => achVendor({ routing_number: '02100002' }),
			'routing_number',
		],
		[
			'ach routing_number with letters',
			() => achVendor({ routing_number: '02100002A' }),
			'routing_number',
		],
		[
			'ach routing_number as a number',
			() => achVendor({ routing_number: 21000021 }),
			'routing_number',
		],
		[
			'ach account_number with letters',
			() => achVendor({ account_number: '12AB34' }),
			'account_number',
		],
		['ach with swift_code', () => achVendor({ swift_code: 'DEUTDEFF' }), 'swift_code'],
		['ach with wallet_address', () => achVendor({ wallet_address: EVM_ADDRESS }), 'wallet_address'],
		[
			'wire without account_number',
			() => wireVendor({ account_number: undefined }),
			'account_number',
		],
		[
			'wire without routing, swift or iban',
			() => wireVendor({ swift_code: undefined, iban: undefined }),
			'swift_code',
		],
		['wire swift_code 7 characters', () => wireVendor({ swift_code: 'DEUTDEF' }), 'swift_code'],
		['wire swift_code 9 characters', () => wireVendor({ swift_code: 'DEUTDEFF5' }), 'swift_code'],
		[
			'wire swift_code 12 characters',
			() => wireVendor({ swift_code: 'DEUTDEFF5000' }),
			'swift_code',
		],
		['wire iban bad mod-97', () => wireVendor({ iban: IBAN_BAD_CHECK }), 'iban'],
		['wire iban garbage', () => wireVendor({ iban: 'NOT-AN-IBAN' }), 'iban'],
		[
			'wire routing_number bad check digit',
			() => wireVendor({ routing_number: ABA_BAD_CHECK }),
			'routing_number',
		],
		[
			'crypto without wallet_address',
			() => cryptoVendor({ wallet_address: undefined }),
			'wallet_address',
		],
		[
			'crypto without wallet_chain',
			() => cryptoVendor({ wallet_chain: undefined }),
			'wallet_chain',
		],
		['crypto unknown chain', () => cryptoVendor({ wallet_chain: 'dogecoin' }), 'wallet_chain'],
		[
			'crypto EVM address 39 hex',
			() => cryptoVendor({ wallet_address: EVM_ADDRESS.slice(0, -1) }),
			'wallet_address',
		],
		[
			'crypto EVM address 41 hex',
			() => cryptoVendor({ wallet_address: EVM_ADDRESS + 'a' }),
			'wallet_address',
		],
		[
			'crypto EVM address without 0x',
			() => cryptoVendor({ wallet_address: EVM_ADDRESS.slice(2) + 'ab' }),
			'wallet_address',
		],
		[
			'crypto EVM address non-hex',
			() => cryptoVendor({ wallet_address: '0x' + 'g'.repeat(40) }),
			'wallet_address',
		],
		[
			'crypto EVM address on solana',
			() => cryptoVendor({ wallet_chain: 'solana', wallet_address: EVM_ADDRESS }),
			'wallet_address',
		],
		[
			'crypto bitcoin address on ethereum',
			() =>
				cryptoVendor({
					wallet_chain: 'ethereum',
					wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
				}),
			'wallet_address',
		],
		[
			'crypto with account_number',
			() => cryptoVendor({ account_number: '12345678' }),
			'account_number',
		],
		['unknown field', () => achVendor({ phone: '555-0100' }), 'phone'],
		[
			'last4 is not writable',
			() => achVendor({ account_number_last4: '6789' }),
			'account_number_last4',
		],
	];
	test.each(invalid)(
		'%s: 400 VALIDATION_ERROR naming the field, nothing created',
		async (_label, make, field) => {
			const before = await total();
			const body = make();
			for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
			expectValidationError(await h.api.post('/v1/vendors', body), field);
			expect(await total()).toBe(before);
		},
	);
});

describe('GET /v1/vendors/{id} (assumed)', () => {
	test('returns the vendor as created', async () => {
		const created = (await h.api.post('/v1/vendors', wireVendor())).body.data;
		const res = await h.api.get(`/v1/vendors/${created.id}`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ data: created });
		expectNoSecretFields(res.body);
	});

	test('unknown or malformed id: 404 NOT_FOUND', async () => {
		expectError(await h.api.get(`/v1/vendors/${randomUUID()}`), 404, 'NOT_FOUND');
		expectError(await h.api.get('/v1/vendors/not-a-uuid'), 404, 'NOT_FOUND');
	});
});

describe('PATCH /v1/vendors/{id}', () => {
	test('name and email: 200, other fields kept, updated_at moves', async () => {
		const v = (await h.api.post('/v1/vendors', achVendor())).body.data;
		await sleep(5);
		const res = await h.api.patch(`/v1/vendors/${v.id}`, {
			name: 'Acme Renamed',
			email: 'new@acme.example',
		});
		expect(res.status).toBe(200);
		expectOnlyFields(res.body.data, VENDOR_FIELDS);
		expect(res.body.data).toMatchObject({
			...v,
			name: 'Acme Renamed',
			email: 'new@acme.example',
			updated_at: expect.any(String),
		});
		expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(v.updated_at));
		expect((await h.api.get(`/v1/vendors/${v.id}`)).body.data).toEqual(res.body.data);
	});

	test('payment_method may be patched without details', async () => {
		const v = (await h.api.post('/v1/vendors', achVendor())).body.data;
		const res = await h.api.patch(`/v1/vendors/${v.id}`, { payment_method: 'wire' });
		expect(res.status).toBe(200);
		expect(res.body.data.payment_method).toBe('wire');
		expectNoSecretFields(res.body);
	});

	const invalid: Array<[string, Record<string, unknown>, string]> = [
		['email bad', { email: 'nope' }, 'email'],
		['payment_method bad', { payment_method: 'cash' }, 'payment_method'],
		['name blank', { name: '' }, 'name'],
		['name null', { name: null }, 'name'],
		['details are not patchable', { account_number: '99998888' }, 'account_number'],
		['wallet is not patchable', { wallet_address: EVM_ADDRESS }, 'wallet_address'],
	];
	test.each(invalid)('%s: 400 naming the field, unchanged', async (_label, body, field) => {
		const v = (await h.api.post('/v1/vendors', achVendor())).body.data;
		expectValidationError(await h.api.patch(`/v1/vendors/${v.id}`, body), field);
		expect((await h.api.get(`/v1/vendors/${v.id}`)).body.data).toEqual(v);
	});

	test('empty body: 400', async () => {
		const v = (await h.api.post('/v1/vendors', achVendor())).body.data;
		expectError(await h.api.patch(`/v1/vendors/${v.id}`, {}), 400, 'VALIDATION_ERROR');
	});

	test('unknown or malformed id: 404 NOT_FOUND', async () => {
		expectError(await h.api.patch(`/v1/vendors/${randomUUID()}`, { name: 'x' }), 404, 'NOT_FOUND');
		expectError(await h.api.patch('/v1/vendors/42', { name: 'x' }), 404, 'NOT_FOUND');
	});
});

describe('GET /v1/vendors search', () => {
	beforeAll(async () => {
		await h.admin.reset('none');
		const bodies = [
			achVendor({ name: 'Northwind Traders', email: 'ap@northwind.example' }),
			achVendor({ name: 'Contoso Ltd', email: 'billing@contoso.example' }),
			wireVendor({ name: 'Fabrikam GmbH', email: 'invoices@NORTHWIND-partner.example' }),
			cryptoVendor({ name: 'Tailspin Toys', email: 'pay@tailspin.example' }),
		];
		for (const b of bodies) expect((await h.api.post('/v1/vendors', b)).status).toBe(201);
	});

	test.each([
		['northwind', ['Northwind Traders', 'Fabrikam GmbH']],
		['NORTHWIND', ['Northwind Traders', 'Fabrikam GmbH']],
		['Contoso', ['Contoso Ltd']],
		['billing@', ['Contoso Ltd']],
		['toys', ['Tailspin Toys']],
		['ind Trad', ['Northwind Traders']],
		['no-such-vendor', []],
	])('search=%s', async (search, names) => {
		const res = await h.api.get('/v1/vendors', { query: { search } });
		expect(res.status).toBe(200);
		expect(res.body.data.map((v: any) => v.name)).toEqual(names);
		expect(res.body.meta).toEqual({ page: 1, limit: 50, total: names.length, has_more: false });
	});

	test('search combines with pagination', async () => {
		const res = await h.api.get('/v1/vendors', {
			query: { search: 'northwind', limit: 1, page: 2 },
		});
		expect(res.body.data.map((v: any) => v.name)).toEqual(['Fabrikam GmbH']);
		expect(res.body.meta).toEqual({ page: 2, limit: 1, total: 2, has_more: false });
	});

	test('list items are masked vendors with every field', async () => {
		const res = await h.api.get('/v1/vendors');
		expect(res.body.data).toHaveLength(4);
		for (const v of res.body.data) expectOnlyFields(v, VENDOR_FIELDS);
		expectNoSecretFields(res.body);
	});

	test('wrong parameter names are rejected: q, query, name', async () => {
		for (const name of ['q', 'query', 'name', 'per_page', 'offset']) {
			expectValidationError(await h.api.get('/v1/vendors', { query: { [name]: 'north' } }), name);
		}
	});

	test('empty search is 400', async () => {
		expectValidationError(await h.api.get('/v1/vendors', { query: { search: '' } }), 'search');
	});
});
