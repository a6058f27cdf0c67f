/**
 * Learning the length of a fixed window, to wait until its real end rather than the whole-second
 * X-RateLimit-Reset (up to a second later: a tenth of a short window, about 1 % of a minute).
 *
 * On a service whose window starts with the first request after the previous one ended (like the
 * sandbox), the answer showing `remaining = limit − 1` came from the request that opened the
 * window, so the window runs from about then for its length W, and W lies in
 * (reset − 1 s − receivedAt, reset − sentAt]. When exactly one whole number of seconds lies there,
 * W is taken as that. A 429 while a learnt length is in use disproves it for the key: learning
 * stops there (so a service with windows aligned to the clock costs at most one 429).
 * Measured in bench/windows.ts (docs/transport.md).
 */

const MS_PER_SECOND = 1_000;
/** The service's rate-limit window: 100 requests per minute per key. */
export const SPEC_WINDOW_MS = 60_000;
/** Margin after a window end taken from X-RateLimit-Reset. */
export const RESET_MARGIN_MS = 50;
/** Margin after a window end computed from a learnt length. */
const LEARNT_MARGIN_MS = 5;

export interface Timing {
	/** When the request was handed to the HTTP helper. */
	sentAtMs: number;
	/** When its answer came back. */
	receivedAtMs: number;
}

/** The one multiple of `step` in (lo, hi], if there is exactly one. */
function uniqueMultiple(lo: number, hi: number, step: number): number | undefined {
	const first = (Math.floor(lo / step) + 1) * step;
	if (first <= 0 || first > hi || first + step <= hi) return undefined;
	return first;
}

export class WindowLearner {
	private lengthMs?: number;
	private openedAtMs?: number;
	private openedResetMs?: number;
	private disproved = false;

	constructor(private readonly enabled: boolean) {}

	/** An answer that opened a window (`remaining = limit − 1`) and said it resets at `resetMs`. */
	opened(resetMs: number, wholeSeconds: boolean, timing: Timing): void {
		this.openedAtMs = timing.receivedAtMs;
		this.openedResetMs = resetMs;
		if (!this.enabled || this.disproved || !wholeSeconds) return;
		const lo = resetMs - MS_PER_SECOND - timing.receivedAtMs;
		const length = uniqueMultiple(lo, resetMs - timing.sentAtMs, MS_PER_SECOND);
		if (length !== undefined) this.lengthMs = length;
	}

	/** When the next window may be used, for the window whose header said `resetMs`. */
	endOf(resetMs: number): number {
		const fromHeaderMs = resetMs + RESET_MARGIN_MS;
		if (this.lengthMs === undefined || this.openedAtMs === undefined) return fromHeaderMs;
		if (this.openedResetMs !== resetMs) return fromHeaderMs;
		return Math.min(fromHeaderMs, this.openedAtMs + this.lengthMs + LEARNT_MARGIN_MS);
	}

	/** A 429 arrived: a learnt length in use was wrong for this service. */
	rateLimited(): void {
		if (this.lengthMs !== undefined) this.disproved = true;
		this.lengthMs = undefined;
	}

	/** The learnt length (tests and the measurement read it). */
	get learntLengthMs(): number | undefined {
		return this.lengthMs;
	}
}
