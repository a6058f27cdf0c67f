/**
 * The only place the benchmark reaches into the transport: it reads how long the nodes'
 * transport has waited (rate-limit waits; no faults here, so no retry backoff), and wipes the
 * transport's per-key rate-limit memory, as in a freshly started n8n.
 */
import { rateLimitWaitedMs, resetRateLimitState } from '../nodes/BusinessFinance/transport';

/** Runs `work` and says how long the transport waited meanwhile (ms, rounded). */
export async function sleptDuring<T>(
	work: () => Promise<T>,
): Promise<{ result: T; sleptMs: number }> {
	const mark = rateLimitWaitedMs();
	const result = await work();
	return { result, sleptMs: Math.round(rateLimitWaitedMs() - mark) };
}

export function forgetRateLimitState(): void {
	resetRateLimitState();
}
