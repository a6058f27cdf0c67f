/**
 * The retry decision of send.ts as the pure function it is: failure, method, attempt and time
 * left in, retry-after-a-wait or fail (and why) out. A 429 is not its to decide: the limiter's
 * (transport.limiter.test.ts).
 */
import fc from 'fast-check';

import { backoffMs } from '../../nodes/BusinessFinance/transport/deadline';
import {
	decideRetry,
	type Failure,
	type HttpMethod,
	MAX_ATTEMPTS,
	MAX_SERVER_RETRY_AFTER_MS,
	RETRY_CAP_MS,
} from '../../nodes/BusinessFinance/transport/send';

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
			expect(decideRetry({ kind } as Failure, 'POST', 1, HOUR_MS, 0.5)).toEqual({
				action: 'fail',
				reason: 'create',
			});
		},
	);

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

	it('property: a retry never waits longer than the time left, is bounded, and never repeats a POST', () => {
		const outcome = fc.oneof(
			fc.record({
				kind: fc.constant('serverError' as const),
				retryAfterMs: fc.option(fc.nat(10 * HOUR_MS), { nil: undefined }),
			}),
			fc.constantFrom<Failure>({ kind: 'unreadable' }, { kind: 'network' }, { kind: 'final' }),
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
						expect(attempt).toBeLessThan(MAX_ATTEMPTS);
						expect(method).not.toBe('POST');
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
