/**
 * Pagination of the list endpoints (vendors, treasury transactions): bounds, meta, empty list,
 * exact multiple of the page size, last partial page, default limit, stable ordering.
 */
import type { NewTransaction } from '../../sandbox';
import { expectPageMeta, expectValidationError, useHarness } from './support';

const h = useHarness();

async function seed(count: number) {
	await h.admin.reset('none');
	const res = await h.raw.post('/_admin/vendors/seed', { count });
	expect(res.body).toEqual({ data: { added: count, total: count } });
}

function page(query: Record<string, string | number>) {
	return h.api.get('/v1/vendors', { query });
}

/** Ordered by created_at, then id (ISO date-times of one length compare as strings). */
function expectListOrder(items: Array<{ id: string; created_at: string }>): void {
	const keys = items.map((x) => `${x.created_at} ${x.id}`);
	expect(keys).toEqual([...keys].sort());
}

describe('vendors', () => {
	test.each([
		['defaults: page 1, limit 50', {}, 1, 50, true, 50],
		['an exact multiple: the last full page', { page: 5 }, 5, 50, false, 50],
		['the last partial page', { limit: 100, page: 3 }, 3, 100, false, 50],
		['past the end', { limit: 100, page: 4 }, 4, 100, false, 0],
		['limit 1, last page', { limit: 1, page: 250 }, 250, 1, false, 1],
		['limit 100', { limit: 100 }, 1, 100, true, 100],
	])('250 vendors, %s', async (_label, query, pageNo, limit, hasMore, count) => {
		if ((await page({})).body.meta.total !== 250) await seed(250);
		const res = await page(query);
		expectPageMeta(res, { page: pageNo, limit, total: 250, has_more: hasMore });
		expect(res.body.data).toHaveLength(count);
	});

	test('seeding adds; walking all pages (limit 7) gives every vendor once, in list order; a page is stable', async () => {
		await seed(36);
		const added = await h.raw.post('/_admin/vendors/seed', { count: 4 });
		expect(added.body.data).toEqual({ added: 4, total: 40 });
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
		for (let n = 1; ; n++) {
			const res = await page({ limit: 7, page: n });
			expect(res.body.meta.total).toBe(43);
			all.push(...res.body.data);
			if (!res.body.meta.has_more) break;
			expect(res.body.data).toHaveLength(7);
		}
		expect(new Set(all.map((v) => v.id)).size).toBe(43);
		expect(all).toHaveLength(43);
		expectListOrder(all);
		// the three created last come last (among themselves the id may decide)
		expect(all.slice(-3).map((v) => v.name)).toEqual(
			expect.arrayContaining(['Walker 0', 'Walker 1', 'Walker 2']),
		);
		expect((await page({ limit: 7, page: 3 })).body).toEqual(
			(await page({ limit: 7, page: 3 })).body,
		);
	});
});

describe('bounds (400 VALIDATION_ERROR naming the parameter)', () => {
	const cases = [
		...['0', '-1', '1.5', 'abc', '', '1e2'].map((value) => ['page', value]),
		...['0', '101', '1.5', 'abc', '', '-10'].map((value) => ['limit', value]),
	];
	const lists = ['/v1/vendors', '/v1/treasury/transactions'];
	test.each(lists.flatMap((path) => cases.map(([name, value]) => [path, name, value])))(
		'%s %s=%j',
		async (path, name, value) => {
			expectValidationError(await h.api.get(path, { query: { [name]: value } }), name);
		},
	);

	test('a repeated parameter is 400', async () => {
		expectValidationError(await h.api.get('/v1/vendors?limit=10&limit=20'), 'limit');
	});
});

test('treasury transactions: an exact multiple, past the end, a last partial page, list order', async () => {
	await h.admin.reset('none');
	// ten distinct hours, three transactions each: the id decides within an hour
	const txs: NewTransaction[] = Array.from({ length: 30 }, (_, i) => ({
		type: 'deposit',
		amount: i + 1,
		currency: 'USD',
		created_at: new Date(Date.UTC(2026, 0, 1) + (i % 10) * 3600_000).toISOString(),
	}));
	await h.admin.addTransactions(txs);
	const get = (limit: number, pageNo: number) =>
		h.api.get('/v1/treasury/transactions', { query: { limit, page: pageNo } });
	const p1 = await get(15, 1);
	expectPageMeta(p1, { page: 1, limit: 15, total: 30, has_more: true });
	const p2 = await get(15, 2);
	expectPageMeta(p2, { page: 2, limit: 15, total: 30, has_more: false });
	expectPageMeta(await get(15, 3), { page: 3, limit: 15, total: 30, has_more: false });
	const all = [...p1.body.data, ...p2.body.data];
	expect(new Set(all.map((t) => t.id)).size).toBe(30);
	expectListOrder(all);
	const last = await get(7, 5);
	expectPageMeta(last, { page: 5, limit: 7, total: 30, has_more: false });
	expect(last.body.data).toHaveLength(2);
});
