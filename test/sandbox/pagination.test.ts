/**
 * Pagination of the list endpoints (vendors, treasury transactions): bounds, meta, empty list,
 * exact multiple of the page size, last partial page, default limit, stable ordering.
 */
import { expectPageMeta, expectValidationError, startHarness, type Harness } from './support';

let h: Harness;

beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => {
	await h?.close();
});

async function seed(count: number) {
	await h.admin.reset('none');
	const res = await h.raw.post('/_admin/vendors/seed', { count });
	expect(res.status).toBeLessThan(300);
	expect(res.body.data).toEqual({ added: count, total: count });
}

function page(query: Record<string, string | number>) {
	return h.api.get('/v1/vendors', { query });
}

describe('vendors', () => {
	test('empty list', async () => {
		await h.admin.reset('none');
		const res = await page({});
		expect(res.body).toEqual({ data: [], meta: { page: 1, limit: 50, total: 0, has_more: false } });
		expect((await page({ page: 3, limit: 10 })).body).toEqual({
			data: [],
			meta: { page: 3, limit: 10, total: 0, has_more: false },
		});
	});

	test('exact multiple of the page size: 200 vendors, limit 100', async () => {
		await seed(200);
		const p1 = await page({ limit: 100 });
		expectPageMeta(p1, { page: 1, limit: 100, total: 200, has_more: true });
		expect(p1.body.data).toHaveLength(100);
		const p2 = await page({ limit: 100, page: 2 });
		expectPageMeta(p2, { page: 2, limit: 100, total: 200, has_more: false });
		expect(p2.body.data).toHaveLength(100);
		const p3 = await page({ limit: 100, page: 3 });
		expectPageMeta(p3, { page: 3, limit: 100, total: 200, has_more: false });
		expect(p3.body.data).toEqual([]);
		const ids = new Set([...p1.body.data, ...p2.body.data].map((v: any) => v.id));
		expect(ids.size).toBe(200);
	});

	test('last partial page: 250 vendors, limit 100', async () => {
		await seed(250);
		const p3 = await page({ limit: 100, page: 3 });
		expectPageMeta(p3, { page: 3, limit: 100, total: 250, has_more: false });
		expect(p3.body.data).toHaveLength(50);
		const p2 = await page({ limit: 100, page: 2 });
		expect(p2.body.meta.has_more).toBe(true);
	});

	test('default limit 50, default page 1', async () => {
		await seed(120);
		const res = await page({});
		expectPageMeta(res, { page: 1, limit: 50, total: 120, has_more: true });
		expect(res.body.data).toHaveLength(50);
		const explicit = await page({ page: 1, limit: 50 });
		expect(explicit.body).toEqual(res.body);
	});

	test('limit 1 and limit 100 are in bounds', async () => {
		await seed(150);
		const one = await page({ limit: 1, page: 150 });
		expectPageMeta(one, { page: 150, limit: 1, total: 150, has_more: false });
		expect(one.body.data).toHaveLength(1);
		const hundred = await page({ limit: 100 });
		expect(hundred.body.data).toHaveLength(100);
	});

	test('walking all pages (limit 7) gives every vendor once, ordered by created_at then id', async () => {
		await seed(40);
		// a few created through the API as well, so the order mixes seeded and created ones
		for (let i = 0; i < 3; i++) {
			const res = await h.api.post('/v1/vendors', {
				name: `Walker ${i}`,
				payment_method: 'ach',
				account_number: '12345678',
				routing_number: '021000021',
			});
			expect(res.status).toBe(201);
		}
		const all: any[] = [];
		let n = 1;
		for (;;) {
			const res = await page({ limit: 7, page: n });
			expect(res.status).toBe(200);
			expect(res.body.meta.total).toBe(43);
			all.push(...res.body.data);
			if (!res.body.meta.has_more) break;
			expect(res.body.data).toHaveLength(7);
			n += 1;
		}
		expect(n).toBe(7);
		expect(all).toHaveLength(43);
		expect(new Set(all.map((v) => v.id)).size).toBe(43);
		const sorted = [...all].sort((a, b) =>
			a.created_at === b.created_at
				? a.id < b.id
					? -1
					: a.id > b.id
						? 1
						: 0
				: a.created_at < b.created_at
					? -1
					: 1,
		);
		expect(all.map((v) => v.id)).toEqual(sorted.map((v) => v.id));
		// the three created last come last; among themselves they may share a millisecond, and then
		// the id decides (checked above), not the order they were created in
		expect(
			all
				.slice(-3)
				.map((v) => v.name)
				.sort(),
		).toEqual(['Walker 0', 'Walker 1', 'Walker 2']);
		// the same page twice is the same
		expect((await page({ limit: 7, page: 3 })).body).toEqual(
			(await page({ limit: 7, page: 3 })).body,
		);
	});

	test('concurrent creates: every one listed once, pages still stable', async () => {
		await h.admin.reset('none');
		const results = await Promise.all(
			Array.from({ length: 30 }, (_, i) =>
				h.api.post('/v1/vendors', {
					name: `Parallel ${i}`,
					payment_method: 'crypto',
					wallet_address: '0x' + i.toString(16).padStart(40, '0'),
					wallet_chain: 'polygon',
				}),
			),
		);
		expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
		const created = new Set(results.map((r) => r.body.data.id));
		expect(created.size).toBe(30);
		const pages = await Promise.all([1, 2, 3, 4].map((p) => page({ limit: 8, page: p })));
		const listed = pages.flatMap((p) => p.body.data.map((v: any) => v.id));
		expect(listed).toHaveLength(30);
		expect(new Set(listed)).toEqual(created);
		expect(pages.map((p) => p.body.meta.has_more)).toEqual([true, true, true, false]);
	});

	test('seeded vendors are valid, masked vendors', async () => {
		await seed(5);
		const res = await page({});
		for (const v of res.body.data) {
			expect(['ach', 'wire', 'crypto']).toContain(v.payment_method);
			expect(v).not.toHaveProperty('account_number');
			expect(v).not.toHaveProperty('iban');
		}
	});

	test('seed adds to the existing vendors', async () => {
		await seed(3);
		const res = await h.raw.post('/_admin/vendors/seed', { count: 4 });
		expect(res.body.data).toEqual({ added: 4, total: 7 });
		expect((await page({})).body.meta.total).toBe(7);
	});
});

