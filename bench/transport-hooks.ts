// The only place the benchmark reaches into the transport. Only sleeps that ran to their end count
// (a wait that another request's answer ends does not: with two executions, a lower bound).
import { systemClock } from '../nodes/BusinessFinance/transport/deadline';

let sleptMs = 0;
const sleep = systemClock.sleep;
systemClock.sleep = async (ms, signal) => {
	const startedMs = performance.now();
	await sleep(ms, signal);
	sleptMs += performance.now() - startedMs;
};

/** The wall time of `work` and the part of it the transport slept. */
export async function sleptDuring<T>(work: () => Promise<T>) {
	const mark = sleptMs;
	const started = performance.now();
	const result = await work();
	return { result, wallMs: performance.now() - started, sleptMs: Math.round(sleptMs - mark) };
}
