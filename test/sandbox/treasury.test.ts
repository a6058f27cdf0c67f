/**
 * Treasury: deposit instructions (four groups of strings), transactions (from/to inclusive on the
 * UTC date of created_at, type filter, bounds), balance shape; admin-added transactions and their
 * completed/failed moves.
 */
import {
	TRANSACTION_FIELDS,
	expectDateTime,
	expectError,
	expectOnlyFields,
	expectValidationError,
	startHarness,
	type Harness,
} from './support';

let h: Harness;

beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => {
	await h?.close();
});
beforeEach(async () => {
	await h.admin.reset('none');
});

async function add(transactions: Array<Record<string, unknown>>): Promise<any[]> {
	const res = await h.raw.post('/_admin/treasury/transactions', { transactions });
	expect(res.status).toBeLessThan(300);
	expect(Array.isArray(res.body.data)).toBe(true);
	expect(res.body.data).toHaveLength(transactions.length);
	return res.body.data;
}

describe('GET /v1/treasury/deposit-instructions', () => {
	test('four groups, each with exactly its fields, every leaf a non-empty string', async () => {
		const res = await h.api.get('/v1/treasury/deposit-instructions');
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['data']);
		const groups: Record<string, string[]> = {
			crypto: ['address', 'network', 'asset'],
			ach: ['bank_name', 'routing_number', 'account_number', 'account_type', 'reference_code'],
			wire: [
				'bank_name',
				'routing_number',
				'account_number',
				'account_type',
				'bank_address',
				'reference_code',
			],
			swift: [
				'bank_name',
				'swift_code',
				'account_number',
				'iban',
				'bank_address',
				'reference_code',
			],
		};
		expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(groups).sort());
		for (const [group, fields] of Object.entries(groups)) {
			expect({ group, fields: Object.keys(res.body.data[group]).sort() }).toEqual({
				group,
				fields: [...fields].sort(),
			});
			for (const f of fields) {
				const value = res.body.data[group][f];
				expect({ group, f, type: typeof value }).toEqual({ group, f, type: 'string' });
				expect(value.length).toBeGreaterThan(0);
			}
		}
	});

	test('takes no query parameters', async () => {
		expectValidationError(
			await h.api.get('/v1/treasury/deposit-instructions', { query: { currency: 'USD' } }),
			'currency',
		);
	});
});

