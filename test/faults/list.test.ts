/**
 * Listing every vendor while the service fails a share of the page requests, each way it can
 * fail (500, 503, connection reset, a 200 whose body is not JSON). The sandbox's faults are drawn
 * from a seeded PRNG, so every run sees the same faults. Through the real node (WorkflowExecute,
 * real HTTP). The node must return every seeded vendor exactly once, or fail with a clear error:
 * never a silently short list.
 */
import type { IDataObject } from 'n8n-workflow';

import { allVendors, fresh, requestLog, startEnv, vendorList, type NodeTestEnv } from './support';

const N = 2500; // 25 pages of 100
const PAGES = N / 100;

let env: NodeTestEnv;
beforeAll(async () => {
	env = await startEnv();
});
afterAll(async () => {
	await env.close();
});

async function seed(): Promise<Set<string>> {
	await fresh(env);
	await env.sb.admin.seedVendors(N);
	const ids = new Set((await allVendors(env)).map((v) => String(v.id)));
	expect(ids.size).toBe(N);
	await env.sb.admin.clearRequests();
	return ids;
}

const KINDS = [
	['status500', 500],
	['status503', 503],
	['reset', 0],
	['malformed', 200],
] as const;

describe('list all with 10 % of the page requests failing', () => {
	it.each(KINDS)(
		'%s: every vendor exactly once, each page fetched once successfully',
		async (kind, loggedStatus) => {
			const seeded = await seed();
			await env.sb.admin.addFault({ kind, rate: 0.1, pathPrefix: '/v1/vendors', method: 'GET' });

			const res = await env.run(vendorList);

			expect(res.error).toBeUndefined();
			const ids = res.items.map((i) => String((i.json as IDataObject).id));
			expect(ids).toHaveLength(N);
			expect(new Set(ids).size).toBe(N); // no duplicates
			expect(new Set(ids)).toEqual(seeded); // nothing missing, nothing foreign
			expect(res.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);

			const log = await requestLog(env);
			expect(log.every((r) => r.method === 'GET' && r.path === '/v1/vendors')).toBe(true);
			const pages = log.map((r) => Number(r.query.page));
			// Only pages 1..25 were asked for, with the API's largest page, and at most 4 times each.
			expect(new Set(pages)).toEqual(new Set(Array.from({ length: PAGES }, (_, i) => i + 1)));
			expect(log.every((r) => r.query.limit === '100' || r.query.limit === 100)).toBe(true);
			for (let p = 1; p <= PAGES; p++)
				expect(pages.filter((x) => x === p).length).toBeLessThanOrEqual(4);
			// The faults did fire (seeded: 4 of the requests), and every extra request is a retry of one.
			const retries = log.length - PAGES;
			expect(retries).toBeGreaterThanOrEqual(1);
			if (kind !== 'malformed') {
				expect(log.filter((r) => r.status === loggedStatus)).toHaveLength(retries);
				expect(log.filter((r) => r.status === 200)).toHaveLength(PAGES);
			}
			// Retries are of the page that failed, straight after it: the order of pages never goes back.
			for (let i = 1; i < pages.length; i++)
				expect(pages[i] - pages[i - 1]).toBeGreaterThanOrEqual(0);
		},
		60_000,
	);
});

describe('a page that keeps failing', () => {
	// Seeded at 50 %: pages 1–13 succeed after retries, page 14 fails four times in a row.
	it('stops with a clear error and outputs nothing, not the pages it had (Continue On Fail off)', async () => {
		await seed();
		await env.sb.admin.addFault({
			kind: 'status503',
			rate: 0.5,
			pathPrefix: '/v1/vendors',
			method: 'GET',
		});

		const res = await env.run(vendorList);

		expect(res.error).toBeDefined();
		expect(res.error!.message).toMatch(/503|SERVICE_UNAVAILABLE/);
		expect(String(res.error!.description)).toMatch(/Tried 4 times/);
		expect(res.items).toHaveLength(0);
		const log = await requestLog(env);
		const ok = log.filter((r) => r.status === 200).map((r) => Number(r.query.page));
		expect(ok.length).toBeGreaterThan(0); // it failed in the middle of the list...
		const failedPage = Number(log[log.length - 1].query.page);
		expect(failedPage).toBe(Math.max(...ok) + 1);
		expect(log.filter((r) => Number(r.query.page) === failedPage).map((r) => r.status)).toEqual([
			503, 503, 503, 503,
		]);
		// ...and asked for nothing after it
		expect(Math.max(...log.map((r) => Number(r.query.page)))).toBe(failedPage);
	}, 60_000);
});
