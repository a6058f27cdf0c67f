/**
 * The retry decision (retry.ts) as the pure function it is: outcome, method, attempt and time
 * left in, retry-after-a-wait or fail (and why) out.
 */
import fc from 'fast-check';

import {
	backoffMs,
	decideRetry,
	type HttpMethod,
	MAX_ATTEMPTS,
	MAX_SERVER_RETRY_AFTER_MS,
	nextRateLimitStreak,
	type Outcome,
	RATE_BACKOFF_CAP_MS,
	rateLimitedWait,
	RETRY_CAP_MS,
} from '../../nodes/BusinessFinance/transport/retry';

const NOW = 1_800_000_000_000;

/** The wait alone, as most cases below check it. */
const rateLimitedWaitMs = (...args: Parameters<typeof rateLimitedWait>): number =>
	rateLimitedWait(...args).waitMs;
const HOUR_MS = 3_600_000;
const METHODS: HttpMethod[] = ['GET', 'POST', 'PATCH', 'DELETE'];

describe('decideRetry', () => {
	it('never retries a final answer (4xx, redirect)', () => {
		for (const method of METHODS) {
			expect(decideRetry({ kind: 'final' }, method, 1, HOUR_MS, 0.5)).toEqual({
				action: 'fail',
				reason: 'final',
			});
		}
	});

	it.each(['serverError', 'unreadable', 'network'] as const)(
		'never retries a POST after %s (it may have been processed)',
		(kind) => {
			expect(decideRetry({ kind } as Outcome, 'POST', 1, HOUR_MS, 0.5)).toEqual({
				action: 'fail',
				reason: 'create',
			});
		},
	);

	it('retries a 429 for every method, whatever the attempt, when the wait fits in the time left', () => {
		for (const method of METHODS) {
			expect(decideRetry({ kind: 'rateLimited', waitMs: 4_000 }, method, 99, 4_000, 0.5)).toEqual({
				action: 'retry',
				waitMs: 4_000,
			});
			expect(decideRetry({ kind: 'rateLimited', waitMs: 4_001 }, method, 0, 4_000, 0.5)).toEqual({
				action: 'fail',
				reason: 'budget',
			});
		}
	});

	it.each(['GET', 'PATCH', 'DELETE'] as const)(
		'retries %s with a growing jittered backoff, MAX_ATTEMPTS tries in all',
		(method) => {
			const waits = [1, 2, 3].map((attempt) =>
				decideRetry({ kind: 'network' }, method, attempt, HOUR_MS, 0.5),
			);
			expect(waits).toEqual([375, 750, 1_500].map((waitMs) => ({ action: 'retry', waitMs })));
			expect(decideRetry({ kind: 'network' }, method, MAX_ATTEMPTS, HOUR_MS, 0.5)).toEqual({
				action: 'fail',
				reason: 'attempts',
			});
		},
	);

	it('honours a 5xx Retry-After up to MAX_SERVER_RETRY_AFTER_MS', () => {
		expect(
			decideRetry({ kind: 'serverError', retryAfterMs: 3_000 }, 'GET', 1, HOUR_MS, 0.5),
		).toEqual({ action: 'retry', waitMs: 3_000 });
		expect(
			decideRetry({ kind: 'serverError', retryAfterMs: HOUR_MS }, 'GET', 1, HOUR_MS, 0.5),
		).toEqual({
			action: 'retry',
			waitMs: MAX_SERVER_RETRY_AFTER_MS,
		});
	});

	it('fails instead of retrying when the wait would not fit in the time left', () => {
		expect(decideRetry({ kind: 'serverError', retryAfterMs: 3_000 }, 'GET', 1, 2_999, 0.5)).toEqual(
			{ action: 'fail', reason: 'budget' },
		);
		expect(decideRetry({ kind: 'unreadable' }, 'GET', 1, 0, 0.5)).toEqual({
			action: 'fail',
			reason: 'budget',
		});
	});

	it('property: a retry never waits longer than the time left, and non-429 retries are bounded', () => {
		const outcome = fc.oneof(
			fc.record({ kind: fc.constant('rateLimited' as const), waitMs: fc.nat(10 * HOUR_MS) }),
			fc.record({
				kind: fc.constant('serverError' as const),
				retryAfterMs: fc.option(fc.nat(10 * HOUR_MS), { nil: undefined }),
			}),
			fc.constantFrom<Outcome>({ kind: 'unreadable' }, { kind: 'network' }, { kind: 'final' }),
		);
		fc.assert(
			fc.property(
				outcome,
				fc.constantFrom(...METHODS),
				fc.nat(20),
				fc.nat(10 * HOUR_MS),
				fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
				(o, method, attempt, leftMs, random) => {
					const decision = decideRetry(o, method, attempt, leftMs, random);
					if (decision.action === 'retry') {
						expect(decision.waitMs).toBeLessThanOrEqual(leftMs);
						if (o.kind !== 'rateLimited') expect(attempt).toBeLessThan(MAX_ATTEMPTS);
						if (o.kind !== 'rateLimited') expect(method).not.toBe('POST');
					}
				},
			),
		);
	});
});

