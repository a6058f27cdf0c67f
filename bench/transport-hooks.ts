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

export async function sleptDuring<T>(
	work: () => Promise<T>,
): Promise<{ result: T; sleptMs: number }> {
	const mark = sleptMs;
	const result = await work();
	return { result, sleptMs: Math.round(sleptMs - mark) };
}
