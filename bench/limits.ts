// The limits scenario of `npm run bench` (docs/benchmarks.md): scenarios 1–4 run the node in the
// bench's process, scenario 5 in n8n's queue mode.
import * as path from 'path';
import { setTimeout as sleep } from 'timers/promises';
import { API_MAX_PAGE_SIZE } from '../nodes/BusinessFinance/helpers/constants';
import { systemClock } from '../nodes/BusinessFinance/transport/deadline';
import {
	build,
	importCredentials,
	importWorkflows,
	requireRuntime,
	type Runtime,
} from '../scripts/n8n';
import {
	QueueEnvironment,
	requireQueueServices,
	type QueueServicePrograms,
} from '../scripts/queue';
import { runTwoListings, type ListingLimit } from '../test/e2e-queue/listing';
import { LISTING_CREDENTIAL, listingWorkflow } from '../test/e2e-queue/workflows';
import {
	printMarkdownTable,
	round3,
	schedDuring,
	startSandboxProcess,
	type Outcome,
	type SandboxProcess,
	type SchedDelta,
} from './common';
import {
	createItems,
	createParams,
	distinctIds,
	errorItems,
	listParams,
	measureOverhead,
	minimumRequests,
	printOverhead,
	runTheNode,
	type PerRequestMs,
} from './overhead';

const fromEnv = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

function readSettings() {
	return {
		n: fromEnv('BENCH_N', 15_000),
		m: fromEnv('BENCH_M', 150),
		limit: fromEnv('BENCH_LIMIT', 100),
		windowS: fromEnv('BENCH_WINDOW_S', 60),
		repeat: fromEnv('BENCH_REPEAT', 3),
		out: process.env.BENCH_OUT ?? path.join(__dirname, 'results', 'latest.json'),
		queue: { enabled: process.env.BENCH_QUEUE !== '0', n: fromEnv('BENCH_QUEUE_N', 10_000) },
	};
}

export type Settings = ReturnType<typeof readSettings>;

// The only place the benchmark reaches into the transport. Only sleeps that ran to their end count
// (a wait that another request's answer ends does not: with two executions, a lower bound).
let sleptMs = 0;
const transportSleep = systemClock.sleep;
systemClock.sleep = async (ms, signal) => {
	const startedMs = performance.now();
	await transportSleep(ms, signal);
	sleptMs += performance.now() - startedMs;
};

/** The wall time of `work` and the part of it the transport slept. */
async function sleptDuring<T>(work: () => Promise<T>) {
	const mark = sleptMs;
	const started = performance.now();
	const result = await work();
	return { result, wallMs: performance.now() - started, sleptMs: Math.round(sleptMs - mark) };
}

interface Bench {
	sb: SandboxProcess;
	s: Settings;
	getMs: PerRequestMs;
	postMs: PerRequestMs;
	pointMs: number;
}

export async function runLimits(): Promise<Outcome> {
	const s = readSettings();
	const sb = await startSandboxProcess(['--rate-limit', String(s.limit)]);
	const { overhead, runs } = await inTheBenchProcess(sb, s).finally(() => sb.close());
	const queue = await runQueueListing(s);
	const everyRun = { ...runs, queueMode: queue.runs };
	const rows = Object.values(everyRun)
		.filter((r) => r.length)
		.flatMap(coldAndMedianWarm);
	printTable(rows, s);
	printOverhead(overhead);
	if (queue.skipped) console.log(`\nqueue-mode scenario left out: ${queue.skipped}`);
	const allTargetsMet = rows.every((r) => r.ok) && overhead.ok;
	const { out, ...chosen } = s;
	const settings = {
		...chosen,
		pageSize: API_MAX_PAGE_SIZE,
		sandbox: 'in its own process (npm run sandbox)',
	};
	return { file: out, record: { settings, scenarios: rows, everyRun, overhead, allTargetsMet } };
}

