import fc from 'fast-check';

import { createTransport } from '../../nodes/BusinessFinance/transport';
import { Deadline, OverBudgetError } from '../../nodes/BusinessFinance/transport/deadline';
import {
	KeyLimiter,
	limiterFor,
	type Limiters,
} from '../../nodes/BusinessFinance/transport/limiter';
import {
	call,
	fake,
	failure,
	fakeContext,
	FakeWindowServer,
	freshClock,
	json,
	KEY,
	limiters,
	limitOf,
	NOW,
	type RecordedCall,
	t,
	type Transport,
	useFakeTransport,
} from './transport-fakes';

type Ticket = Awaited<ReturnType<KeyLimiter['acquire']>>;
/** The spec's rate window, and the longest one answer may block a key: a window and 2 s. */
const WINDOW_MS = 60_000;
const MAX_KEY_BLOCK_MS = 62_000;

let limiter: KeyLimiter;
useFakeTransport();
beforeEach(() => {
	limiter = new KeyLimiter(fake.clock);
});

const budget = (ms: number, cancel?: AbortSignal) => new Deadline(fake.clock, ms, cancel);
const acquireNow = () => limiter.acquire(budget(0)); // on a budget of no wait
const retryAfter = (ms: number) => ({ 'retry-after': (ms / 1000).toFixed(3) });
const seconds = (fromNowMs: number) => String(Math.ceil((fake.now + fromNowMs) / 1000));

/** Acquire and release at once; how long the acquire waited (virtual ms). */
async function pass(
	waitBudgetMs = 10 * WINDOW_MS,
	headers?: Record<string, string>,
): Promise<number> {
	const started = fake.now;
	const ticket = await fake.run(limiter.acquire(budget(waitBudgetMs)));
	if (headers) ticket.answered(200, headers, fake.now);
	ticket.release();
	return fake.now - started;
}

describe('what one answer can do to a key at most', () => {
	it.each([
		['a 429 asking for a day', () => limiter.rateLimited(retryAfter(86_400_000), fake.now)],
		[
			'"remaining 0" with a reset a day ahead',
			() => limiter.record(limitOf(100, 0, seconds(86_400_000)), fake.now),
		],
	])('%s blocks the key for at most 62 s', async (_, answer) => {
		answer();
		expect(await pass()).toBe(MAX_KEY_BLOCK_MS);
	});

	it.each([
		['no reset', {}],
		['an unreadable reset', { 'x-ratelimit-reset': 'soon' }],
		['a reset in the past', { 'x-ratelimit-reset': String(Math.floor(1.8e9 - 3600)) }],
	])(
		'"remaining 0" with %s: a backoff from 0.5–1 s, doubling, never over a window',
		async (_, reset) => {
			const zero = { ...limitOf(100, 0), ...reset };
			await pass(0, zero);
			const waits: number[] = [];
			for (let i = 0; i < 9; i++) waits.push(await pass(10 * WINDOW_MS, zero));
			expect(waits).toEqual([750, 1_500, 3_000, 6_000, 12_000, 24_000, 45_000, 45_000, 45_000]);
			await pass(WINDOW_MS, { ...zero, 'x-ratelimit-remaining': '5' }); // the count resets
			expect(await pass(WINDOW_MS, zero)).toBe(0);
			expect(await pass()).toBe(750);
		},
	);

	it('property: whatever the answers said, after 62 s of silence the key admits a request at once', async () => {
		const headerValue = fc.oneof(
			fc.string(),
			fc.nat().map(String),
			fc.integer({ min: -1e13, max: 1e13 }).map(String),
			fc.integer({ min: -86_400, max: 10 * 86_400 }).map((s) => seconds(s * 1000)),
		);
		const answer = fc.record(
			{
				'x-ratelimit-limit': headerValue,
				'x-ratelimit-remaining': headerValue,
				'x-ratelimit-reset': headerValue,
				'retry-after': headerValue,
				date: fc.oneof(
					fc.string(),
					fc
						.integer({ min: -1e7, max: 1e7 })
						.map((d) => new Date(fake.now + d * 1000).toUTCString()),
				),
			},
			{ requiredKeys: [] },
		);
		const event = fc.oneof(
			answer.map((headers) => ({ kind: 'answer' as const, headers })),
			fc.nat(10 * 86_400_000).map((ms) => ({ kind: '429' as const, ms })),
		);
		await fc.assert(
			fc.asyncProperty(fc.array(event, { maxLength: 8 }), async (events) => {
				freshClock();
				limiter = new KeyLimiter(fake.clock);
				for (const e of events) {
					if (e.kind === '429') limiter.rateLimited(retryAfter(e.ms), fake.now);
					else limiter.record(e.headers as Record<string, string>, fake.now);
				}
				fake.now += MAX_KEY_BLOCK_MS;
				const ticket = await fake.run(acquireNow());
				ticket.release();
			}),
			{ numRuns: 300 },
		);
	});
});

