/**
 * The only place the benchmark reaches into the transport: it wraps the clock the nodes'
 * transport sleeps on, to say how long it waited (rate-limit waits; no faults here, so no retry
 * backoff). Counted: the sleeps that ran to their end. A request's own timer is a sleep too, but
 * one that its answer always ends first; so is a wait behind another request that an answer ends,
 * which only runs with two executions at once (the table's figure for them is a lower bound).
 */
import { systemClock } from '../nodes/BusinessFinance/transport/deadline';

let sleptMs = 0;
const sleep = systemClock.sleep;
systemClock.sleep = async (ms, signal) => {
	const startedMs = performance.now();
	await sleep(ms, signal);
	sleptMs += performance.now() - startedMs;
};

/** Runs `work` and says how long the transport waited meanwhile (ms, rounded). */
export async function sleptDuring<T>(
	work: () => Promise<T>,
): Promise<{ result: T; sleptMs: number }> {
	const mark = sleptMs;
	const result = await work();
	return { result, sleptMs: Math.round(sleptMs - mark) };
}
