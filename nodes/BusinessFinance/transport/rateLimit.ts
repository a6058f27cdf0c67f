/**
 * Rate-limit state shared per API key within the process: what the service said remains in the
 * current window, when the window resets, and a gate so that concurrent callers on one key queue
 * instead of stampeding. Keyed by a SHA-256 of the key, never the key itself.
 */
import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

/** Time source. Tests replace `now` and `sleep` with a fake clock. */
export const clock = {
	now: (): number => Date.now(),
	sleep: async (ms: number): Promise<void> => await sleep(ms),
	random: (): number => Math.random(),
};

export interface KeyState {
	/** Requests the client may still start in the current window (estimate); undefined = unknown. */
	remaining?: number;
	/** Epoch ms from which the next window may be used (window end plus a small margin). */
	resetAt?: number;
	/** X-RateLimit-Reset of the current window as sent (epoch ms), to recognise a new window. */
	headerReset?: number;
	/**
	 * Window length learnt from the answers (see `learnWindow`), used to know the window's end
	 * more precisely than the whole-second X-RateLimit-Reset allows.
	 */
	windowMs?: number;
	windowCandidate?: number;
	/** When the first request of the current window was answered (epoch ms). */
	windowStartedAt?: number;
	windowStartHeaderReset?: number;
	/** Learning proved wrong for this service (a 429 at a learnt window end): use the header only. */
	learningOff: boolean;
	/** Nobody sends before this epoch ms (set by a 429). */
	blockedUntil: number;
	/** When the remaining count is unknown, one request goes first and the others wait for it. */
	probe?: Promise<void>;
	/** Requests started and not yet answered. */
	inFlight: number;
	/** The service sent no rate-limit headers: nothing to track, do not gate. */
	untracked: boolean;
	/** Number of 429 answers seen (for tests and benchmarks). */
	rateLimitedCount: number;
}

const states = new Map<string, KeyState>();

export function keyId(apiKey: string): string {
	return createHash('sha256').update(apiKey).digest('hex');
}

export function getKeyState(apiKey: string): KeyState {
	const id = keyId(apiKey);
	let state = states.get(id);
	if (!state) {
		state = {
			blockedUntil: 0,
			inFlight: 0,
			untracked: false,
			rateLimitedCount: 0,
			learningOff: false,
		};
		states.set(id, state);
	}
	return state;
}

/** Forget all rate-limit state (tests). */
export function resetRateLimitState(): void {
	states.clear();
}

/** Number of tracked keys (tests: proves the map is keyed by hash, not by key). */
export function rateLimitStateKeys(): string[] {
	return [...states.keys()];
}

/** Margin added after a reset time taken from the header. */
export const RESET_MARGIN_MS = 50;
/** Margin added after a window end computed from a learnt window length. */
export const LEARNT_MARGIN_MS = 5;

function headerValue(
	headers: Record<string, unknown> | undefined,
	name: string,
): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === wanted) {
			if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
			if (value === undefined || value === null) return undefined;
			return String(value);
		}
	}
	return undefined;
}

export { headerValue };

/**
 * X-RateLimit-Reset as epoch ms. Accepts Unix seconds (the spec), Unix milliseconds (a value too
 * large to be seconds) and, for tolerance, a small number meaning "seconds from now".
 */
export function parseResetHeader(value: string | undefined, now: number): number | undefined {
	if (value === undefined) return undefined;
	const trimmed = value.trim();
	if (!/^\d+(\.\d+)?$/.test(trimmed)) {
		const date = Date.parse(trimmed);
		return Number.isNaN(date) ? undefined : date;
	}
	const n = Number(trimmed);
	if (!Number.isFinite(n)) return undefined;
	if (n >= 1e12) return Math.round(n); // milliseconds since the epoch
	if (n >= 1e9) return Math.round(n * 1000); // seconds since the epoch
	return now + Math.round(n * 1000); // seconds from now
}

/**
 * How far the service's clock is ahead of ours (ms), from its `Date` header. Only a clear skew
 * (over 5 s) counts: the header has whole seconds, and small differences do not matter.
 */
export function serverClockOffset(
	headers: Record<string, unknown> | undefined,
	now: number,
): number {
	const date = headerValue(headers, 'date');
	if (!date) return 0;
	const parsed = Date.parse(date);
	if (Number.isNaN(parsed)) return 0;
	const offset = parsed - now;
	return Math.abs(offset) > 5_000 ? offset : 0;
}