describe('queueing behind the first request on a key', () => {
	it('without rate-limit headers nothing is tracked and nobody queues', async () => {
		const first = await fake.run(acquireNow());
		first.answered(200, {}, fake.now);
		first.release();
		const tickets = await fake.run(Promise.all(Array.from({ length: 5 }, acquireNow)));
		expect(tickets).toHaveLength(5);
	});

	it('counts the requests still in flight: an answer says what remained when it was counted', async () => {
		await pass(0, limitOf(5, 3, seconds(10_000)));
		const [a, b] = await fake.run(Promise.all([acquireNow(), acquireNow()]));
		a.answered(200, limitOf(5, 2, seconds(10_000)), fake.now);
		a.release();
		b.release(); // no answer (a connection reset, say): it may have been counted
		// 2 remained when `a` was counted, and `b` was on its way: one is left.
		await pass(0);
		await expect(fake.run(acquireNow())).rejects.toBeInstanceOf(OverBudgetError);
	});

	const limitFive = (remaining: number) => limitOf(5, remaining, seconds(10_000));

	// The service counts `a` and `b` before it answers `a`; `b` taken as uncounted, `a2` gets
	// what looks like the last slot.
	async function bCountedBeforeAWasAnswered() {
		await pass(0, limitFive(4));
		const [a, b] = await fake.run(Promise.all([acquireNow(), acquireNow()]));
		a.answered(200, limitFive(2), fake.now);
		a.release();
		const a2 = await fake.run(acquireNow());
		return { b, a2 };
	}

	it('a request the service counted before another request was answered gives its slot back once answered', async () => {
		const { b, a2 } = await bCountedBeforeAWasAnswered();
		await expect(fake.run(acquireNow())).rejects.toBeInstanceOf(OverBudgetError);
		b.answered(200, limitFive(2), fake.now); // `b`'s answer: it was among the 3 already counted
		b.release();
		a2.answered(200, limitFive(1), fake.now);
		a2.release();
		// 4 requests counted, one left: it is admitted, and then nothing more.
		await pass(0);
		await expect(fake.run(acquireNow())).rejects.toBeInstanceOf(OverBudgetError);
	});

	it('a caller whose budget ends before the window (in 10 s) fails at its budget, unless an answer gives a slot back first', async () => {
		const { b, a2 } = await bCountedBeforeAWasAnswered();
		const error = await failure(fake.run(limiter.acquire(budget(1_000))));
		expect(error).toBeInstanceOf(OverBudgetError);
		expect(fake.now).toBe(NOW + 1_000);
		expect(limiter.waiting).toBe(0);
		const waiter = limiter.acquire(budget(1_000));
		void fake.clock.sleep(300).then(() => {
			b.answered(200, limitFive(2), fake.now); // `b`'s answer: one slot is left after `a2`
			b.release();
		});
		(await fake.run(waiter)).release();
		expect(fake.now).toBe(NOW + 1_300);
		a2.release();
	});

	it('an answer that does not tell the count (a gateway 504, say) keeps its slot taken', async () => {
		await pass(0, limitFive(4));
		await pass(0, {}); // counted by the service, perhaps: the gateway does not say
		for (let i = 0; i < 3; i++) await pass(0);
		await expect(fake.run(acquireNow())).rejects.toBeInstanceOf(OverBudgetError);
	});

	const fromNow = (remaining: number, seconds: number) => limitOf(5, remaining, String(seconds));

	it('a reset sent as seconds from now, a little earlier on a later answer, is still the same window', async () => {
		await pass(0, fromNow(4, 60));
		fake.now += 500;
		await pass(0, fromNow(0, 59)); // 500 ms earlier than the first answer's, same window
		await expect(fake.run(acquireNow())).rejects.toBeInstanceOf(OverBudgetError);
	});

	it('a reset sent as seconds from now, a little later on a later answer, is still the same window', async () => {
		await pass(0, fromNow(4, 60));
		(await fake.run(acquireNow())).release(); // no answer: it may be counted yet
		fake.now += 500;
		await pass(0, fromNow(3, 60)); // 500 ms later than the first answer's; the other not counted
		// 3 remained, less the one that got no answer, less nothing on its way: 2.
		for (let i = 0; i < 2; i++) await pass(0);
		await expect(fake.run(acquireNow())).rejects.toBeInstanceOf(OverBudgetError);
	});

	it('a late answer from an earlier window says nothing about the current one', async () => {
		const earlierReset = seconds(10_000);
		await pass(0, limitFive(4));
		const late = await fake.run(acquireNow());
		fake.now += 11_000; // that window is over; the next one opens
		await pass(0, limitFive(4));
		late.answered(200, { ...limitFive(0), 'x-ratelimit-reset': earlierReset }, fake.now);
		late.release();
		for (let i = 0; i < 4; i++) await pass(0);
		await expect(fake.run(acquireNow())).rejects.toBeInstanceOf(OverBudgetError);
	});
});

