/** A scenario's figures against its floor and targets, the printed table, the machine it ran on. */
import { existsSync, readFileSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { IDataObject } from 'n8n-workflow';
import type { LoggedRequest } from './clients';
import { floorMs, windowsNeeded } from './floor';
import type { OverheadResult, PerRequestMs } from './overhead';
import type { Settings } from './settings';

export interface Row {
	scenario: string;
	wallMs: number;
	/** Floor with the node's own time per request (rate limit off): the cost of waiting alone. */
	floorMs: number;
	ratio: number;
	/** Floor with the plain loop's time per request: also charges the node's overhead. */
	strictFloorMs: number;
	strictRatio: number;
	requests: number;
	requestsOther429: number;
	minimumRequests: number;
	windows: number;
	rateLimited429: number;
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
	wallMsAllRuns?: number[];
	ratioAllRuns?: number[];
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
	waitedMs: number;
}

export function toRow(run: Measured, s: Settings): Row {
	const { minimum, wallMs } = run;
	const floor = floorMs(minimum, s.limit, s.windowS * 1000, run.perRequestMs.node);
	const strict = floorMs(minimum, s.limit, s.windowS * 1000, run.perRequestMs.plain);
	const rateLimited429 = run.requests.filter((r) => r.status === 429).length;
	const windows = windowsNeeded(minimum, s.limit);
	const row: Row = {
		scenario: run.scenario,
		wallMs: Math.round(wallMs),
		floorMs: Math.round(floor),
		ratio: Math.round((wallMs / floor) * 1000) / 1000,
		strictFloorMs: Math.round(strict),
		strictRatio: Math.round((wallMs / strict) * 1000) / 1000,
		requests: run.requests.length,
		requestsOther429: run.requests.length - rateLimited429,
		minimumRequests: minimum,
		windows,
		rateLimited429,
		failedItems: run.failedItems,
		outputItems: run.outputItems,
		correct: run.correct,
		ok: false,
	};
	row.necessaryWaitMs = Math.max(0, Math.round(floor - minimum * run.perRequestMs.node));
	if (run.notes !== undefined) row.notes = run.notes;
	row.waitedMs = run.waitedMs;
	row.ok = runCorrect(row) && row.ratio <= 1.05;
	return row;
}

/** The correctness targets: the minimum requests, at most one 429 per window, no failure. */
export function runCorrect(row: Row): boolean {
	return (
		row.correct &&
		row.requestsOther429 === row.minimumRequests &&
		row.rateLimited429 <= row.windows &&
		row.failedItems === 0
	);
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
	try {
		const git = path.join(__dirname, '..', '.git');
		const head = readFileSync(path.join(git, 'HEAD'), 'utf8').trim();
		const ref = head.startsWith('ref: ') ? head.slice(5) : undefined;
		const refFile = ref && path.join(git, ref);
		return (refFile && existsSync(refFile) ? readFileSync(refFile, 'utf8') : head)
			.trim()
			.slice(0, 7);
	} catch {
		return 'unknown'; // not a checkout
	}
}

const TABLE_HEAD = [
	'scenario',
	'wall ms',
	'floor ms',
	'ratio',
	'strict floor',
	'strict ratio',
	'requests (non-429)',
	'minimum',
	'windows',
	'429s',
	'slept ms',
	'needed wait ms',
	'failed',
	'met',
];

function tableCells(r: Row): string[] {
	return [
		r.scenario,
		String(r.wallMs),
		String(r.floorMs),
		r.ratio.toFixed(3),
		String(r.strictFloorMs),
		r.strictRatio.toFixed(3),
		String(r.requestsOther429),
		String(r.minimumRequests),
		String(r.windows),
		String(r.rateLimited429),
		String(r.waitedMs ?? ''),
		String(r.necessaryWaitMs ?? ''),
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
		const everyRun = r.allRunsCorrect ? 'yes' : 'NO';
		const correct =
			r.allRunsCorrect === undefined
				? ''
				: `requests, 429s, failures and output right in every run: ${everyRun}`;
		const notes = [each, correct, r.notes ?? ''].filter(Boolean).join('; ');
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
