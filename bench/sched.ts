/**
 * What the scheduler did to a set of processes during a run (Linux: /proc/<pid>/task/<tid>/
 * schedstat): the CPU time all their threads got, and the time their main threads (the event
 * loops) were ready to run but waited for a CPU (the run queue). A run that is slow because the
 * machine was busy with other work shows as run-queue wait; a run that is slow because of the
 * code shows as CPU time, or as idle time (waiting on timers or the network). Only the main
 * threads' wait is counted: V8's garbage-collection helpers all become runnable at once and queue
 * for the two cores among themselves, which says nothing about the event loop's latency. Zeros
 * where /proc is missing.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import * as os from 'os';

export interface SchedSample {
	/** CPU time of the processes (ms). */
	cpuMs: number;
	/** Time their main threads were runnable but waited for a CPU (ms). */
	runQueueMs: number;
}

export interface SchedDelta extends SchedSample {
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

/**
 * The threads that lived through the whole run (a thread started meanwhile is left out: its
 * counters may include time from before, when its id belonged to another thread).
 */
function difference(
	before: Map<string, [number, number]>,
	after: Map<string, [number, number]>,
): SchedSample {
	let cpuNs = 0;
	let waitNs = 0;
	for (const [thread, [run, wait]] of after) {
		const start = before.get(thread);
		if (!start || run < start[0]) continue;
		cpuNs += run - start[0];
		const [pid, tid] = thread.split('/');
		if (pid === tid) waitNs += wait - start[1];
	}
	return { cpuMs: cpuNs / 1e6, runQueueMs: waitNs / 1e6 };
}

/** Runs `work` and says what the scheduler gave `pids` meanwhile. */
export async function schedDuring<T>(
	pids: number[],
	work: () => Promise<T>,
): Promise<{ result: T; sched: SchedDelta }> {
	const before = sample(pids);
	const result = await work();
	const { cpuMs, runQueueMs } = difference(before, sample(pids));
	const sched = {
		cpuMs: Math.round(cpuMs),
		runQueueMs: Math.round(runQueueMs),
		load1m: Math.round(os.loadavg()[0] * 100) / 100,
	};
	return { result, sched };
}
