// The per-key rate limiter, shared by every call on the key in this process so that callers queue
// instead of stampeding, and the one decision of the wait after a 429. Stored times are capped at
// MAX_KEY_BLOCK_MS; every wait is on the caller's Deadline.
import { createHash } from 'crypto';

import { backoffMs, type Clock, type Deadline, type WakeRegistration } from './deadline';

export type Headers = Record<string, unknown>;

const MS_PER_SECOND = 1_000;
const SPEC_WINDOW_MS = 60_000;
/** The longest one answer may block a key: a window, plus whole-second rounding and skew. */
const MAX_KEY_BLOCK_MS = SPEC_WINDOW_MS + 2_000;
/** Resets this far apart name different windows (one sent as "seconds from now" moves ~1 s). */
const WINDOW_STEP_MS = 2_000;
const NEXT_WINDOW_STEP_MS = 1_000;
const RESET_MARGIN_MS = 50;
/** Without a usable reset (a 429, or "remaining 0"): from 1 s, doubling, up to a window. */
const BACKOFF_BASE_MS = 1_000;
const CLOCK_SKEW_THRESHOLD_MS = 5_000;
const EPOCH_MS_THRESHOLD = 1e12;
const EPOCH_SECONDS_THRESHOLD = 1e9;
/** A reset "from now" longer than this is no per-minute window's seconds: milliseconds, if it fits. */
const MAX_RESET_DELTA_SECONDS = 3_600;
/** Keys whose limiters are kept when idle (one per key in use is kept however many there are). */
const MAX_IDLE_KEYS = 1_000;

const secondsToMs = (seconds: number): number => Math.round(seconds * MS_PER_SECOND);
const isPlainNumber = (text: string): boolean => /^\d+(\.\d+)?$/.test(text);
const parseDate = (text: string) => (Number.isNaN(Date.parse(text)) ? undefined : Date.parse(text));

/** A header's value, whatever the case of its name; the first of a repeated header. */
export function headerValue(headers: Headers | undefined, name: string): string | undefined {
	const wanted = name.toLowerCase();
	const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === wanted);
	const value: unknown = key === undefined ? undefined : headers?.[key];
	const first: unknown = Array.isArray(value) ? value[0] : value;
	return first === undefined || first === null ? undefined : String(first);
}

/** X-RateLimit-Reset as epoch ms: Unix seconds or ms, an HTTP date, or seconds from now. */
function parseResetHeader(value: string | undefined, nowMs: number): number | undefined {
	const text = value?.trim() ?? '';
	if (!isPlainNumber(text)) return parseDate(text);
	const n = Number(text);
	if (n >= EPOCH_MS_THRESHOLD) return Math.round(n);
	if (n >= EPOCH_SECONDS_THRESHOLD) return secondsToMs(n);
	const isMsDelta = n > MAX_RESET_DELTA_SECONDS && n <= MAX_RESET_DELTA_SECONDS * MS_PER_SECOND;
	return nowMs + (isMsDelta ? Math.round(n) : secondsToMs(n));
}

function parseCount(value: string | undefined): number | undefined {
	const n = Number(value?.trim() || Number.NaN);
	return Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
}

/** How far the service's clock (its `Date` header) is ahead of ours, when clearly so. */
function serverClockOffsetMs(headers: Headers | undefined, nowMs: number): number {
	const date = parseDate(headerValue(headers, 'date') ?? '');
	const offset = date === undefined ? 0 : date - nowMs;
	return Math.abs(offset) > CLOCK_SKEW_THRESHOLD_MS ? offset : 0;
}

/** When the service says it may be called again (Retry-After: seconds or a date), on our clock. */
export function retryAfterAtMs(headers: Headers | undefined, nowMs: number): number | undefined {
	const value = headerValue(headers, 'retry-after')?.trim() ?? '';
	if (isPlainNumber(value)) return nowMs + secondsToMs(Number(value));
	const at = parseDate(value);
	return at === undefined ? undefined : at - serverClockOffsetMs(headers, nowMs);
}

/** The rate-limit headers, the reset on our clock. */
function readRateHeaders(headers: Headers | undefined, nowMs: number) {
	const offset = serverClockOffsetMs(headers, nowMs);
	const reset = parseResetHeader(headerValue(headers, 'x-ratelimit-reset'), nowMs + offset);
	return {
		remaining: parseCount(headerValue(headers, 'x-ratelimit-remaining')),
		resetAtMs: reset === undefined ? undefined : reset - offset,
	};
}

