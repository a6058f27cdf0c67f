/**
 * Learning the length of a fixed window, to wait until its real end rather than the whole-second
 * X-RateLimit-Reset (up to a second later: a tenth of a short window, about 1 % of a minute).
 *
 * On a service whose window starts with the first request after the previous one ended (like the
 * sandbox), the answer showing `remaining = limit − 1` came from the request that opened the
 * window, so the window runs from about then for its length W, and W lies in
 * (reset − 1 s − receivedAt, reset − sentAt]. When exactly one whole number of seconds lies there,
 * W is taken as that. The process that opened a window then knows when it ends, also after a 429
 * (in queue mode, where another worker's requests use the window up, that saves up to a second per
 * window). A 429 to a request sent after the learnt end of the window it was answered in disproves
 * the length for the key: learning stops there (so a service with windows aligned to the clock
 * costs at most one 429). Measured in bench/windows.ts (docs/transport.md).
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

	/**
	 * A 429 to a request sent at `sentAtMs`, in the window whose reset is `resetMs` (undefined: not
	 * known). It disproves the learnt length only if that request went after the learnt end of the
	 * window it was answered in: a 429 earlier in the window means another process (another n8n
	 * worker on the same key) used the window up, which says nothing about its length.
	 */
	rateLimited(resetMs: number | undefined, sentAtMs: number): void {
		if (this.lengthMs === undefined || this.openedAtMs === undefined) return;
		const sameWindow = resetMs === undefined || resetMs === this.openedResetMs;
		if (sameWindow && sentAtMs >= this.openedAtMs + this.lengthMs) {
			this.disproved = true;
			this.lengthMs = undefined;
		}
	}

	/** The learnt length (tests and the measurement read it). */
	get learntLengthMs(): number | undefined {
		return this.lengthMs;
	}
}
