/**
 * A call's budget and deadline (deadline.ts): what is charged to it (waits, and attempts), what
 * fits, and that no sleep is longer than Node's timer limit; over real HTTP, and on a fake clock
 * where exact charged times are the point.
 */
import {
	apiError,
	call,
	failure,
	fake,
	fakeContext,
	limitOf,
	useFakeTransport,
} from './transport-fakes';
import {
	creds,
	getVendors,
	LIST,
	okHeaders,
	realContext,
	serve,
	server,
	timed,
	transportWithShiftableClock,
	useScriptedServer,
} from './transport-http';
import { answer } from '../helpers/scripted-server';

useFakeTransport();
useScriptedServer();

describe("a call's budget", () => {
	/** A server whose first answer takes `ms`, and a transport whose first request is on its way. */
	async function behindSlowFirst(ms: number) {
		await serve((_req, res, i) =>
			setTimeout(() => answer(res, 200, LIST, okHeaders()), i === 0 ? ms : 0),
		);
		const shifted = transportWithShiftableClock();
		const probe = getVendors(shifted.t);
		await new Promise((resolve) => setTimeout(resolve, 100));
		return { ...shifted, probe };
	}

	it('stops when repeated 429s use up the budget, saying how long it waited', async () => {
		const ctx = fakeContext(fake, () =>
			apiError(429, 'RATE_LIMITED', 'slow', { 'retry-after': '4' }),
		);
		const start = fake.now;
		const error = await failure(
			call(ctx, 'GET', '/v1/vendors', undefined, undefined, { waitBudgetMs: 10_000 }),
		);
		// 4 s, 4 s, then the third 4 s would pass 10 s
		expect(ctx.calls).toHaveLength(3);
		expect(fake.now - start).toBe(8_000);
		expect(error.message).toMatch(/after waiting 8s \(wait budget 10s/);
	});

	it('callers behind a slow first request stop at their own budget; nobody is left waiting', async () => {
		const { t, waiting, probe } = await behindSlowFirst(3_000);
		const behind = await Promise.all(
			[1, 1].map(async (seconds) => await timed(failure(getVendors(t, seconds)))),
		);
		for (const { ms, result } of behind) {
			expect(result.message).toMatch(
				/^RATE_LIMITED: gave up after waiting 1(\.\d)?s \(wait budget 1s\) for the first request on this API key/,
			);
			expect(ms).toBeGreaterThanOrEqual(950);
			expect(ms).toBeLessThan(1_600);
		}
		expect(waiting()).toBe(0);
		expect(await probe).toEqual(LIST);
		expect(server.hits).toHaveLength(1);
	});

	it("a wait budget beyond Node's timer limit (30 days) waits behind a slow first request instead of giving up at once", async () => {
		const { t, waiting, probe } = await behindSlowFirst(500);
		// A timer longer than 2^31 - 1 ms fires after 1 ms: the wait would end before the probe's answer.
		const [behind] = await Promise.all([
			timed(getVendors(t, 30 * 86_400).catch((error: Error) => error.message)),
			probe,
		]);
		expect(behind.result).toEqual(LIST);
		expect(behind.ms).toBeGreaterThanOrEqual(300);
		expect(server.hits).toHaveLength(2);
		expect(waiting()).toBe(0);
	});

	it('a call with a deadline ends there, requests and retries included, against a server that never answers', async () => {
		// Headers sent, the body never: the server's close ends the answer after the test.
		await serve((_req, res) => res.writeHead(200, okHeaders()).flushHeaders());
		const { t } = transportWithShiftableClock(); // each attempt alone could take 60 s
		const { ms, result } = await timed(
			failure(
				t.apiRequest.call(realContext(creds()), 'GET', '/v1/vendors', undefined, undefined, {
					waitBudgetMs: 1_500,
					deadlineMs: 1_500,
				}),
			),
		);
		expect(result.message).toBe('Could not reach the Business Finance service (ETIMEDOUT)');
		expect(ms).toBeGreaterThanOrEqual(1_400);
		expect(ms).toBeLessThan(2_500);
		// A GET is retried after a timeout, but only within the deadline: here, not at all.
		expect(server.hits).toHaveLength(1);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(server.open()).toBe(0);
	}, 10_000);

	it('the time a 429 takes to arrive is charged to the budget: 429s that take 5 s each end a 1 s call after the first', async () => {
		const { t, later } = transportWithShiftableClock();
		await serve((_req, res) => {
			later(5_000); // the answer takes 5 s, on the transport's clock
			res.sendDate = false; // no Date header: the shifted clock is not corrected as skew
			// A reset a fraction of a second ahead: each 429 names a new window.
			const reset = String(Date.now() + 5_000 * server!.hits.length + 300);
			answer(
				res,
				429,
				{ error: { code: 'RATE_LIMITED', message: 'slow down' } },
				limitOf(100, 0, reset),
			);
		});
		const error = await failure(getVendors(t, 1));
		expect(error.message).toMatch(
			/^RATE_LIMITED: still rate limited after waiting 5(\.\d)?s \(wait budget 1s; the next window opens in 0\.[34]s\)$/,
		);
		expect(server.hits).toHaveLength(1);
	});

	it('a cancelled execution stops waiting behind another request at once and leaves no waiter', async () => {
		const { t, waiting, probe } = await behindSlowFirst(2_000);
		const execution = new AbortController();
		setTimeout(() => execution.abort(), 300);
		const { ms, result } = await timed(failure(getVendors(t, 60, {}, execution)));
		expect(result.message).toBe('The execution was cancelled while waiting for the rate limit');
		expect(ms).toBeLessThan(800);
		expect(waiting()).toBe(0);
		await probe;
		expect(server.hits).toHaveLength(1);
	});
});