describe('a service that counts concurrent requests in any order', () => {
	interface InFlight {
		ticket: Ticket;
		countedAs?: number;
	}

	// The service counts each request at some moment on its way, reporting the count as of counting
	// or of answering; with `failures`, some requests get no answer or one without the count.
	async function schedule(
		limit: number,
		callers: number,
		steps: number[],
		asAnswered: boolean,
		failures = false,
	) {
		freshClock();
		limiter = new KeyLimiter(fake.clock);
		let count = 1; // the request that opened the window
		let mostCounted = count;
		let failed = 0;
		const said = (n: number) => limitOf(limit, limit - n, seconds(10_000));
		await pass(0, said(count));
		const onTheirWay: InFlight[] = [];
		const tryToSend = async () => {
			try {
				onTheirWay.push({ ticket: await fake.run(acquireNow()) });
			} catch (error) {
				expect(error).toBeInstanceOf(OverBudgetError);
			}
		};
		const countOne = (r: InFlight) => {
			count += 1;
			mostCounted = Math.max(mostCounted, count);
			r.countedAs = count;
		};
		const answer = (index: number) => {
			const [r] = onTheirWay.splice(index, 1);
			if (r.countedAs === undefined) countOne(r);
			r.ticket.answered(200, said(asAnswered ? count : (r.countedAs as number)), fake.now);
			r.ticket.release();
		};
		const fail = (index: number, withoutCount: boolean) => {
			const [r] = onTheirWay.splice(index, 1);
			failed += 1;
			// a gateway's answer without the count, or a timeout or a reset: counted or not
			if (withoutCount) r.ticket.answered(200, {}, fake.now);
			r.ticket.release();
		};
		for (const step of steps) {
			const uncounted = onTheirWay.filter((r) => r.countedAs === undefined);
			if (failures && step % 7 === 6 && onTheirWay.length > 0) {
				fail(step % onTheirWay.length, step % 2 === 0);
				continue;
			}
			if (step % 3 === 0 && onTheirWay.length < callers) await tryToSend();
			else if (step % 3 === 1 && uncounted.length > 0) countOne(uncounted[step % uncounted.length]);
			else if (onTheirWay.length > 0) answer(step % onTheirWay.length);
		}
		while (onTheirWay.length > 0) answer(0);
		for (let sent = true; sent;) {
			const before = onTheirWay.length;
			await tryToSend();
			sent = onTheirWay.length > before;
			if (sent) answer(0);
		}
		return { mostCounted, count, failed };
	}

	it('property: the count never passes the limit, and no slot of the window is left unused (but those of requests that got no answer)', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 2, max: 12 }),
				fc.integer({ min: 1, max: 4 }),
				fc.array(fc.nat({ max: 1000 }), { minLength: 0, maxLength: 120 }),
				fc.boolean(),
				fc.boolean(),
				async (limit, callers, steps, asAnswered, failures) => {
					const run = await schedule(limit, callers, steps, asAnswered, failures);
					expect(run.mostCounted).toBeLessThanOrEqual(limit);
					// each one unanswered may cost its slot, whether the service counted it or not
					expect(run.count).toBeGreaterThanOrEqual(limit - run.failed);
				},
			),
			{ numRuns: 500 },
		);
	});
});

