import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiError, failure, fake, fakeContext, json, t, useFakeTransport } from './transport-fakes';

useFakeTransport();

describe('pagination', () => {
	/** A list endpoint over `total` items, honouring page and limit like the sandbox. */
	function listServer(total: number) {
		const items = Array.from({ length: total }, (_, i) => ({
			id: `id-${String(i).padStart(5, '0')}`,
			n: i,
		}));
		return (opts: IHttpRequestOptions) => {
			const page = Number(opts.qs?.page ?? 1);
			const limit = Number(opts.qs?.limit ?? 50);
			const data = items.slice((page - 1) * limit, page * limit);
			return json(200, { data, meta: { page, limit, total, has_more: page * limit < total } });
		};
	}

	async function list(
		ctx: ReturnType<typeof fakeContext>,
		qs: IDataObject,
		options: { returnAll: boolean; limit?: number; waitBudgetMs?: number },
	) {
		const all = t.apiRequestAllItems.call(ctx as never, '/v1/vendors', qs, {
			limit: 0,
			...options,
		});
		return await fake.run(all);
	}

	it.each([0, 1, 99, 100, 101, 200, 250, 1000])(
		'listing %i items costs ceil(N/100) requests (at least one)',
		async (n) => {
			const ctx = fakeContext(fake, listServer(n));
			const items = await list(ctx, {}, { returnAll: true });
			expect(items).toHaveLength(n);
			expect(new Set(items.map((i) => i.id)).size).toBe(n);
			const pages = Array.from({ length: Math.max(1, Math.ceil(n / 100)) }, (_, i) => i + 1);
			expect(ctx.calls.map((c) => c.options.qs)).toEqual(
				pages.map((page) => ({ page, limit: 100 })),
			);
		},
	);

	it.each([
		['below 100: the limit is the page size', 500, 30, [30]],
		['above 100: pages of 100 until it has enough', 1000, 250, [100, 100, 100]],
		['larger than the list: the whole list', 120, 500, [100, 100]],
	])('a limit %s', async (_, total, limit, pageSizes) => {
		const ctx = fakeContext(fake, listServer(total));
		const items = await list(ctx, {}, { returnAll: false, limit });
		expect(items.map((i) => i.n)).toEqual([...Array(Math.min(total, limit)).keys()]);
		expect(ctx.calls.map((c) => c.options.qs?.limit)).toEqual(pageSizes);
	});

	it('passes filters through and never mutates the caller’s qs', async () => {
		const ctx = fakeContext(fake, listServer(150));
		const qs = Object.freeze({ search: 'acme', page: 7, limit: 3 });
		await list(ctx, qs, { returnAll: true });
		expect(qs).toEqual({ search: 'acme', page: 7, limit: 3 });
		expect(ctx.calls.map((c) => c.options.qs)).toEqual([
			{ search: 'acme', page: 1, limit: 100 },
			{ search: 'acme', page: 2, limit: 100 },
		]);
	});

	it.each([
		['with a total: past ceil(total/100) + 1 pages', 100, { total: 150 }, 3],
		['without a total: at the hard page cap', 1, {}, 10_000],
	])(
		'stops with a clear error when has_more never turns false, %s',
		async (_, perPage, meta, calls) => {
			let counter = 0; // fresh ids on every page
			const ctx = fakeContext(fake, () =>
				json(200, {
					data: Array.from({ length: perPage }, () => ({ id: `gen-${counter++}` })),
					meta: { ...meta, has_more: true },
				}),
			);
			const error = await failure(list(ctx, {}, { returnAll: true }));
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toMatch(/kept reporting more pages/);
			expect(ctx.calls.length).toBe(calls);
		},
		60_000,
	);

	it.each([
		['repeats a page', [{ id: 'a' }, { id: 'b' }, { id: 'c' }]],
		['sends a page of items already seen, its first id new', [{ id: 'b' }, { id: 'c' }]],
	])('stops with a clear error when the server %s', async (_, page2) => {
		const pages = [[{ id: 'a' }, { id: 'b' }, { id: 'c' }], page2];
		const ctx = fakeContext(fake, (_, i) =>
			json(200, { data: pages[Math.min(i, 1)], meta: { has_more: true, total: 9 } }),
		);
		const error = await failure(list(ctx, {}, { returnAll: true }));
		expect(error.message).toMatch(/returned page 2 of \/v1\/vendors again/);
		expect(ctx.calls).toHaveLength(2);
	});

	it('an item that shifts onto the next page is returned once', async () => {
		const pages = [
			[{ id: 'a' }, { id: 'b' }, { id: 'c' }],
			[{ id: 'c' }, { id: 'd' }, { id: 'e' }],
			[{ id: 'f' }],
		];
		const ctx = fakeContext(fake, (_, i) =>
			json(200, { data: pages[i], meta: { has_more: i < 2, total: 7 } }),
		);
		const items = await list(ctx, {}, { returnAll: true });
		expect(items.map((x) => x.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
	});

	it.each([
		['a body without a data list', { items: [] }, /without a list in "data"/],
		[
			'a list whose elements are not objects',
			{ data: [{ id: 'a' }, 1, 'text', null], meta: { has_more: false } },
			/^The service answered \/v1\/vendors with a list whose element 1 is not an object \(number\)$/,
		],
	])('%s is a clear error, not items', async (_, body, message) => {
		const ctx = fakeContext(fake, () => json(200, body));
		await expect(list(ctx, {}, { returnAll: true })).rejects.toThrow(message);
	});

	it('shares one wait budget across the pages', async () => {
		const server = listServer(300);
		const ctx = fakeContext(fake, (opts, i) =>
			i % 2 === 1 ? apiError(429, 'RATE_LIMITED', 'slow', { 'retry-after': '3' }) : server(opts),
		);
		const error = await failure(list(ctx, {}, { returnAll: true, waitBudgetMs: 5_000 }));
		expect(error.message).toMatch(/after waiting 3s \(wait budget 5s/);
	});

	it.each([
		['has_more: true, total: 250', { has_more: true, total: 250 }],
		['no has_more, total: 250', { has_more: undefined, total: 250 }],
	])(
		'Return All: an empty page 2 whose answer says more remain (%s) is an error, not 100 items',
		async (_, meta) => {
			const page1 = Array.from({ length: 100 }, (__, n) => ({ id: `v${n}` }));
			const ctx = fakeContext(fake, (_opts, i) =>
				json(200, { data: i === 0 ? page1 : [], meta: { page: i + 1, limit: 100, ...meta } }),
			);
			const error = await failure(list(ctx, {}, { returnAll: true }));
			expect(error.message).toBe(
				`The service answered page 2 of /v1/vendors with no items but said more remain (has_more: ${String(meta.has_more)}, total: 250; 100 received before it)`,
			);
			expect(ctx.calls.map((c) => c.options.qs?.page)).toEqual([1, 2]);
		},
	);
});