/** X-RateLimit-Reset of an answer, as epoch ms on our clock. */
export function resetFromHeaders(
	headers: Record<string, unknown> | undefined,
	now: number,
): number | undefined {
	const offset = serverClockOffset(headers, now);
	const reset = parseResetHeader(headerValue(headers, 'x-ratelimit-reset'), now + offset);
	return reset === undefined ? undefined : reset - offset;
}

/** Retry-After as epoch ms: delta seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
	if (value === undefined) return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return now + Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : date;
}

export function parseRemaining(value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value.trim());
	return Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
}

/** Full-jitter exponential backoff: a random time between half and all of base·2^attempt, capped. */
export function backoffMs(attempt: number, baseMs: number, capMs: number): number {
	const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
	return Math.round(exp / 2 + (exp / 2) * clock.random());
}

export interface Timing {
	/** When the request was handed to the HTTP helper (epoch ms). */
	sentAt: number;
	/** When its answer came back (epoch ms). */
	receivedAt: number;
}

/** The one multiple of `step` in (lo, hi], if there is exactly one. */
function uniqueMultiple(lo: number, hi: number, step: number): number | undefined {
	const first = (Math.floor(lo / step) + 1) * step;
	if (first <= 0 || first > hi || first + step <= hi) return undefined;
	return first;
}

/**
 * X-RateLimit-Reset has whole seconds, so on its own it can overshoot the real end of a window by
 * up to a second. A service whose fixed window starts with the first request after the previous
 * one ended (like the sandbox) lets the client learn more: the answer that shows
 * `remaining = limit - 1` came from the request that opened the window, so the window runs from
 * about then for its length W, and W must lie in (reset − 1 s − receivedAt, reset − sentAt]. When
 * that interval holds exactly one whole number of seconds, W is taken as that. A 429 at a window
 * end computed this way turns learning off for the key (at most one 429 per key and process).
 */
function learnWindow(
	state: KeyState,
	headerReset: number,
	wholeSeconds: boolean,
	timing: Timing,
): void {
	state.windowStartedAt = timing.receivedAt;
	state.windowStartHeaderReset = headerReset;
	if (state.learningOff || !wholeSeconds) return;
	const candidate = uniqueMultiple(
		headerReset - 1000 - timing.receivedAt,
		headerReset - timing.sentAt,
		1000,
	);
	if (candidate === undefined) return;
	// Used from the first window on, so that even the first wait ends on time. A service whose
	// windows are aligned to the clock instead (the header then is exact, and the guess early)
	// answers that early request with one 429, which turns learning off for the key.
	state.windowCandidate = candidate;
	state.windowMs = candidate;
}

/** When the current window's successor may be used. */
function windowEnd(state: KeyState, headerReset: number): number {
	const fromHeader = headerReset + RESET_MARGIN_MS;
	if (
		state.windowMs !== undefined &&
		state.windowStartedAt !== undefined &&
		state.windowStartHeaderReset === headerReset
	) {
		return Math.min(fromHeader, state.windowStartedAt + state.windowMs + LEARNT_MARGIN_MS);
	}
	return fromHeader;
}

/** Record the rate-limit headers of an answer. */
export function recordHeaders(
	state: KeyState,
	headers: Record<string, unknown> | undefined,
	timing?: Timing,
): void {
	const now = clock.now();
	const remaining = parseRemaining(headerValue(headers, 'x-ratelimit-remaining'));
	const limit = parseRemaining(headerValue(headers, 'x-ratelimit-limit'));
	const rawReset = headerValue(headers, 'x-ratelimit-reset');
	const headerReset = resetFromHeaders(headers, now);
	if (remaining === undefined) {
		// Nothing to go by: let requests flow (a 429 still blocks the key).
		if (state.remaining === undefined) state.untracked = true;
		return;
	}
	state.untracked = false;
	if (
		timing &&
		headerReset !== undefined &&
		limit !== undefined &&
		limit > 0 &&
		remaining === limit - 1
	) {
		learnWindow(state, headerReset, /^\s*\d{9,10}\s*$/.test(rawReset ?? ''), timing);
	}
	// Called before the answering request releases its ticket: the others are inFlight - 1.
	const othersInFlight = Math.max(0, state.inFlight - 1);
	const newWindow =
		headerReset !== undefined &&
		(state.headerReset === undefined || headerReset > state.headerReset);
	if (newWindow || state.remaining === undefined) {
		state.remaining = Math.max(0, remaining - othersInFlight);
		if (headerReset !== undefined) {
			state.headerReset = headerReset;
			state.resetAt = windowEnd(state, headerReset);
		}
	} else {
		state.remaining = Math.max(0, Math.min(state.remaining, remaining - othersInFlight));
		if (headerReset !== undefined && headerReset === state.headerReset) {
			state.resetAt = windowEnd(state, headerReset);
		}
	}
}