describe('backoffMs', () => {
	it('property: between half and all of base·2^step, never above the cap', () => {
		fc.assert(
			fc.property(
				fc.nat(40),
				fc.integer({ min: 1, max: 10_000 }),
				fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
				(step, baseMs, random) => {
					const ceiling = Math.min(RETRY_CAP_MS, baseMs * 2 ** step);
					const waitMs = backoffMs(step, baseMs, RETRY_CAP_MS, random);
					expect(waitMs).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
					expect(waitMs).toBeLessThanOrEqual(Math.ceil(ceiling));
				},
			),
		);
	});
});

describe('rateLimitedWaitMs (what a 429 asks for)', () => {
	const seconds = (s: number) => String(Math.floor(NOW / 1000) + s);

	it('prefers Retry-After, then X-RateLimit-Reset plus a margin, then a backoff', () => {
		expect(
			rateLimitedWaitMs({ 'retry-after': '7', 'x-ratelimit-reset': seconds(2) }, NOW, 1, 0.5),
		).toBe(7_000);
		expect(rateLimitedWaitMs({ 'x-ratelimit-reset': seconds(2) }, NOW, 1, 0.5)).toBe(2_050);
		expect(rateLimitedWaitMs({}, NOW, 1, 0.5)).toBe(750);
		expect(rateLimitedWaitMs({}, NOW, 3, 0.5)).toBe(3_000);
		expect(rateLimitedWaitMs({}, NOW, 30, 1)).toBe(RATE_BACKOFF_CAP_MS);
	});

	it('from the second 429 of a call on, waits at least a backoff, however little the service asks', () => {
		expect(rateLimitedWaitMs({ 'retry-after': '0.01' }, NOW, 1, 0.5)).toBe(10);
		expect(rateLimitedWaitMs({ 'retry-after': '0.01' }, NOW, 2, 0.5)).toBe(750);
		expect(rateLimitedWaitMs({ 'x-ratelimit-reset': String(NOW + 20) }, NOW, 4, 0.5)).toBe(3_000);
		expect(rateLimitedWaitMs({ 'retry-after': '7' }, NOW, 4, 0.5)).toBe(7_000);
	});

	it('ignores a Retry-After or reset in the past, and garbage', () => {
		expect(
			rateLimitedWaitMs(
				{ 'retry-after': new Date(NOW - 5_000).toUTCString(), 'x-ratelimit-reset': seconds(3) },
				NOW,
				1,
				0.5,
			),
		).toBe(3_050);
		expect(
			rateLimitedWaitMs({ 'retry-after': 'soon', 'x-ratelimit-reset': 'later' }, NOW, 1, 0),
		).toBe(500);
	});
});

describe("a call's 429s in a row (nextRateLimitStreak)", () => {
	const reset = (s: number) => ({ 'x-ratelimit-reset': String(Math.floor(NOW / 1000) + s) });

	it('starts again at 1 when a 429 names a later window (another worker took the one waited for)', () => {
		const first = nextRateLimitStreak(undefined, reset(2), NOW);
		expect(first.times).toBe(1);
		expect(nextRateLimitStreak(first, reset(4), NOW + 2_100).times).toBe(1);
	});

	it('keeps counting when a 429 names the same window, none, or one only milliseconds on', () => {
		const first = nextRateLimitStreak(undefined, reset(2), NOW);
		expect(nextRateLimitStreak(first, reset(2), NOW + 100).times).toBe(2);
		expect(nextRateLimitStreak(first, {}, NOW + 100).times).toBe(2);
		const ms = nextRateLimitStreak(undefined, { 'x-ratelimit-reset': String(NOW + 20) }, NOW);
		const next = nextRateLimitStreak(ms, { 'x-ratelimit-reset': String(NOW + 90) }, NOW + 70);
		expect(next.times).toBe(2);
		expect(nextRateLimitStreak(next, { 'retry-after': '0.01' }, NOW + 900).times).toBe(3);
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
					let nowMs = NOW;
					let streak: ReturnType<typeof nextRateLimitStreak> | undefined;
					const gapsMs: number[] = [];
					for (const offsetMs of offsetsMs) {
						const atMs = nowMs + offsetMs;
						const headers = {
							'x-ratelimit-reset': String(inSeconds ? Math.ceil(atMs / 1000) : atMs),
						};
						streak = nextRateLimitStreak(streak, headers, nowMs);
						gapsMs.push(rateLimitedWaitMs(headers, nowMs, streak.times, random));
						nowMs += gapsMs[gapsMs.length - 1];
					}
					// A streak starts again only for a window at least a second after the last one,
					// and otherwise waits at least 0.5 s: any two gaps in a row take at least 0.55 s.
					for (let i = 1; i < gapsMs.length; i++) {
						expect(gapsMs[i - 1] + gapsMs[i]).toBeGreaterThanOrEqual(550);
					}
				},
			),
		);
	});

	it('only the first 429 of a streak, without Retry-After, leaves the wait to X-RateLimit-Reset', () => {
		const windowReset = (headers: Record<string, string>, times: number) =>
			rateLimitedWait(headers, NOW, times, 0.5).windowResetAtMs;
		expect(windowReset(reset(2), 1)).toBe((Math.floor(NOW / 1000) + 2) * 1000);
		expect(windowReset(reset(2), 2)).toBeUndefined();
		expect(windowReset({ ...reset(2), 'retry-after': '1' }, 1)).toBeUndefined();
		expect(windowReset(reset(-1), 1)).toBeUndefined();
	});
});