describe('bounds (400 VALIDATION_ERROR naming the parameter)', () => {
	const cases: Array<[string, string]> = [
		['page', '0'],
		['page', '-1'],
		['page', '1.5'],
		['page', 'abc'],
		['page', ''],
		['page', '1e2'],
		['limit', '0'],
		['limit', '101'],
		['limit', '1.5'],
		['limit', 'abc'],
		['limit', ''],
		['limit', '-10'],
	];
	test.each(cases)('vendors %s=%j', async (name, value) => {
		expectValidationError(await h.api.get('/v1/vendors', { query: { [name]: value } }), name);
	});
	test.each(cases)('transactions %s=%j', async (name, value) => {
		expectValidationError(
			await h.api.get('/v1/treasury/transactions', { query: { [name]: value } }),
			name,
		);
	});

	test('a repeated parameter is 400', async () => {
		const res = await h.api.get('/v1/vendors?limit=10&limit=20');
		expectValidationError(res, 'limit');
	});
});

describe('treasury transactions pagination', () => {
	test('exact multiple, last page, stable order', async () => {
		await h.admin.reset('none');
		const txs = Array.from({ length: 30 }, (_, i) => ({
			type: 'deposit',
			amount: i + 1,
			currency: 'USD',
			reference: `r${i}`,
			created_at: new Date(Date.UTC(2026, 0, 1) + (i % 10) * 3600_000).toISOString(),
		}));
		const added = await h.raw.post('/_admin/treasury/transactions', { transactions: txs });
		expect(added.status).toBeLessThan(300);
		const p1 = await h.api.get('/v1/treasury/transactions', { query: { limit: 15 } });
		expectPageMeta(p1, { page: 1, limit: 15, total: 30, has_more: true });
		const p2 = await h.api.get('/v1/treasury/transactions', { query: { limit: 15, page: 2 } });
		expectPageMeta(p2, { page: 2, limit: 15, total: 30, has_more: false });
		const p3 = await h.api.get('/v1/treasury/transactions', { query: { limit: 15, page: 3 } });
		expectPageMeta(p3, { page: 3, limit: 15, total: 30, has_more: false });
		expect(p3.body.data).toEqual([]);
		const all = [...p1.body.data, ...p2.body.data];
		expect(new Set(all.map((t: any) => t.id)).size).toBe(30);
		for (let i = 1; i < all.length; i++) {
			const a = all[i - 1];
			const b = all[i];
			expect(a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id)).toBe(
				true,
			);
		}
		const last = await h.api.get('/v1/treasury/transactions', { query: { limit: 7, page: 5 } });
		expectPageMeta(last, { page: 5, limit: 7, total: 30, has_more: false });
		expect(last.body.data).toHaveLength(2);
	});
});
