// The floor, ratios and targets are defined in docs/benchmarks.md.
import { spawnSync } from 'child_process';
import * as os from 'os';
import * as path from 'path';
import type { IDataObject } from 'n8n-workflow';
import { floorMs, windowsNeeded } from './floor';
import type { SchedDelta } from './sched';
import type { Settings } from './settings';

/** What a scenario hands the runner: its result file (in bench/results unless absolute) and figures. */
export interface Outcome {
	file: string;
	record: { allTargetsMet?: boolean } & Record<string, unknown>;
}

export interface PerRequestMs {
	node: number;
	plain: number;
}

export type Row = ReturnType<typeof toRow> & {
	statistic?: string;
	allRunsCorrect?: boolean;
	ratioSpread?: [number, number];
	wallMsAllRuns?: number[];
	ratioAllRuns?: number[];
};

export interface Measured {
	scenario: string;
	wallMs: number;
	requests: Array<{ status: number }>;
	minimum: number;
	perRequestMs: PerRequestMs;
	failedItems: number;
	outputItems: number;
	correct: boolean;
	notes?: string;
	/** Unknown inside n8n workers. */
	waitedMs?: number;
	oneStream?: boolean;
	sched?: SchedDelta;
	rateLimitStates?: number;
	targetRatio?: number;
}

export const round3 = (x: number) => Math.round(x * 1000) / 1000;

function floorTimePerRequest(run: Measured) {
	if (run.oneStream && run.waitedMs !== undefined) {
		return { t: Math.max(0, run.wallMs - run.waitedMs) / run.minimum, from: 'this run' as const };
	}
	if (run.perRequestMs.node === 0) return { t: 0, from: 'none (queue mode)' as const };
	return { t: run.perRequestMs.node, from: 'overhead rounds' as const };
}

export function toRow(run: Measured, s: Settings) {
	const { minimum, wallMs } = run;
	const floorWith = (t: number) => floorMs(minimum, s.limit, s.windowS * 1000, t);
	const t = floorTimePerRequest(run);
	const floor = floorWith(t.t);
	const strict = floorWith(run.perRequestMs.plain);
	const rateLimited429 = run.requests.filter((r) => r.status === 429).length;
	const row = {
		scenario: run.scenario,
		wallMs: Math.round(wallMs),
		floorMs: Math.round(floor),
		ratio: round3(wallMs / floor),
		floorT: t.from,
		overheadTRatio: round3(wallMs / floorWith(run.perRequestMs.node)),
		strictFloorMs: Math.round(strict),
		strictRatio: round3(wallMs / strict),
		requests: run.requests.length,
		requestsOther429: run.requests.length - rateLimited429,
		minimumRequests: minimum,
		windows: windowsNeeded(minimum, s.limit),
		rateLimited429,
		rateLimitStates: run.rateLimitStates ?? 1,
		targetRatio: run.targetRatio ?? 1.02,
		failedItems: run.failedItems,
		outputItems: run.outputItems,
		correct: run.correct,
		ok: false,
		necessaryWaitMs: Math.max(0, Math.round(floor - minimum * t.t)),
		waitedMs: run.waitedMs,
		notes: run.notes,
		sched: run.sched,
	};
	row.ok = runCorrect(row) && row.ratio <= row.targetRatio;
	return row;
}

function runCorrect(row: Omit<Row, 'ok'>): boolean {
	return (
		row.correct &&
		row.requestsOther429 === row.minimumRequests &&
		row.rateLimited429 <= row.windows * row.rateLimitStates &&
		row.failedItems === 0
	);
}

/** Either row is met only when every run was correct. */
export function coldAndMedianWarm(runs: Row[]): Row[] {
	const allCorrect = runs.every(runCorrect);
	const [cold, ...warm] = runs;
	const sorted = [...warm].sort((x, y) => x.ratio - y.ratio);
	const median = sorted[Math.floor((sorted.length - 1) / 2)];
	const rows: Row[] = [
		{ ...cold, scenario: `${cold.scenario} (cold)`, statistic: 'cold', allRunsCorrect: allCorrect },
		{
			...median,
			scenario: `${median.scenario} (warm)`,
			statistic: `median of ${warm.length} warm runs`,
			allRunsCorrect: allCorrect,
			ratioSpread: [sorted[0].ratio, sorted[sorted.length - 1].ratio],
			wallMsAllRuns: warm.map((row) => row.wallMs),
			ratioAllRuns: warm.map((row) => row.ratio),
		},
	];
	return rows.map((row) => ({ ...row, ok: row.ok && allCorrect }));
}

/** Nearest rank. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

export function machine(): IDataObject {
	const commit = spawnSync('git', ['rev-parse', '--short=7', 'HEAD'], {
		cwd: path.join(__dirname, '..'),
		encoding: 'utf8',
	});
	return {
		date: new Date().toISOString(),
		commit: commit.status === 0 ? commit.stdout.trim() : 'unknown',
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model,
		memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
		loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
	};
}

export function printMarkdownTable(head: string[], body: string[][]): void {
	const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
	const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
	console.log([line(head), rule, ...body.map(line)].join('\n'));
}

const COLUMNS: Array<[string, (r: Row) => string | number | undefined]> = [
	['scenario', (r) => r.scenario],
	['wall ms', (r) => r.wallMs],
	['floor ms', (r) => r.floorMs],
	['ratio', (r) => r.ratio.toFixed(3)],
	['spread', (r) => r.ratioSpread?.map((x) => x.toFixed(3)).join('–')],
	['floor t from', (r) => r.floorT],
	['ratio, overhead t', (r) => r.overheadTRatio.toFixed(3)],
	['strict ratio', (r) => r.strictRatio.toFixed(3)],
	['requests (non-429)', (r) => r.requestsOther429],
	['minimum', (r) => r.minimumRequests],
	['windows', (r) => r.windows],
	['429s', (r) => r.rateLimited429],
	['slept ms', (r) => r.waitedMs],
	['needed wait ms', (r) => r.necessaryWaitMs],
	['cpu ms', (r) => r.sched?.cpuMs],
	['run-queue ms', (r) => r.sched?.runQueueMs],
	['failed', (r) => r.failedItems],
	['met', (r) => (r.ok ? 'yes' : 'NO')],
];

export function printTable(rows: Row[], s: Settings): void {
	console.log(`\nRate limit ${s.limit} requests per ${s.windowS} s; N = ${s.n}, M = ${s.m}\n`);
	printMarkdownTable(
		COLUMNS.map(([head]) => head),
		rows.map((r) => COLUMNS.map(([, cell]) => String(cell(r) ?? ''))),
	);
	for (const r of rows) {
		const notes = [
			`target ratio <= ${r.targetRatio}`,
			r.ratioAllRuns && `ratio of each warm run ${r.ratioAllRuns.join(', ')}`,
			`requests, 429s, failures and output right in every run: ${r.allRunsCorrect ? 'yes' : 'NO'}`,
			r.notes,
		];
		console.log(`  ${r.scenario}: ${notes.filter(Boolean).join('; ')}`);
	}
}
