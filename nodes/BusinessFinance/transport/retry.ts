/**
 * The retry decision, as a pure function: what happened, with which method, after how many
 * attempts, with how much of the wait budget left → retry after a wait, or fail (and why).
 */
import { type Headers, readRateHeaders, retryAfterAtMs } from './headers';
import { RESET_MARGIN_MS, SPEC_WINDOW_MS } from './window';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Attempts for GET/PATCH/DELETE on 5xx, unreadable 2xx bodies and network failures. */
export const MAX_ATTEMPTS = 4;
/** Backoff between those retries: from 0.5 s, doubling, up to 8 s (with jitter). */
const RETRY_BASE_MS = 500;
export const RETRY_CAP_MS = 8_000;
/** A 5xx answer's Retry-After is honoured up to this. */
export const MAX_SERVER_RETRY_AFTER_MS = 30_000;
/** A 429 with neither Retry-After nor X-RateLimit-Reset: from 1 s, doubling, up to a window. */
const RATE_BACKOFF_BASE_MS = 1_000;
export const RATE_BACKOFF_CAP_MS = SPEC_WINDOW_MS;

export type Outcome =
	/**
	 * 429; `waitMs` is what the service asked for (or a backoff). `windowResetAtMs`: the window's
	 * X-RateLimit-Reset, when that alone set the wait (the gate may know the window ends sooner);
	 * `streak`: the call's 429s so far, for the next one (nextRateLimitStreak).
	 */
	| { kind: 'rateLimited'; waitMs: number; windowResetAtMs?: number; streak?: RateLimitStreak }
	/** 5xx, with the wait its Retry-After asked for. */
	| { kind: 'serverError'; retryAfterMs?: number }
	/** A 2xx answer whose body is not JSON. */
	| { kind: 'unreadable' }
	/** No answer: refused, reset, timed out. */
	| { kind: 'network' }
	/** Anything else (4xx, a redirect): retrying cannot help. */
	| { kind: 'final' };

export type FailReason = 'final' | 'create' | 'attempts' | 'budget';

export type Decision = { action: 'retry'; waitMs: number } | { action: 'fail'; reason: FailReason };

/** Full-jitter exponential backoff: between half and all of base·2^step, capped. */
export function backoffMs(step: number, baseMs: number, capMs: number, random: number): number {
	const ceilingMs = Math.min(capMs, baseMs * 2 ** Math.max(0, step));
	return Math.round(ceilingMs / 2 + (ceilingMs / 2) * random);
}

/**
 * `attempt` counts the attempts that failed with a retryable outcome other than 429 (1 after the
 * first); 429s are bounded by the budget alone. A POST is retried only on 429: a create that
 * failed otherwise may have been processed.
 */
export function decideRetry(
	outcome: Outcome,
	method: HttpMethod,
	attempt: number,
	timeLeftMs: number,
	random: number,
): Decision {
	if (outcome.kind === 'final') return { action: 'fail', reason: 'final' };
	if (outcome.kind === 'rateLimited') return retryWithin(outcome.waitMs, timeLeftMs);
	if (method === 'POST') return { action: 'fail', reason: 'create' };
	if (attempt >= MAX_ATTEMPTS) return { action: 'fail', reason: 'attempts' };
	const askedMs = outcome.kind === 'serverError' ? outcome.retryAfterMs : undefined;
	const waitMs =
		askedMs !== undefined
			? Math.min(askedMs, MAX_SERVER_RETRY_AFTER_MS)
			: backoffMs(attempt - 1, RETRY_BASE_MS, RETRY_CAP_MS, random);
	return retryWithin(waitMs, timeLeftMs);
}

function retryWithin(waitMs: number, timeLeftMs: number): Decision {
	return waitMs <= timeLeftMs ? { action: 'retry', waitMs } : { action: 'fail', reason: 'budget' };
}

/**
 * How long to wait after a 429: until Retry-After, else until X-RateLimit-Reset (plus a margin),
 * else a backoff growing with `timesRateLimited` (the call's 429s in a row for one window, from 1:
 * nextRateLimitStreak). From the second on, never less than a backoff one step behind: a service
 * that keeps answering 429 with a tiny Retry-After is not hammered. `windowResetAtMs`: the reset,
 * when it alone set the wait (the first 429 of a streak, without Retry-After); the gate may know
 * that window ends sooner.
 */
export function rateLimitedWait(
	headers: Headers | undefined,
	nowMs: number,
	timesRateLimited: number,
	random: number,
): { waitMs: number; windowResetAtMs?: number } {
	const backoff = (step: number) =>
		backoffMs(step, RATE_BACKOFF_BASE_MS, RATE_BACKOFF_CAP_MS, random);
	const floorMs = timesRateLimited > 1 ? backoff(timesRateLimited - 2) : 0;
	const retryAtMs = retryAfterAtMs(headers, nowMs);
	if (retryAtMs !== undefined && retryAtMs > nowMs) {
		return { waitMs: Math.max(floorMs, retryAtMs - nowMs) };
	}
	const resetAtMs = readRateHeaders(headers, nowMs).resetAtMs;
	if (resetAtMs !== undefined && resetAtMs > nowMs) {
		const waitMs = Math.max(floorMs, resetAtMs + RESET_MARGIN_MS - nowMs);
		return timesRateLimited > 1 ? { waitMs } : { waitMs, windowResetAtMs: resetAtMs };
	}
	return { waitMs: backoff(timesRateLimited - 1) };
}

/** A new window's X-RateLimit-Reset is at least this much later than the last one's. */
const MIN_WINDOW_STEP_MS = 1_000;

/**
 * A call's 429s in a row for one window (`times`, from 1) and the last one's reset. A 429 whose
 * reset names a later window starts again at 1: another process on the key (an n8n worker) took
 * the window this call waited for, which is no reason to back off further. A service that keeps
 * naming the same window, a past one, none, or one a few ms on, gets the growing backoff.
 */
export interface RateLimitStreak {
	times: number;
	resetAtMs?: number;
}

export function nextRateLimitStreak(
	previous: RateLimitStreak | undefined,
	headers: Headers | undefined,
	nowMs: number,
): RateLimitStreak {
	const resetAtMs = readRateHeaders(headers, nowMs).resetAtMs;
	if (!previous) return { times: 1, resetAtMs };
	const laterWindow =
		resetAtMs !== undefined &&
		resetAtMs > nowMs &&
		previous.resetAtMs !== undefined &&
		resetAtMs >= previous.resetAtMs + MIN_WINDOW_STEP_MS;
	return { times: laterWindow ? 1 : previous.times + 1, resetAtMs };
}

/** A 5xx answer's Retry-After as a wait, if it asks for one. */
export function serverRetryAfterMs(
	headers: Headers | undefined,
	nowMs: number,
): number | undefined {
	const atMs = retryAfterAtMs(headers, nowMs);
	return atMs !== undefined && atMs > nowMs ? atMs - nowMs : undefined;
}