// The current window: requests on their way come off the lowest remaining when admitting (they
// may not be counted yet); unanswered ones may have been counted. When it ends, one request probes.
type KnownWindow = {
	lowestRemaining: number;
	unanswered: number;
	endsAtMs: number;
	resetAtMs?: number;
};

/** Or wait until `untilMs` (without it: to be woken); `orWoken`: an answer may free a slot. */
type Admission = { go: true; probe: boolean } | { go: false; untilMs?: number; orWoken?: boolean };

/** `answered` (before `release`), at `receivedAtMs`, returns for a 429 until when this call holds off. */
interface Ticket {
	answered(status: number, headers: Headers | undefined, receivedAtMs: number): number | undefined;
	release(): void;
}

export class KeyLimiter {
	private window?: KnownWindow;
	private blockedUntilMs = 0;
	private probing = false;
	private inFlight = 0;
	/** Callers waiting in acquire(), for a wake or for a time. */
	private sleeping = 0;
	/** The service sends no rate-limit headers: nothing to track, do not queue. */
	private untracked = false;
	/** Answers in a row with `remaining 0` and no usable reset (grows their backoff). */
	private zeroWithoutReset = 0;
	private rateLimits = { inARow: 0, resetAtMs: undefined as number | undefined };
	private readonly wakers = new Set<() => void>();
	/** The last `X-RateLimit-Limit` the service sent: the limit messages state. */
	reportedLimit?: number;

	constructor(private readonly clock: Clock) {}

	get waiting(): number {
		return this.wakers.size;
	}

	/**
	 * Nothing waits on it (for a wake or for a time), sends through it, is held off by it or is
	 * counted in a window it knows: it may be dropped. A live window counts, since a new limiter
	 * would not know that window is used up.
	 */
	get idle(): boolean {
		const nowMs = this.clock.now();
		const quiet = this.inFlight === 0 && this.sleeping === 0; // a waker is a sleeper too
		const live = (this.window?.endsAtMs ?? 0) > nowMs || this.blockedUntilMs > nowMs;
		return quiet && !this.probing && !live;
	}

	/** Wait on the caller's deadline until the key may send one request, not before `notBeforeMs`. */
	async acquire(deadline: Deadline, notBeforeMs = 0): Promise<Ticket> {
		const register: WakeRegistration = (wake) => {
			this.wakers.add(wake);
			return () => this.wakers.delete(wake);
		};
		for (;;) {
			const admission = this.admit(this.clock.now(), notBeforeMs);
			if (admission.go) return this.ticket(admission.probe);
			const { untilMs, orWoken } = admission;
			const waitMs = untilMs === undefined ? undefined : untilMs - this.clock.now();
			this.sleeping += 1;
			try {
				await deadline.wait(waitMs, untilMs === undefined || orWoken ? register : undefined);
			} finally {
				this.sleeping -= 1;
			}
		}
	}

	private admit(nowMs: number, notBeforeMs: number): Admission {
		const blockedUntilMs = Math.max(this.blockedUntilMs, notBeforeMs);
		if (blockedUntilMs > nowMs) return { go: false, untilMs: blockedUntilMs };
		if (this.window && nowMs >= this.window.endsAtMs) this.window = undefined;
		if (!this.window) {
			if (this.untracked) return { go: true, probe: false };
			if (this.probing) return { go: false };
			this.probing = true;
			return { go: true, probe: true };
		}
		const { lowestRemaining, unanswered, endsAtMs } = this.window;
		const full = lowestRemaining - unanswered - this.inFlight <= 0;
		return full
			? { go: false, untilMs: endsAtMs, orWoken: this.inFlight > 0 }
			: { go: true, probe: false };
	}

	private ticket(probe: boolean): Ticket {
		this.inFlight += 1;
		let released = false;
		let counted = false;
		return {
			answered: (status, headers, receivedAtMs) => {
				if (released) return undefined;
				if (status !== 429) this.rateLimits = { inARow: 0, resetAtMs: undefined };
				// an answer that does not tell the count (a gateway's 504, say) proves nothing either
				if (!counted) counted = this.record(headers, receivedAtMs);
				return status === 429 ? this.rateLimited(headers, receivedAtMs) : undefined;
			},
			release: () => {
				if (released) return;
				released = true;
				this.inFlight -= 1;
				if (!counted && this.window) this.window.unanswered += 1;
				if (probe) this.probing = false;
				for (const wake of [...this.wakers]) wake();
			},
		};
	}

