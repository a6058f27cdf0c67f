/** As docs/api-decisions.md says. */
import { expectPageMeta, expectValidationError, useHarness } from './support';

const h = useHarness();

function page(query: Record<string, string | number>) {
	return h.api.get('/v1/vendors', { query });
}

// Walking every page, each item once: test/node/resources.test.ts and test/faults/faults.test.ts.
test.each([
	['defaults: page 1, limit 50', {}, 1, 50, true, 50],
	['an exact multiple: the last full page', { page: 5 }, 5, 50, false, 50],
	['the last partial page', { limit: 100, page: 3 }, 3, 100, false, 50],
	['past the end', { limit: 100, page: 4 }, 4, 100, false, 0],
	['limit 1, last page', { limit: 1, page: 250 }, 250, 1, false, 1],
	['limit 100', { limit: 100 }, 1, 100, true, 100],
])('250 vendors, %s', async (_label, query, pageNo, limit, hasMore, count) => {
	if ((await page({})).body.meta.total !== 250) {
		await h.admin.reset('none');
		expect(await h.admin.seedVendors(246)).toEqual({ added: 246, total: 246 });
		expect(await h.admin.seedVendors(4)).toEqual({ added: 4, total: 250 }); // seeding adds
	}
	const res = await page(query);
	expectPageMeta(res, { page: pageNo, limit, total: 250, has_more: hasMore });
	expect(res.body.data).toHaveLength(count);
});

test('transactions in pages, in created_at order, then id, whatever order they were added in', async () => {
	await h.admin.reset('none');
	// ten distinct hours, three transactions each: the id decides within an hour
	const hour = (i: number) => new Date(Date.UTC(2026, 0, 1) + (i % 10) * 3600_000).toISOString();
	await h.admin.addTransactions(
		Array.from({ length: 30 }, (_, i) => ({
			type: 'deposit' as const,
			amount: i + 1,
			currency: 'USD',
			created_at: hour(i),
		})),
	);
	const get = (n: number) =>
		h.api.get('/v1/treasury/transactions', { query: { limit: 20, page: n } });
	const [first, second] = [await get(1), await get(2)];
	expectPageMeta(second, { page: 2, limit: 20, total: 30, has_more: false });
	const listed: Array<{ id: string; created_at: string }> = [
		...first.body.data,
		...second.body.data,
	];
	const keys = listed.map((t) => `${t.created_at} ${t.id}`);
	expect(new Set(keys).size).toBe(30);
	expect(keys).toEqual([...keys].sort()); // ISO date-times of one length compare as strings
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
