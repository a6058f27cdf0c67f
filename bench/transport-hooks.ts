/**
 * The only place the benchmark reaches into the transport: it wraps the clock the transport
 * sleeps on to say how long it waited. Only sleeps that ran to their end count: a request's own
 * timer, or a wait behind another request that an answer ends (two executions at once: the
 * figure is then a lower bound), does not.
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