	/** Recorded while its request still counts as in flight; true when it told the count. */
	record(headers: Headers | undefined, nowMs: number): boolean {
		const rate = readRateHeaders(headers, nowMs);
		const limit = parseCount(headerValue(headers, 'x-ratelimit-limit'));
		if (limit) this.reportedLimit = limit;
		if (rate.remaining === undefined) {
			if (!this.window) this.untracked = true;
			return false;
		}
		this.untracked = false;
		const current = this.window;
		const currentReset = current?.resetAtMs ?? Number.NEGATIVE_INFINITY;
		// A late answer from an earlier window says nothing about this one.
		if (rate.resetAtMs !== undefined && rate.resetAtMs <= currentReset - WINDOW_STEP_MS)
			return true;
		const resetAtMs =
			rate.resetAtMs !== undefined && rate.resetAtMs > nowMs ? rate.resetAtMs : undefined;
		const endsAtMs = this.knowledgeEnd(resetAtMs, rate.remaining, nowMs);
		if (!current || (resetAtMs !== undefined && resetAtMs >= currentReset + WINDOW_STEP_MS)) {
			this.window = { lowestRemaining: rate.remaining, unanswered: 0, endsAtMs, resetAtMs };
			return true;
		}
		current.lowestRemaining = Math.min(current.lowestRemaining, rate.remaining);
		if (resetAtMs !== undefined && resetAtMs === current.resetAtMs) current.endsAtMs = endsAtMs;
		return true;
	}

	/** Until when an answer's counts hold: the window's end, capped; else a bounded backoff. */
	private knowledgeEnd(resetAtMs: number | undefined, remaining: number, nowMs: number): number {
		if (resetAtMs !== undefined) {
			this.zeroWithoutReset = 0;
			return Math.min(resetAtMs + RESET_MARGIN_MS, nowMs + MAX_KEY_BLOCK_MS);
		}
		if (remaining > 0) this.zeroWithoutReset = 0;
		return nowMs + this.backoff(remaining === 0 ? this.zeroWithoutReset++ : 0);
	}

	private backoff(step: number): number {
		return backoffMs(step, BACKOFF_BASE_MS, SPEC_WINDOW_MS, this.clock.random());
	}

	// Until when the call that got a 429 holds off (docs/transport.md#rate-limits); from the second
	// 429 in a row, at least a backoff, so a tiny Retry-After is not hammered. The key's block is
	// capped; the end returned is not: the caller's deadline decides on it.
	rateLimited(headers: Headers | undefined, nowMs: number): number {
		const resetAtMs = readRateHeaders(headers, nowMs).resetAtMs;
		const times = this.countRateLimit(resetAtMs, nowMs);
		const floorMs = nowMs + (times > 1 ? this.backoff(times - 2) : 0);
		const retryAtMs = retryAfterAtMs(headers, nowMs);
		const asked = retryAtMs !== undefined && retryAtMs > nowMs;
		let endMs = nowMs + this.backoff(times - 1);
		if (asked) endMs = Math.max(floorMs, retryAtMs);
		else if (resetAtMs !== undefined && resetAtMs > nowMs)
			endMs = Math.max(floorMs, resetAtMs + RESET_MARGIN_MS);
		this.untracked = false;
		this.window = undefined;
		this.blockedUntilMs = Math.max(this.blockedUntilMs, Math.min(endMs, nowMs + MAX_KEY_BLOCK_MS));
		return endMs;
	}

	private countRateLimit(resetAtMs: number | undefined, nowMs: number): number {
		const last = this.rateLimits;
		const laterWindow =
			resetAtMs !== undefined &&
			resetAtMs > nowMs &&
			resetAtMs >= (last.resetAtMs ?? Number.POSITIVE_INFINITY) + NEXT_WINDOW_STEP_MS;
		this.rateLimits = { inARow: laterWindow ? 1 : last.inARow + 1, resetAtMs };
		return this.rateLimits.inARow;
	}
}

/** Keyed by a SHA-256 of the key (never the key itself). */
export type Limiters = Map<string, KeyLimiter>;

/**
 * The key's limiter, kept as the newest. Past MAX_IDLE_KEYS keys, idle limiters are dropped (a key
 * used again starts with one probing request); a busy one never is, so the callers of one key
 * always share one limiter.
 */
export function limiterFor(limiters: Limiters, apiKey: string, clock: Clock): KeyLimiter {
	const id = createHash('sha256').update(apiKey).digest('hex');
	const limiter = limiters.get(id) ?? new KeyLimiter(clock);
	limiters.delete(id);
	for (const [other, kept] of limiters) {
		if (limiters.size < MAX_IDLE_KEYS) break;
		if (kept.idle) limiters.delete(other);
	}
	limiters.set(id, limiter);
	return limiter;
}