describe('the wait after a 429, decided by the limiter alone', () => {
	/** Until when the key's `times`-th 429 in a row holds off (those before it named nothing), in ms from now. */
	function waitMs(headers: Record<string, string>, times: number, random: number): number {
		const limiter = new KeyLimiter(fake.clock);
		fake.randomValue = random;
		for (let i = 1; i < times; i++) limiter.rateLimited({}, NOW);
		return limiter.rateLimited(headers, NOW) - NOW;
	}

	const at = (fromNowMs: number) => new Date(NOW + fromNowMs).toUTCString();
	const past = at(-5_000);
	const reset = (s: number) => ({ 'x-ratelimit-reset': String(Math.floor(NOW / 1000) + s) });
	const retry = (value: string) => ({ 'retry-after': value });
	it.each<[string, Record<string, string>, number, number, number]>([
		['Retry-After before the reset', { ...retry('7'), ...reset(2) }, 1, 0.5, 7_000],
		['the reset plus a margin', reset(2), 1, 0.5, 2_050],
		['nothing: a backoff', {}, 1, 0.5, 750],
		['nothing, the 3rd time: a doubled backoff', {}, 3, 0.5, 3_000],
		['nothing, the 30th time: at most a window', {}, 30, 1, WINDOW_MS],
		['a tiny Retry-After, the 1st time', retry('0.01'), 1, 0.5, 10],
		// from the key's second 429 in a row, at least a backoff however little the service asks
		['a tiny Retry-After, the 2nd time', retry('0.01'), 2, 0.5, 750],
		['a reset 20 ms ahead, the 4th time', { 'x-ratelimit-reset': `${NOW + 20}` }, 4, 0.5, 3_000],
		['Retry-After 7 s, the 4th time', retry('7'), 4, 0.5, 7_000],
		['a Retry-After in the past', { ...retry(past), ...reset(3) }, 1, 0.5, 3_050],
		['garbage', { 'retry-after': 'soon', 'x-ratelimit-reset': 'later' }, 1, 0, 500],
		['a Retry-After HTTP date', { 'Retry-After': at(4_000) }, 1, 0.5, 4_000],
		// a service clock 10 minutes ahead (its Date header) is corrected, one 2 s ahead is not
		['a reset from a clock 10 min ahead', { date: at(600_000), ...reset(603) }, 1, 0.5, 3_050],
		['a reset from a clock 2 s ahead', { date: at(2_000), ...reset(3) }, 1, 0.5, 3_050],
	])('%s: waits as decided', (_, headers, times, random, expected) => {
		expect(waitMs(headers, times, random)).toBe(expected);
	});

	it('an answer other than a 429 ends the run of 429s', async () => {
		fake.randomValue = 0.5;
		limiter.rateLimited({}, fake.now);
		fake.now += 10_000;
		await pass(0, {}); // answered without a 429
		expect(limiter.rateLimited({}, fake.now) - fake.now).toBe(750);
	});

	it('starts again at the first when a 429 names a later window (another worker took the one waited for)', () => {
		fake.randomValue = 0.5;
		limiter.rateLimited(reset(2), NOW);
		// as a first 429: until the reset and its margin, no backoff floor
		expect(limiter.rateLimited(reset(4), NOW + 2_100) - NOW).toBe(4_050);
	});

	// Mostly just ahead of now (where hammering would start), sometimes anywhere in a window.
	const resetOffsetMs = fc.oneof(
		{ arbitrary: fc.integer({ min: -100, max: 300 }), weight: 4 },
		{ arbitrary: fc.integer({ min: -5_000, max: 70_000 }), weight: 1 },
	);

	it('however a hostile service moves its reset, in a 429 storm any two gaps in a row between requests take at least 0.55 s', () => {
		fc.assert(
			fc.property(
				fc.array(resetOffsetMs, { minLength: 2, maxLength: 40 }),
				fc.boolean(),
				fc.double({ min: 0, max: 1, noNaN: true }),
				(offsetsMs, inSeconds, random) => {
					const limiter = new KeyLimiter(fake.clock);
					fake.randomValue = random;
					let nowMs = NOW;
					const gapsMs: number[] = [];
					for (const offsetMs of offsetsMs) {
						const atMs = nowMs + offsetMs;
						const headers = {
							'x-ratelimit-reset': String(inSeconds ? Math.ceil(atMs / 1000) : atMs),
						};
						const endMs = limiter.rateLimited(headers, nowMs);
						gapsMs.push(endMs - nowMs);
						nowMs = endMs;
					}
					// A run starts again only for a window at least a second after the last one,
					// and otherwise waits at least 0.5 s: any two gaps in a row take at least 0.55 s.
					for (let i = 1; i < gapsMs.length; i++) {
						expect(gapsMs[i - 1] + gapsMs[i]).toBeGreaterThanOrEqual(550);
					}
				},
			),
		);
	});
});