/** Scenarios 1–4: the node runs in the bench's process. */
async function inTheBenchProcess(sb: SandboxProcess, s: Settings) {
	await sb.admin.seedVendors(s.n);
	const { overhead, getMs, postMs } = await measureOverhead(sb, s);
	await sb.admin.setRateLimit({ limit: s.limit, windowSeconds: s.windowS, retryAfter: false });
	const runs: Record<'list' | 'twoListsAtOnce' | 'create', Row[]> = {
		list: [],
		twoListsAtOnce: [],
		create: [],
	};
	for (let round = 0; round <= s.repeat; round++) {
		await sb.admin.reset('none');
		await sb.admin.seedVendors(s.n);
		const pointMs = Math.floor(((round + 0.5) / (s.repeat + 1)) * 1000);
		const bench = { sb, s, getMs, postMs, pointMs };
		runs.list.push(await listAll(bench, 1));
		runs.twoListsAtOnce.push(await listAll(bench, 2));
		runs.create.push(await createAll(bench));
	}
	return { overhead, runs };
}

/**
 * The reset comes in whole seconds, so where in a second a window opens decides what waiting for
 * it costs (0–1 s); a real run starts anywhere, while the bench's fixed cadence would not.
 */
function untilPointOfSecond(pointMs: number): number {
	return (pointMs - (Date.now() % 1000) + 1000) % 1000;
}

type Timed = Awaited<ReturnType<typeof runTheNode>>;
type Judged = Omit<
	Measured,
	'wallMs' | 'requests' | 'waitedMs' | 'sched' | 'failedItems' | 'outputItems'
>;

/** In a new window: the transport keeps nothing of a key past its window. */
async function measureRun(
	{ sb, s, pointMs }: Bench,
	work: () => Promise<Timed[]>,
	judge: (runs: Timed[]) => Promise<Judged>,
): Promise<Row> {
	await sleep(s.windowS * 1000 + 250);
	await sleep(untilPointOfSecond(pointMs));
	await sb.admin.clearRequests();
	const { result, sched } = await schedDuring([process.pid, sb.pid], () => sleptDuring(work));
	const { result: runs, wallMs, sleptMs: waitedMs } = result;
	const requests = await sb.admin.getRequests();
	const failedItems = runs.reduce((sum, run) => sum + errorItems(run.res), 0);
	const outputItems = runs.reduce((sum, run) => sum + run.res.items.length, 0);
	const measured = { wallMs, requests, waitedMs, sched, failedItems, outputItems };
	return toRow({ ...(await judge(runs)), ...measured }, s);
}

const eachOnce = (runs: Timed[], count: number) =>
	runs.every(({ res }) => res.items.length === count && distinctIds(res) === count);

/** Scenario 1 (one execution) and 4 (two at once on one key). */
async function listAll(bench: Bench, executions: 1 | 2): Promise<Row> {
	const { sb, s } = bench;
	const list = () => runTheNode(sb, listParams, [{}]);
	const work = () => Promise.all(Array.from({ length: executions }, list));
	return await measureRun(bench, work, async (runs) => ({
		scenario: executions === 1 ? `list ${s.n} vendors` : `2 × list ${s.n} at once`,
		minimum: executions * minimumRequests(s.n),
		perRequestMs: bench.getMs,
		correct: eachOnce(runs, s.n),
		oneStream: executions === 1,
		notes:
			executions === 2
				? `each finished after ${runs.map((r) => Math.round(r.ms)).join(' ms and ')} ms`
				: undefined,
	}));
}

/** Scenario 2. */
async function createAll(bench: Bench): Promise<Row> {
	const { sb, s } = bench;
	await sb.admin.reset('none');
	const create = async () => [await runTheNode(sb, createParams, createItems(s.m))];
	return await measureRun(bench, create, async (runs) => {
		const total = (await sb.admin.getStats()).counts.vendors;
		const items = runs[0].res.items;
		const paired = items.every((it, i) => (it.pairedItem as { item: number }).item === i);
		return {
			scenario: `create ${s.m} vendors`,
			minimum: s.m,
			perRequestMs: bench.postMs,
			correct: total === s.m && eachOnce(runs, s.m) && paired,
			notes: `vendors on the service afterwards: ${total}`,
			oneStream: true,
		};
	});
}

