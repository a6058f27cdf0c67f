/**
 * The rate-limit wait budget (node option "Max Wait for Rate Limits", here 2 s): a window beyond
 * it ends in a clear error at once, never a hang, and the node sends nothing into a closed window.
 * (Waits on repeated 429s within a budget: test/unit/transport.deadline.test.ts.)
 */
import {
	fresh,
	requestLog,
	startEnv,
	vendorCreate,
	vendorList,
	withBudget,
	type NodeTestEnv,
} from './support';

let env: NodeTestEnv;
beforeAll(async () => {
	env = await startEnv();
});
afterAll(async () => {
	await env.close();
});
beforeEach(async () => {
	await fresh(env);
});

const BUDGET_S = 2;

describe('rate limit of 1 request per 60 s window, budget 2 s', () => {
	it('listing: fails at once with a clear error when the next window is further away than the budget', async () => {
		await env.sb.admin.seedVendors(250);
		await env.sb.admin.setRateLimit({ limit: 1, windowSeconds: 60 });
		const started = Date.now();

		const res = await env.run(withBudget({ ...vendorList }, BUDGET_S));

		const elapsed = Date.now() - started;
		expect(res.error).toBeDefined();
		expect(res.error!.message).toMatch(/RATE_LIMITED/);
		expect(res.error!.message).toMatch(/wait budget 2s/);
		expect(String(res.error!.description)).toMatch(
			/Max Wait for Rate Limits|Rate Limit Wait Budget/,
		);
		expect(res.items).toHaveLength(0); // not the first page alone
		expect(elapsed).toBeLessThan(10_000);
		// Page 1 used the window; the node saw it was used up and never sent page 2 into a 429.
		const log = await requestLog(env);
		expect(log.map((r) => r.status)).toEqual([200]);
	});

	it('the window already used up by another client: one 429, then the clear error', async () => {
		await env.sb.admin.setRateLimit({ limit: 1, windowSeconds: 60 });
		const other = await fetch(`${env.sb.baseUrl}/v1/vendors?limit=1`, {
			headers: { authorization: `Bearer ${env.sb.apiKey}` },
		});
		expect(other.status).toBe(200);
		await env.sb.admin.clearRequests();
		const started = Date.now();

		const res = await env.run(withBudget({ ...vendorCreate }, BUDGET_S), {
			items: [{ name: 'a' }, { name: 'b' }],
			continueOnFail: true,
		});

		expect(Date.now() - started).toBeLessThan(10_000);
		expect(res.items).toHaveLength(2);
		for (const [i, item] of res.items.entries()) {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.error).toMatch(/RATE_LIMITED: still rate limited/);
		}
		// One 429 for item 0; item 1 knew the window was closed and sent nothing.
		const log = await requestLog(env);
		expect(log.map((r) => r.status)).toEqual([429]);
		expect(await env.api('GET', '/v1/vendors?limit=1').catch((e: Error) => e.message)).toMatch(
			/429/,
		);
	});
});