/** Record a 429: nobody on this key sends before `until`. */
export function recordRateLimited(state: KeyState, until: number): void {
	state.rateLimitedCount += 1;
	state.remaining = 0;
	state.untracked = false;
	if (state.windowMs !== undefined) state.learningOff = true;
	state.windowMs = undefined;
	state.windowCandidate = undefined;
	if (until > state.blockedUntil) state.blockedUntil = until;
	if (state.resetAt === undefined || state.resetAt < until) state.resetAt = until;
}

export class WaitBudgetExceededError extends Error {
	constructor(
		readonly waitedMs: number,
		readonly budgetMs: number,
		readonly neededMs: number,
	) {
		super('rate-limit wait budget exceeded');
	}
}

/** Tracks the time one call spends waiting for rate limits, against its budget. */
export class WaitBudget {
	waitedMs = 0;
	constructor(
		readonly budgetMs: number,
		private readonly abortSignal?: { aborted: boolean },
	) {}

	/** Wait `ms` (in slices, so a cancelled execution stops waiting), or fail when over budget. */
	async wait(ms: number): Promise<void> {
		if (ms <= 0) return;
		if (this.waitedMs + ms > this.budgetMs)
			throw new WaitBudgetExceededError(this.waitedMs, this.budgetMs, ms);
		let left = ms;
		while (left > 0) {
			const slice = Math.min(left, 1000);
			const started = clock.now();
			await clock.sleep(slice);
			const spent = Math.max(slice, clock.now() - started);
			this.waitedMs += Math.min(spent, left);
			left -= spent;
			if (this.abortSignal?.aborted) throw new WaitAbortedError();
		}
	}
}

export class WaitAbortedError extends Error {
	constructor() {
		super('execution cancelled while waiting for the rate limit');
	}
}

export interface Ticket {
	release(): void;
}

/**
 * Wait until this key may send one request. Handles the 429 block, the proactive wait when the
 * window is used up, and the one-probe-at-a-time gate when the remaining count is unknown.
 */
export async function acquire(state: KeyState, budget: WaitBudget): Promise<Ticket> {
	for (;;) {
		const now = clock.now();
		if (state.blockedUntil > now) {
			await budget.wait(state.blockedUntil - now);
			continue;
		}
		if (state.resetAt !== undefined && now >= state.resetAt) {
			// The window is over: the count is unknown again until an answer tells us.
			state.resetAt = undefined;
			state.remaining = undefined;
		}
		if (state.untracked && state.remaining === undefined) {
			state.inFlight += 1;
			return ticket(state);
		}
		if (state.remaining === undefined) {
			if (state.probe) {
				await state.probe;
				continue;
			}
			let done!: () => void;
			state.probe = new Promise<void>((resolve) => (done = resolve));
			state.inFlight += 1;
			const probe = state.probe;
			return ticket(state, () => {
				if (state.probe === probe) state.probe = undefined;
				done();
			});
		}
		if (state.remaining > 0) {
			state.remaining -= 1;
			state.inFlight += 1;
			return ticket(state);
		}
		// Window used up: wait for its reset (proactive, so the service never has to say 429).
		const until = state.resetAt ?? now + 1000;
		await budget.wait(until - now);
		if (state.resetAt !== undefined && clock.now() >= state.resetAt) {
			state.resetAt = undefined;
			state.remaining = undefined;
		}
	}
}

function ticket(state: KeyState, onRelease?: () => void): Ticket {
	let released = false;
	return {
		release() {
			if (released) return;
			released = true;
			state.inFlight = Math.max(0, state.inFlight - 1);
			onRelease?.();
		},
	};
}
