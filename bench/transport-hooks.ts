/**
 * The only place the benchmark reaches into the transport's internals: it counts the time the
 * transport sleeps (rate-limit waits; no faults here, so no retry backoff) by wrapping the
 * exported `clock.sleep`, and wipes the transport's per-key rate-limit memory, as in a freshly
 * started n8n.
 */
import { clock, resetRateLimitState } from '../nodes/BusinessFinance/transport';

let sleptMs = 0;
let counting = false;

/** Wraps the transport's sleep once, so that sleptDuring can add its waits up. */
export function countTransportSleeps(): void {
	if (counting) return;
	counting = true;
	const realSleep = clock.sleep;
	clock.sleep = async (ms: number): Promise<void> => {
		sleptMs += ms;
		await realSleep(ms);
	};
}

/** Runs `work` and says how long the transport slept meanwhile (ms, rounded). */
export async function sleptDuring<T>(
	work: () => Promise<T>,
): Promise<{ result: T; sleptMs: number }> {
	const mark = sleptMs;
	const result = await work();
	return { result, sleptMs: Math.round(sleptMs - mark) };
}

export function forgetRateLimitState(): void {
	resetRateLimitState();
}
