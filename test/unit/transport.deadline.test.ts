/** A fake clock where exact charged times matter; real HTTP where only real timers show it. */
import {
	apiError,
	call,
	failure,
	fake,
	fakeContext,
	limiters,
	limitOf,
	NOW,
	ok,
	t,
	useFakeTransport,
} from './transport-fakes';
import {
	getVendors,
	LIST,
	okHeaders,
	serve,
	server,
	timed,
	transportWithShiftableClock,
	useScriptedServer,
} from './transport-http';
import { settledWithin } from '../../nodes/BusinessFinance/transport/deadline';
import { answer } from '../helpers/scripted-server';

useFakeTransport();
useScriptedServer();

describe("a call's budget", () => {
	it.each([
		[
			'stops at its budget',
			1,
			undefined,
			/^RATE_LIMITED: gave up after waiting 1s \(wait budget 1s\) for the first request on this API key/,
			1_000,
		],
		[
			'stops at once when cancelled',
			60,
			300,
			/^The execution was cancelled while waiting for the rate limit$/,
			300,
		],
	])(
		'a caller behind a first request on its key that takes 3 s %s, leaving no waiter or timer',
		async (_, seconds, cancelAtMs, message, afterMs) => {
			const first = fakeContext(fake, async () => {
				await fake.clock.sleep(3_000);
				return ok();
			});
			const firstDone = t.apiRequest.call(first as never, 'GET', '/v1/vendors');
			const execution = new AbortController();
			if (cancelAtMs) void fake.clock.sleep(cancelAtMs).then(() => execution.abort());
			const behind = fakeContext(fake, ok, undefined, first.calls, execution.signal);
			const options = { waitBudgetMs: seconds * 1_000 };
			const error = await failure(
				call(behind, 'GET', '/v1/vendors', undefined, undefined, options),
			);
			expect(error.message).toMatch(message);
			expect(fake.now - NOW).toBe(afterMs);
			expect([...limiters.values()].map((limiter) => limiter.waiting)).toEqual([0]);
			await fake.run(firstDone);
			expect(fake.pendingTimers).toBe(0);
			expect(first.calls).toHaveLength(1);
		},
	);

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

	it("a wait budget beyond Node's timer limit (30 days) waits behind a slow first request instead of giving up at once", async () => {
		await serve((_req, res, i) =>
			setTimeout(() => answer(res, 200, LIST, okHeaders()), i === 0 ? 500 : 0),
		);
		const { t, waiting } = transportWithShiftableClock();
		const probe = getVendors(t); // the first request on the key, answered in 0.5 s
		await new Promise((resolve) => setTimeout(resolve, 100));
		// A timer longer than 2^31 - 1 ms fires after 1 ms: the wait would end before the probe's answer.
		const [behind] = await Promise.all([
			timed(
				getVendors(t, { waitBudgetMs: 30 * 86_400_000 }).catch((error: Error) => error.message),
			),
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
			failure(getVendors(t, { waitBudgetMs: 1_500, deadlineMs: 1_500 })),
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
		const error = await failure(getVendors(t, { waitBudgetMs: 1_000 }));
		expect(error.message).toMatch(
			/^RATE_LIMITED: still rate limited after waiting 5(\.\d)?s \(wait budget 1s; the next window opens in 0\.[34]s\)$/,
		);
		expect(server.hits).toHaveLength(1);
	});
});

describe('settledWithin: the trigger joining a secret fetch in flight', () => {
	const elapsedMs = async (work: Promise<unknown>, ms: number) => {
		const started = Date.now();
		await settledWithin(work, ms);
		return Date.now() - started;
	};

	it('ends at its bound when the work never settles, and as soon as it settles, failed or not', async () => {
		expect(await elapsedMs(new Promise(() => undefined), 60)).toBeGreaterThanOrEqual(55);
		const failing = new Promise((_, reject) => setTimeout(() => reject(new Error('x')), 10));
		expect(await elapsedMs(failing, 10_000)).toBeLessThan(5_000);
		expect(await elapsedMs(Promise.resolve(), 0)).toBeLessThan(5_000);
	});
});