describe('the rate-limit headers, read through a transport', () => {
	it.each([
		['Unix seconds', '1800000005', 5_050],
		['Unix ms', '1800000005123', 5_173],
		['seconds from now', '30', 30_050],
		['milliseconds from now (60,000 s would be past an hour)', '60000', 60_050],
		['an hour in seconds: capped at a window and 2 s', '3600', MAX_KEY_BLOCK_MS],
		['an HTTP date', 'Fri, 15 Jan 2027 08:00:10 GMT', 10_050],
		['garbage: a backoff instead', 'garbage', 750],
		['nothing: a backoff instead', undefined, 750],
	])(
		'"remaining 0" with the reset as %s: the key waits until 50 ms after it',
		async (_, value, ms) => {
			expect(fake.now).toBe(NOW); // 2027-01-15 08:00:00 UTC
			limiter.record(limitOf(100, 0, value), fake.now);
			expect(await pass()).toBe(ms);
		},
	);
});

it('a 429 whose reset is a millisecond delta is waited out (a minute), then the call succeeds', async () => {
	const ctx = fakeContext(fake, (_, index) =>
		index === 0
			? json(429, { error: { code: 'RATE_LIMITED', message: 'slow' } }, limitOf(100, 0, '60000'))
			: json(200, { data: [] }, limitOf(100, 99, '60000')),
	);
	const start = fake.now;
	await call(ctx, 'GET', '/v1/vendors');
	expect(ctx.calls).toHaveLength(2);
	expect(ctx.calls[1].at - start).toBe(60_050);
});

describe('the registry of limiters', () => {
	const keys = (n: number, prefix: string) =>
		Array.from({ length: n }, (_, i) => `svc_${prefix}_${i}`);

	it('keeps at most 1,000 idle keys, and never drops the limiter of a key in use', async () => {
		const registry: Limiters = new Map();
		const busy = limiterFor(registry, 'svc_busy', fake.clock);
		const ticket = await fake.run(busy.acquire(budget(0)));
		for (const key of keys(1_500, 'a')) limiterFor(registry, key, fake.clock);
		expect(registry.size).toBe(1_000);
		expect(limiterFor(registry, 'svc_busy', fake.clock)).toBe(busy); // its callers share it still
		ticket.release();
		for (const key of keys(1_000, 'b')) limiterFor(registry, key, fake.clock);
		expect(registry.size).toBe(1_000);
		expect(limiterFor(registry, 'svc_busy', fake.clock)).not.toBe(busy);
	});

	it('a key held off by a 429 keeps its limiter: its next caller still waits', async () => {
		const registry: Limiters = new Map();
		const held = limiterFor(registry, 'svc_held', fake.clock);
		held.rateLimited(limitOf(100, 0, '30'), fake.now);
		for (const key of keys(1_200, 'c')) limiterFor(registry, key, fake.clock);
		expect(limiterFor(registry, 'svc_held', fake.clock)).toBe(held);
	});

	it('a key whose window is used up, with callers waiting for the next one (none in flight), keeps its limiter: a new caller waits with them', async () => {
		const registry: Limiters = new Map();
		const used = limiterFor(registry, 'svc_used_up', fake.clock);
		const first = await fake.run(used.acquire(budget(0)));
		first.answered(200, limitOf(1, 0, seconds(30_000)), fake.now); // the window's last request
		first.release();
		// waits for the next window, then sends at once
		const waiting = used.acquire(budget(10 * WINDOW_MS)).then((ticket) => ticket.release());
		await fake.run(fake.clock.sleep(10));
		for (const key of keys(1_200, 'd')) limiterFor(registry, key, fake.clock);
		const again = limiterFor(registry, 'svc_used_up', fake.clock);
		expect(again).toBe(used);
		const started = fake.now;
		const next = await fake.run(again.acquire(budget(10 * WINDOW_MS)));
		expect(fake.now - started).toBeGreaterThanOrEqual(29_000); // not sent into the used-up window
		next.release();
		await fake.run(waiting);
	});
});