/** Scenario 5 (docs/benchmarks.md, "Queue mode"). */
async function runQueueListing(s: Settings): Promise<{ runs: Row[]; skipped?: string }> {
	const q = s.queue;
	if (!q.enabled) return { runs: [], skipped: 'BENCH_QUEUE=0' };
	let prerequisites: [Runtime, QueueServicePrograms];
	try {
		prerequisites = [requireRuntime(), requireQueueServices()];
	} catch (error) {
		return { runs: [], skipped: (error as Error).message };
	}
	const sb = await startSandboxProcess([
		...['--api-key', 'svc_bench_queue_listing'],
		...['--rate-limit', String(s.limit), '--rate-window', String(s.windowS)],
	]);
	let env: QueueEnvironment | undefined;
	try {
		await sb.admin.seedVendors(q.n);
		build();
		env = await QueueEnvironment.start(...prerequisites);
		await env.main.setupOwner();
		const credential = { ...LISTING_CREDENTIAL, apiKey: sb.apiKey, baseUrl: sb.baseUrl };
		await importCredentials(env.main.runtime, env.cliOptions(), [credential]);
		await importWorkflows(env.main.runtime, env.cliOptions(), [listingWorkflow()]);
		const rows: Row[] = [];
		for (let round = 0; round <= s.repeat; round++) rows.push(await queueRun(env, sb, s));
		return { runs: rows };
	} finally {
		await env?.stop();
		await sb.close();
	}
}

async function queueRun(env: QueueEnvironment, sb: SandboxProcess, s: Settings): Promise<Row> {
	const q = s.queue;
	await sleep(s.windowS * 1000 + 250); // the previous run's window is over
	const rate: ListingLimit = { limit: s.limit, windowSeconds: s.windowS };
	const pids = [sb.pid, ...env.workers.map((w) => w.process.child.pid!)];
	const { result, sched } = await schedDuring(pids, () => runTwoListings(env, sb, rate));
	const { executions, workers, vendors, requests, figures } = result;
	const complete = vendors.every(
		(v) => v.length === q.n && new Set(v.map((x) => x.id)).size === q.n,
	);
	const failed = executions.filter((e) => e.status !== 'success').length;
	return toRow(
		{
			scenario: `queue mode: 2 workers × list ${q.n} at once`,
			wallMs: figures.spanMs,
			requests: requests.filter((r) => r.path === '/v1/vendors'),
			minimum: 2 * minimumRequests(q.n),
			perRequestMs: { node: 0, plain: 0 },
			failedItems: failed,
			outputItems: vendors.reduce((sum, v) => sum + v.length, 0),
			correct: complete && new Set(workers).size === 2,
			notes: `run by ${workers.join(' and ')}; windows spanned ${figures.windows}`,
			sched,
			rateLimitStates: 2,
			targetRatio: 1.1,
		},
		s,
	);
}

// The floor, ratios and targets (docs/benchmarks.md, "The floor"), and the table.

function windowsNeeded(requests: number, limit: number): number {
	return Math.max(1, Math.ceil(requests / limit));
}

/**
 * Simulated rather than the closed form, which only holds while a full window's work fits in it
 * (limit × perRequestMs ≤ windowMs).
 */
function floorMs(requests: number, limit: number, windowMs: number, perRequestMs: number): number {
	let t = 0; // when the next request can start
	let windowStart = -Infinity;
	let used = 0;
	for (let i = 0; i < requests; i++) {
		if (t >= windowStart + windowMs || used >= limit) {
			t = Math.max(t, windowStart + windowMs);
			windowStart = t;
			used = 0;
		}
		used++;
		t += perRequestMs;
	}
	return t;
}

type Row = ReturnType<typeof toRow> & {
	statistic?: string;
	allRunsCorrect?: boolean;
	ratioSpread?: [number, number];
	wallMsAllRuns?: number[];
	ratioAllRuns?: number[];
};

interface Measured {
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

function floorTimePerRequest(run: Measured) {
	if (run.oneStream && run.waitedMs !== undefined) {
		return { t: Math.max(0, run.wallMs - run.waitedMs) / run.minimum, from: 'this run' as const };
	}
	if (run.perRequestMs.node === 0) return { t: 0, from: 'none (queue mode)' as const };
	return { t: run.perRequestMs.node, from: 'overhead rounds' as const };
}

function toRow(run: Measured, s: Settings) {
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
function coldAndMedianWarm(runs: Row[]): Row[] {
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

function printTable(rows: Row[], s: Settings): void {
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
