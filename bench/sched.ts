// Run-queue wait counts only main threads: V8's helper threads become runnable all at once and
// queue among themselves, which says nothing about the event loop. Zeros where /proc is missing.
import { existsSync, readdirSync, readFileSync } from 'fs';
import * as os from 'os';

/** ns, per "pid/tid". */
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

export type SchedDelta = Awaited<ReturnType<typeof schedDuring>>['sched'];

export async function schedDuring<T>(pids: number[], work: () => Promise<T>) {
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
		load1m: Math.round(os.loadavg()[0] * 100) / 100, // at the end of the run
	};
	return { result, sched };
}