describe('proactive waiting and per-key sharing', () => {
	const countedOnArrival = (server: FakeWindowServer) => async () => {
		const answer = server.handle();
		await fake.clock.sleep(3);
		return answer;
	};
	const headers = (remaining: number, resetMs: number) =>
		limitOf(100, remaining, String(Math.ceil(resetMs / 1000)));

	it('one limiter per key, shared by every execution and never keyed by the key itself', async () => {
		const reset = fake.now + 5_000;
		const calls: RecordedCall[] = [];
		const responder = () => json(200, { data: 1 }, headers(0, reset));
		const [a, b] = [1, 2].map(() => fakeContext(fake, responder, undefined, calls));
		const otherKey = 'svc_dummy_another_key_987654321';
		const other = fakeContext(fake, responder, { apiKey: otherKey }, calls);
		await call(a, 'GET', '/v1/vendors');
		await call(other, 'GET', '/v1/vendors');
		expect(fake.now).toBeLessThan(reset); // the other key did not wait
		await call(b, 'GET', '/v1/vendors');
		expect(calls[2].at).toBeGreaterThanOrEqual(reset); // b waited for the reset a's answer named
		expect([...limiters.keys()].join()).not.toContain(KEY.slice(4));
	});

	it('40 concurrent callers on one key (5 per 1 s window) queue instead of stampeding', async () => {
		const server = new FakeWindowServer(fake, 5, 1_000);
		const calls: RecordedCall[] = [];
		const contexts = Array.from({ length: 4 }, () =>
			fakeContext(fake, () => server.handle(), undefined, calls),
		);
		const start = fake.now;
		const all = Promise.all(
			Array.from({ length: 40 }, (_, i) =>
				t.apiRequest.call(contexts[i % 4] as never, 'GET', '/v1/vendors'),
			),
		);
		const results = await fake.run(all);
		expect(results).toHaveLength(40);
		expect(server.served).toBe(40);
		// At most one 429 per window; with a fresh state, none at all.
		expect(server.rateLimited).toBeLessThanOrEqual(1);
		expect(calls.length).toBe(40 + server.rateLimited);
		// 40 requests at 5 per second need 8 windows: done in about 7 s, not much more.
		expect(fake.now - start).toBeGreaterThanOrEqual(7_000);
		expect(fake.now - start).toBeLessThan(8_500);
	});

	it.each([
		['first request', 'firstRequest'],
		['the clock', 'aligned'],
	] as const)(
		"two processes on one key at the spec's 60 s window (windows start with %s): ≤ one 429 per window each, ≤ 1.02 × the floor",
		async (_, mode) => {
			// Two n8n workers: two transports, each with its own per-key state, one service.
			fake.now += 300; // windows start off the second boundary
			const server = new FakeWindowServer(fake, 5, WINDOW_MS, mode);
			const workers = [t, createTransport({ clock: fake.clock })];
			const start = fake.now;
			const listing = async (worker: Transport) => {
				const ctx = fakeContext(fake, countedOnArrival(server));
				for (let i = 0; i < 50; i++)
					await worker.apiRequest.call(ctx as never, 'GET', '/v1/vendors');
			};
			await fake.run(Promise.all(workers.map(listing)));
			const elapsed = fake.now - start;
			// 100 requests at 5 per window: 20 windows, the last opens at least 19 windows after the
			// first (aligned to the clock: after what was left of the first window).
			const windows = 20;
			const floor = (windows - 1) * WINDOW_MS - (mode === 'aligned' ? 300 : 0);
			expect(server.served).toBe(100);
			expect(server.rateLimited).toBeLessThanOrEqual(windows * workers.length);
			expect(elapsed).toBeGreaterThanOrEqual(floor);
			// Waiting for the whole-second X-RateLimit-Reset costs under a second per window.
			expect(elapsed / floor).toBeLessThan(1.02);
		},
	);
});
