/** A scenario's figures against its floor and targets, the printed table, the machine it ran on. */
import { spawnSync } from 'child_process';
import * as os from 'os';
import * as path from 'path';
import type { IDataObject } from 'n8n-workflow';
import type { LoggedRequest } from './clients';
import { floorMs, windowsNeeded } from './floor';
import type { OverheadResult, PerRequestMs } from './overhead';
import type { SchedDelta } from './sched';
import type { Settings } from './settings';

export interface Row {
	scenario: string;
	wallMs: number;
	/**
	 * The floor the ratio is judged on: with the time per request the node took in this run when
	 * that is known (one execution: the run's time not spent sleeping, per request), else with
	 * the overhead rounds' (rate limit off). Either way it leaves the cost of waiting alone.
	 */
	floorMs: number;
	ratio: number;
	/** Where the floor's time per request came from. */
	floorT: 'this run' | 'overhead rounds' | 'none (queue mode)';
	/** The ratio to the floor with the overhead rounds' time per request (for comparison). */
	overheadTRatio: number;
	/** Floor with the plain loop's time per request: also charges the node's overhead. */
	strictFloorMs: number;
	strictRatio: number;
	requests: number;
	requestsOther429: number;
	minimumRequests: number;
	windows: number;
	rateLimited429: number;
	/** Processes keeping their own rate-limit state (n8n workers): each may get a 429 per window. */
	rateLimitStates: number;
	/** The ratio this scenario's median must stay within. */
	targetRatio: number;
	/** Time the node slept waiting for the rate limit, and the least a client must wait. */
	waitedMs?: number;
	necessaryWaitMs?: number;
	failedItems: number;
	outputItems: number;
	/** Every item came out exactly once (and, for creates, the service holds exactly M). */
	correct: boolean;
	ok: boolean;
	/** Requests, 429s, failures and output were right in every run of the scenario. */
	allRunsCorrect?: boolean;
	/** The statistic of a summary row: 'cold' (one run) or 'median of N warm runs'. */
	statistic?: string;
	/** Lowest and highest ratio of the runs summarised. */
	ratioSpread?: [number, number];
	wallMsAllRuns?: number[];
	ratioAllRuns?: number[];
	/** CPU time and run-queue wait of the client and the sandbox processes (bench/sched.ts). */
	sched?: SchedDelta;
	notes?: string;
}

/** What one timed run of a scenario saw. */
export interface Measured {
	scenario: string;
	wallMs: number;
	/** The sandbox's request log of the run. */
	requests: LoggedRequest[];
	minimum: number;
	perRequestMs: PerRequestMs;
	failedItems: number;
	outputItems: number;
	correct: boolean;
	notes?: string;
	/** Time the transport slept (unknown inside n8n workers). */
	waitedMs?: number;
	/**
	 * The run's requests went one after another (one execution in this process): its time not
	 * spent sleeping, per request, is the node's time per request in this run.
	 */
	oneStream?: boolean;
	sched?: SchedDelta;
	/** Default 1 (one process). */
	rateLimitStates?: number;
	/** Default 1.05. */
	targetRatio?: number;
	/** The run's rate limit, when it is not the settings' (the queue-mode scenario). */
	limit?: { requests: number; windowS: number };
}

const ratioOf = (wallMs: number, floor: number) => Math.round((wallMs / floor) * 1000) / 1000;

/** The time per request the floor uses, and where it came from. */
function floorTimePerRequest(run: Measured): { t: number; from: Row['floorT'] } {
	if (run.oneStream && run.waitedMs !== undefined) {
		return { t: Math.max(0, run.wallMs - run.waitedMs) / run.minimum, from: 'this run' };
	}
	if (run.perRequestMs.node === 0) return { t: 0, from: 'none (queue mode)' };
	return { t: run.perRequestMs.node, from: 'overhead rounds' };
}

export function toRow(run: Measured, s: Settings): Row {
	const { minimum, wallMs } = run;
	const limit = run.limit?.requests ?? s.limit;
	const windowMs = (run.limit?.windowS ?? s.windowS) * 1000;
	const t = floorTimePerRequest(run);
	const floor = floorMs(minimum, limit, windowMs, t.t);
	const overheadFloor = floorMs(minimum, limit, windowMs, run.perRequestMs.node);
	const strict = floorMs(minimum, limit, windowMs, run.perRequestMs.plain);
	const rateLimited429 = run.requests.filter((r) => r.status === 429).length;
	const windows = windowsNeeded(minimum, limit);
	const row: Row = {
		scenario: run.scenario,
		wallMs: Math.round(wallMs),
		floorMs: Math.round(floor),
		ratio: ratioOf(wallMs, floor),
		floorT: t.from,
		overheadTRatio: ratioOf(wallMs, overheadFloor),
		strictFloorMs: Math.round(strict),
		strictRatio: ratioOf(wallMs, strict),
		requests: run.requests.length,
		requestsOther429: run.requests.length - rateLimited429,
		minimumRequests: minimum,
		windows,
		rateLimited429,
		rateLimitStates: run.rateLimitStates ?? 1,
		targetRatio: run.targetRatio ?? 1.05,
		failedItems: run.failedItems,
		outputItems: run.outputItems,
		correct: run.correct,
		ok: false,
	};
	row.necessaryWaitMs = Math.max(0, Math.round(floor - minimum * t.t));
	if (run.notes !== undefined) row.notes = run.notes;
	row.waitedMs = run.waitedMs;
	if (run.sched) row.sched = run.sched;
	row.ok = runCorrect(row) && row.ratio <= row.targetRatio;
	return row;
}