describe('GET /v1/treasury/transactions', () => {
	test('empty list', async () => {
		const res = await h.api.get('/v1/treasury/transactions');
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ data: [], meta: { page: 1, limit: 50, total: 0, has_more: false } });
	});

	test('every field of a transaction; admin defaults completed', async () => {
		const [t] = await add([
			{ type: 'deposit', amount: 2500.75, currency: 'USD', network: 'ach', reference: 'DEP-1' },
		]);
		const res = await h.api.get('/v1/treasury/transactions');
		expect(res.body.data).toHaveLength(1);
		const listed = res.body.data[0];
		expectOnlyFields(listed, TRANSACTION_FIELDS);
		expect(listed).toEqual(t);
		expect(listed.id).toMatch(/^txn_/);
		expect(listed).toMatchObject({
			type: 'deposit',
			amount: 2500.75,
			currency: 'USD',
			network: 'ach',
			reference: 'DEP-1',
			status: 'completed',
		});
		expectDateTime(listed.created_at);
		expectDateTime(listed.completed_at);
	});

	test('pending → completed and pending → failed', async () => {
		const [a, b] = await add([
			{ type: 'withdrawal', amount: 100, currency: 'USD', status: 'pending' },
			{ type: 'deposit', amount: 5, currency: 'USDC', network: 'base', status: 'pending' },
		]);
		expect(a.status).toBe('pending');
		expect(a.completed_at).toBeNull();
		const done = await h.raw.post(`/_admin/treasury/transactions/${a.id}/status`, {
			status: 'completed',
		});
		expect(done.status).toBe(200);
		expect(done.body.data.status).toBe('completed');
		expectDateTime(done.body.data.completed_at);
		const failed = await h.raw.post(`/_admin/treasury/transactions/${b.id}/status`, {
			status: 'failed',
		});
		expect(failed.status).toBe(200);
		expect(failed.body.data.status).toBe('failed');
		// only from pending
		expectError(
			await h.raw.post(`/_admin/treasury/transactions/${a.id}/status`, { status: 'failed' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
		// same created_at: listed in id order, so look them up by id
		const listed = (await h.api.get('/v1/treasury/transactions')).body.data;
		const byId = Object.fromEntries(listed.map((t: any) => [t.id, t.status]));
		expect(byId).toEqual({ [a.id]: 'completed', [b.id]: 'failed' });
	});

	describe('from / to / type', () => {
		let ids: Record<string, string>;
		beforeEach(async () => {
			const txs = await add([
				{
					type: 'deposit',
					amount: 1,
					currency: 'USD',
					created_at: '2026-01-01T00:00:00.000Z',
					reference: 'a',
				},
				{
					type: 'withdrawal',
					amount: 2,
					currency: 'USD',
					created_at: '2026-01-01T23:59:59.999Z',
					reference: 'b',
				},
				{
					type: 'conversion',
					amount: -3,
					currency: 'USD',
					created_at: '2026-01-02T12:00:00.000Z',
					reference: 'c',
				},
				{
					type: 'deposit',
					amount: 4,
					currency: 'USDC',
					created_at: '2026-01-03T00:00:00.000Z',
					reference: 'd',
				},
				{
					type: 'deposit',
					amount: 5,
					currency: 'USD',
					created_at: '2025-12-31T23:59:59.999Z',
					reference: 'e',
				},
			]);
			ids = Object.fromEntries(txs.map((t: any) => [t.reference, t.id]));
		});

		async function refs(query: Record<string, string>): Promise<string[]> {
			const res = await h.api.get('/v1/treasury/transactions', { query });
			expect(res.status).toBe(200);
			expect(res.body.meta.total).toBe(res.body.data.length);
			return res.body.data.map((t: any) => t.reference);
		}

		test('ordered by created_at ascending', async () => {
			expect(await refs({})).toEqual(['e', 'a', 'b', 'c', 'd']);
			expect(Object.keys(ids)).toHaveLength(5);
		});

		test('from and to are inclusive calendar dates (UTC date of created_at)', async () => {
			expect(await refs({ from: '2026-01-01', to: '2026-01-01' })).toEqual(['a', 'b']);
			expect(await refs({ from: '2026-01-01', to: '2026-01-02' })).toEqual(['a', 'b', 'c']);
			expect(await refs({ from: '2026-01-02' })).toEqual(['c', 'd']);
			expect(await refs({ to: '2026-01-01' })).toEqual(['e', 'a', 'b']);
			expect(await refs({ from: '2026-01-04' })).toEqual([]);
		});

		test('type filter, alone and with dates', async () => {
			expect(await refs({ type: 'deposit' })).toEqual(['e', 'a', 'd']);
			expect(await refs({ type: 'withdrawal' })).toEqual(['b']);
			expect(await refs({ type: 'conversion' })).toEqual(['c']);
			expect(await refs({ type: 'deposit', from: '2026-01-01', to: '2026-01-02' })).toEqual(['a']);
		});

		test('from after to: 400', async () => {
			const res = await h.api.get('/v1/treasury/transactions', {
				query: { from: '2026-01-03', to: '2026-01-01' },
			});
			expectError(res, 400, 'VALIDATION_ERROR');
			expect(res.body.error.message).toMatch(/from|to/);
		});

		test.each([
			['from', '2026-13-01'],
			['from', '2026-02-30'],
			['from', 'yesterday'],
			['to', '01/02/2026'],
			['to', '2026-01-02T00:00:00Z'],
			['type', 'refund'],
			['type', 'Deposit'],
			['page', '0'],
			['limit', '101'],
			['status', 'pending'],
		])('%s=%s: 400 naming the parameter', async (name, value) => {
			expectValidationError(
				await h.api.get('/v1/treasury/transactions', { query: { [name]: value } }),
				name,
			);
		});
	});
});

describe('GET /v1/treasury/balance', () => {
	test('no transactions: balances [] and updated_at', async () => {
		const res = await h.api.get('/v1/treasury/balance');
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['data']);
		expect(Object.keys(res.body.data).sort()).toEqual(['balances', 'updated_at']);
		expect(res.body.data.balances).toEqual([]);
		expectDateTime(res.body.data.updated_at);
	});

	test('per currency: available from completed, pending from pending (signed)', async () => {
		await add([
			{ type: 'deposit', amount: 1000, currency: 'USD' },
			{ type: 'withdrawal', amount: 250, currency: 'USD' },
			{ type: 'conversion', amount: -100, currency: 'USD' },
			{ type: 'conversion', amount: 100, currency: 'USDC' },
			{ type: 'deposit', amount: 40, currency: 'USD', status: 'pending' },
			{ type: 'deposit', amount: 7, currency: 'USD', status: 'failed' },
		]);
		const res = await h.api.get('/v1/treasury/balance');
		expect(res.status).toBe(200);
		const balances = res.body.data.balances;
		for (const b of balances) {
			expect(Object.keys(b).sort()).toEqual(['available', 'currency', 'pending']);
			expect(typeof b.currency).toBe('string');
			expect(typeof b.available).toBe('number');
			expect(typeof b.pending).toBe('number');
		}
		expect(balances).toEqual([
			{ currency: 'USD', available: 650, pending: 40 },
			{ currency: 'USDC', available: 100, pending: 0 },
		]);
		expectDateTime(res.body.data.updated_at);
	});

	test('takes no query parameters', async () => {
		expectValidationError(
			await h.api.get('/v1/treasury/balance', { query: { currency: 'USD' } }),
			'currency',
		);
	});
});
