/**
 * What the scheduler gave a set of processes during a run, from /proc/<pid>/task/<tid>/schedstat
 * (zeros where /proc is missing): the CPU time of all their threads, and the time their main
 * threads (the event loops) were ready to run but waited for a CPU, i.e. what other work on the
 * machine cost the run. V8's helper threads' wait is left out: they become runnable all at once
 * and queue among themselves, which says nothing about the event loop.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import * as os from 'os';

export interface SchedDelta {
	cpuMs: number;
	runQueueMs: number;
	/** The machine's 1-minute load average at the end of the run. */
	load1m: number;
}

/** Per thread ("pid/tid"): CPU time and run-queue wait so far, in ns. */
function sample(pids: number[]): Map<string, [number, number]> {
	const threads = new Map<string, [number, number]>();
	for (const pid of pids) {
		const tasks = `/proc/${pid}/task`;
		if (!existsSync(tasks)) continue;
		for (const tid of readdirSync(tasks)) {
			try {
				const [run, wait] = readFileSync(`${tasks}/${tid}/schedstat`, 'utf8').split(' ');
				threads.set(`${pid}/${tid}`, [Number(run), Number(wait)]);
			} catch {
				// the thread ended meanwhile
			}
		}
	}
	return threads;
}

/** Runs `work` and says what the scheduler gave `pids` meanwhile. */
export async function schedDuring<T>(
	pids: number[],
	work: () => Promise<T>,
): Promise<{ result: T; sched: SchedDelta }> {
	const before = sample(pids);
	const result = await work();
	let cpuNs = 0;
	let waitNs = 0;
	for (const [thread, [run, wait]] of sample(pids)) {
		const start = before.get(thread);
		// A thread started meanwhile may carry counters of an earlier thread with its id.
		if (!start || run < start[0]) continue;
		cpuNs += run - start[0];
		const [pid, tid] = thread.split('/');
		if (pid === tid) waitNs += wait - start[1];
	}
	const sched = {
		cpuMs: Math.round(cpuNs / 1e6),
		runQueueMs: Math.round(waitNs / 1e6),
		load1m: Math.round(os.loadavg()[0] * 100) / 100,
	};
	return { result, sched };
}