/** The correctness targets: the minimum requests, at most one 429 per window, no failure. */
export function runCorrect(row: Row): boolean {
	return (
		row.correct &&
		row.requestsOther429 === row.minimumRequests &&
		row.rateLimited429 <= row.windows * row.rateLimitStates &&
		row.failedItems === 0
	);
}

/**
 * Per scenario: the cold run, and the warm runs' median (the run with the median ratio, with the
 * lowest and highest ratio as its spread). Correctness (requests, 429s, failures, complete
 * output) must hold in every run for either row to count as met; the warm row's ratio target
 * is on the median.
 */
export function coldAndMedianWarm(runs: Row[]): Row[] {
	const allCorrect = runs.every(runCorrect);
	const [cold, ...warm] = runs;
	const sorted = [...warm].sort((x, y) => x.ratio - y.ratio);
	const median = sorted[Math.floor((sorted.length - 1) / 2)];
	return [
		{
			...cold,
			scenario: `${cold.scenario} (cold)`,
			statistic: 'cold',
			ok: cold.ok && allCorrect,
			allRunsCorrect: allCorrect,
		},
		{
			...median,
			scenario: `${median.scenario} (warm)`,
			statistic: `median of ${warm.length} warm runs`,
			ok: runCorrect(median) && median.ratio <= median.targetRatio && allCorrect,
			allRunsCorrect: allCorrect,
			ratioSpread: [sorted[0].ratio, sorted[sorted.length - 1].ratio],
			wallMsAllRuns: warm.map((row) => row.wallMs),
			ratioAllRuns: warm.map((row) => row.ratio),
		},
	];
}

export function machine(): IDataObject {
	return {
		date: new Date().toISOString(),
		commit: gitCommit(),
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model,
		memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
		loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
	};
}

function gitCommit(): string {
	const result = spawnSync('git', ['rev-parse', '--short=7', 'HEAD'], {
		cwd: path.join(__dirname, '..'),
		encoding: 'utf8',
	});
	return result.status === 0 ? result.stdout.trim() : 'unknown'; // not a checkout
}

const TABLE_HEAD = [
	'scenario',
	'wall ms',
	'floor ms',
	'ratio',
	'spread',
	'floor t from',
	'ratio, overhead t',
	'strict ratio',
	'requests (non-429)',
	'minimum',
	'windows',
	'429s',
	'slept ms',
	'needed wait ms',
	'cpu ms',
	'run-queue ms',
	'failed',
	'met',
];

function tableCells(r: Row): string[] {
	const spread = r.ratioSpread
		? `${r.ratioSpread[0].toFixed(3)}–${r.ratioSpread[1].toFixed(3)}`
		: '';
	return [
		r.scenario,
		String(r.wallMs),
		String(r.floorMs),
		r.ratio.toFixed(3),
		spread,
		r.floorT,
		r.overheadTRatio.toFixed(3),
		r.strictRatio.toFixed(3),
		String(r.requestsOther429),
		String(r.minimumRequests),
		String(r.windows),
		String(r.rateLimited429),
		String(r.waitedMs ?? ''),
		String(r.necessaryWaitMs ?? ''),
		String(r.sched?.cpuMs ?? ''),
		String(r.sched?.runQueueMs ?? ''),
		String(r.failedItems),
		r.ok ? 'yes' : 'NO',
	];
}

export function printTable(rows: Row[], s: Settings): void {
	const body = rows.map(tableCells);
	const widths = TABLE_HEAD.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
	console.log(`\nRate limit ${s.limit} requests per ${s.windowS} s; N = ${s.n}, M = ${s.m}\n`);
	console.log(line(TABLE_HEAD));
	console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
	for (const b of body) console.log(line(b));
	for (const r of rows) {
		const each = r.ratioAllRuns ? `ratio of each warm run ${r.ratioAllRuns.join(', ')}` : '';
		const target = `target ratio <= ${r.targetRatio}`;
		const everyRun = r.allRunsCorrect ? 'yes' : 'NO';
		const correct =
			r.allRunsCorrect === undefined
				? ''
				: `requests, 429s, failures and output right in every run: ${everyRun}`;
		const notes = [target, each, correct, r.notes ?? ''].filter(Boolean).join('; ');
		if (notes) console.log(`  ${r.scenario}: ${notes}`);
	}
}

export function printOverhead(overhead: OverheadResult['overhead']): void {
	const ms = overhead.msPerRequest;
	console.log(
		`\nOverhead, rate limit off (${overhead.statistic}): throughput of the node / plain keep-alive loop: ` +
			`list ${overhead.listThroughputRatio}, create ${overhead.createThroughputRatio}; target >= 0.8: ${overhead.ok ? 'met' : 'NOT met'}`,
	);
	console.log(
		`  ms per request: GET page plain ${ms.plainGet} (new connection each: ${ms.plainGetNewConnectionEach}), bare n8n node ${ms.bareNodeGet}, Business Finance node ${ms.nodeGet}; ` +
			`POST plain ${ms.plainPost} (new connection each: ${ms.plainPostNewConnectionEach}), bare n8n node ${ms.bareNodePost}, Business Finance node ${ms.nodePost}`,
	);
	console.log(
		`  n8n's request path (bare node / plain): list ${overhead.n8nListRatio}, create ${overhead.n8nCreateRatio}; ` +
			`the package's code (node / bare node): list ${overhead.packageListRatio}, create ${overhead.packageCreateRatio}`,
	);
}
