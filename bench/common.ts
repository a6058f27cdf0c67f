// What every scenario uses: the sandbox in its own process, CPU and run-queue time from /proc, and
// printing. The bench npm scripts build the sandbox's emitted JS first (package.json).
import { existsSync, readdirSync, readFileSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startGroup, stopGroup } from '../scripts/process-group';
import { AdminClient, type RunningSandbox } from '../sandbox';
import { createHttpClient } from '../scripts/http-client';

/** What a scenario hands the runner: its result file (in bench/results unless absolute) and figures. */
export interface Outcome {
	file: string;
	record: { allTargetsMet?: boolean } & Record<string, unknown>;
}

export const UNLIMITED = 1_000_000_000;

export const round3 = (x: number) => Math.round(x * 1000) / 1000;

export const loadAverage1m = () => Math.round(os.loadavg()[0] * 100) / 100;

/** Nearest rank. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

export function printMarkdownTable(head: string[], body: string[][]): void {
	const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
	const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
	console.log([line(head), rule, ...body.map(line)].join('\n'));
}

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'node_modules/.cache/business-finance-sandbox/sandbox/cli.js');

/** `pid` for its CPU time. */
export type SandboxProcess = Pick<RunningSandbox, 'baseUrl' | 'apiKey' | 'admin' | 'close'> & {
	pid: number;
	api: ReturnType<typeof createHttpClient>;
};

function printed(log: string): { baseUrl: string; apiKey: string } | undefined {
	const url = /listening on (http:\/\/\S+)/.exec(log);
	const key = /API key:\s+(\S+)/.exec(log);
	return url && key ? { baseUrl: url[1], apiKey: key[1] } : undefined;
}

/** Empty: each scenario seeds what it lists. */
export async function startSandboxProcess(flags: string[]): Promise<SandboxProcess> {
	const args = [CLI, '--port', '0', '--seed', 'none', ...flags];
	const proc = await startGroup('sandbox', process.execPath, args, {
		env: process.env,
		cwd: ROOT,
		readyFor: `the sandbox (${CLI}) to print its address`,
		isReady: async (started) => printed(started.log()) !== undefined,
		timeoutMs: 30_000,
		pollMs: 50,
	});
	const { baseUrl, apiKey } = printed(proc.log())!;
	return {
		baseUrl,
		apiKey,
		admin: new AdminClient(baseUrl),
		api: createHttpClient(`${baseUrl}/v1`, { apiKey }),
		pid: proc.child.pid!,
		close: () => stopGroup(proc, 'SIGTERM', 5_000),
	};
}

// Run-queue wait counts only main threads: V8's helper threads become runnable all at once and
// queue among themselves, which says nothing about the event loop. Zeros where /proc is missing.

/** ns, per "pid/tid". */
function schedstat(pids: number[]): Map<string, [number, number]> {
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
	const before = schedstat(pids);
	const result = await work();
	let cpuNs = 0;
	let waitNs = 0;
	for (const [thread, [run, wait]] of schedstat(pids)) {
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
		load1m: loadAverage1m(), // at the end of the run
	};
	return { result, sched };
}
