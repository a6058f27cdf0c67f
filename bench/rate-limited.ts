// The limits scenario of `npm run bench` (docs/benchmarks.md).
import { setTimeout as sleep } from 'timers/promises';
import {
	createItems,
	createParams,
	distinctIds,
	errorItems,
	listParams,
	runTheNode,
} from './clients';
import { measureOverhead, printOverhead } from './overhead';
import { runQueueListing } from './queue-listing';
import {
	coldAndMedianWarm,
	printTable,
	toRow,
	type Measured,
	type Outcome,
	type PerRequestMs,
	type Row,
} from './report';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';
import { schedDuring } from './sched';
import { listRequests, PAGE, readSettings, type Settings } from './settings';
import { sleptDuring } from './transport-hooks';

interface Bench {
	sb: SandboxProcess;
	s: Settings;
	getMs: PerRequestMs;
	postMs: PerRequestMs;
	pointMs?: number;
}

type RateLimitedRuns = Record<'list' | 'twoListsAtOnce' | 'create', Row[]>;

export async function runLimits(): Promise<Outcome> {
	const s = readSettings();
	const sb = await startSandboxProcess(['--seed', 'none', '--rate-limit', String(s.limit)]);
	let runs: RateLimitedRuns;
	let measured: Awaited<ReturnType<typeof measureOverhead>>;
	try {
		await sb.admin.seedVendors(s.n);
		measured = await measureOverhead(sb, s);
		runs = await runRateLimited({ sb, s, getMs: measured.getMs, postMs: measured.postMs });
	} finally {
		await sb.close();
	}
	const queue = await runQueueListing(s);
	const everyRun = { ...runs, queueMode: queue.runs };
	const rows = Object.values(everyRun)
		.filter((r) => r.length)
		.flatMap(coldAndMedianWarm);
	printTable(rows, s);
	printOverhead(measured.overhead);
	if (queue.skipped) console.log(`\nqueue-mode scenario left out: ${queue.skipped}`);
	const { overhead } = measured;
	const allTargetsMet = rows.every((r) => r.ok) && overhead.ok;
	const { out, ...chosen } = s;
	const settings = { ...chosen, pageSize: PAGE, sandbox: 'in its own process (npm run sandbox)' };
	return { file: out, record: { settings, scenarios: rows, everyRun, overhead, allTargetsMet } };
}

async function runRateLimited(bench: Bench): Promise<RateLimitedRuns> {
	const { sb, s } = bench;
	await sb.admin.setRateLimit({ limit: s.limit, windowSeconds: s.windowS, retryAfter: false });
	const runs: RateLimitedRuns = { list: [], twoListsAtOnce: [], create: [] };
	for (let round = 0; round <= s.repeat; round++) {
		await sb.admin.reset('none');
		await sb.admin.seedVendors(s.n);
		const at = { ...bench, pointMs: Math.floor(((round + 0.5) / (s.repeat + 1)) * 1000) };
		runs.list.push(await listAll(at));
		runs.twoListsAtOnce.push(await twoListsAtOnce(at));
		runs.create.push(await createAll(at));
	}
	return runs;
}

/**
 * The reset comes in whole seconds, so where in a second a window opens decides what waiting for
 * it costs (0–1 s); a real run starts anywhere, while the bench's fixed cadence would not.
 */
function untilPointOfSecond(pointMs = 0): number {
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
	let wallMs = 0;
	const timed = async () => {
		const started = performance.now();
		const result = await work();
		wallMs = performance.now() - started;
		return result;
	};
	const { result, sched } = await schedDuring([process.pid, sb.pid], () => sleptDuring(timed));
	const runs = result.result;
	const requests = await sb.admin.getRequests();
	const failedItems = runs.reduce((sum, run) => sum + errorItems(run.res), 0);
	const outputItems = runs.reduce((sum, run) => sum + run.res.items.length, 0);
	const measured = { wallMs, requests, waitedMs: result.sleptMs, sched, failedItems, outputItems };
	return toRow({ ...(await judge(runs)), ...measured }, s);
}

const eachOnce = (runs: Timed[], count: number) =>
	runs.every(({ res }) => res.items.length === count && distinctIds(res) === count);

/** Scenario 1. */
async function listAll(bench: Bench): Promise<Row> {
	const { sb, s } = bench;
	const list = async () => [await runTheNode(sb, listParams, [{}])];
	return await measureRun(bench, list, async (runs) => ({
		scenario: `list ${s.n} vendors`,
		minimum: listRequests(s),
		perRequestMs: bench.getMs,
		correct: eachOnce(runs, s.n),
		oneStream: true,
	}));
}

/** Scenario 4. */
async function twoListsAtOnce(bench: Bench): Promise<Row> {
	const { sb, s } = bench;
	const list = () => runTheNode(sb, listParams, [{}]);
	return await measureRun(
		bench,
		() => Promise.all([list(), list()]),
		async (runs) => ({
			scenario: `2 × list ${s.n} at once`,
			minimum: 2 * listRequests(s),
			perRequestMs: bench.getMs,
			correct: eachOnce(runs, s.n),
			notes: `each finished after ${runs.map((r) => Math.round(r.ms)).join(' ms and ')} ms`,
		}),
	);
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
