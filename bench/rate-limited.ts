// The limits scenario of `npm run bench` (docs/benchmarks.md).
import { setTimeout as sleep } from 'timers/promises';
import { API_MAX_PAGE_SIZE } from '../nodes/BusinessFinance/helpers/constants';
import {
	createItems,
	createParams,
	distinctIds,
	errorItems,
	listParams,
	runTheNode,
} from './clients';
import { minimumRequests } from './floor';
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
import { readSettings, type Settings } from './settings';
import { sleptDuring } from './transport-hooks';

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

type RateLimitedRuns = Record<'list' | 'twoListsAtOnce' | 'create', Row[]>;

/** Scenarios 1–4: the node runs in the bench's process. */
async function inTheBenchProcess(sb: SandboxProcess, s: Settings) {
	await sb.admin.seedVendors(s.n);
	const { overhead, getMs, postMs } = await measureOverhead(sb, s);
	await sb.admin.setRateLimit({ limit: s.limit, windowSeconds: s.windowS, retryAfter: false });
	const runs: RateLimitedRuns = { list: [], twoListsAtOnce: [], create: [] };
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
