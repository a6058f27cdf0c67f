/**
 * Scenarios 1, 2 and 4 under the rate limit: list all N vendors, two such listings at once on one
 * key, create M vendors from M items; round 0 is cold, the REPEAT rounds after it warm. Each run
 * starts in a new window and records the CPU time and run-queue wait of this process and the
 * sandbox's.
 */
import { setTimeout as sleep } from 'timers/promises';
import {
	createItems,
	createParams,
	distinctIds,
	errorItems,
	listParams,
	runTheNode,
} from './clients';
import { toRow, type Measured, type PerRequestMs, type Row } from './report';
import type { SandboxProcess } from './sandbox-process';
import { schedDuring } from './sched';
import { listRequests, type Settings } from './settings';
import { sleptDuring } from './transport-hooks';

interface Bench {
	sb: SandboxProcess;
	s: Settings;
	getMs: PerRequestMs;
	postMs: PerRequestMs;
	/** Where in the wall-clock second the run starts (set per round). */
	pointMs?: number;
}

type RateLimitedRuns = Record<'list' | 'twoListsAtOnce' | 'create', Row[]>;

/** Every run of the three scenarios, cold round first. */
export async function runRateLimited(bench: Bench): Promise<RateLimitedRuns> {
	const { sb, s } = bench;
	await sb.admin.setRateLimit({ limit: s.limit, windowSeconds: s.windowS, retryAfter: false });
	const runs: RateLimitedRuns = { list: [], twoListsAtOnce: [], create: [] };
	for (let round = 0; round <= s.repeat; round++) {
		await sb.admin.reset('none');
		await sb.admin.seedVendors(s.n);
		// The rounds' runs start at points spread evenly over the second (untilPointOfSecond).
		const at = { ...bench, pointMs: Math.floor(((round + 0.5) / (s.repeat + 1)) * 1000) };
		runs.list.push(await listAll(at));
		runs.twoListsAtOnce.push(await twoListsAtOnce(at));
		runs.create.push(await createAll(at));
	}
	return runs;
}

/**
 * Ms until `pointMs` into a wall-clock second. The reset comes in whole seconds, so where in a
 * second a window opens decides what waiting for it costs (0–1 s); a real run starts anywhere,
 * while the bench's fixed cadence would start every run of a scenario at one point.
 */
function untilPointOfSecond(pointMs = 0): number {
	return (pointMs - (Date.now() % 1000) + 1000) % 1000;
}

/**
 * Runs `work` in a new window (the transport keeps nothing of a key past its window) and measures it against the sandbox's
 * request log: how long it took, how long the transport slept, what the scheduler did meanwhile.
 */
async function measureRun<T>(
	{ sb, s, pointMs }: Bench,
	work: () => Promise<T>,
	judge: (result: T) => Promise<Omit<Measured, 'wallMs' | 'requests' | 'waitedMs' | 'sched'>>,
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
	const requests = await sb.admin.getRequests();
	const judged = await judge(result.result);
	return toRow({ ...judged, wallMs, requests, waitedMs: result.sleptMs, sched }, s);
}

/** Scenario 1: list all N vendors (returnAll). */
async function listAll(bench: Bench): Promise<Row> {
	const { sb, s } = bench;
	return await measureRun(
		bench,
		() => runTheNode(sb, listParams, [{}]),
		async ({ res }) => ({
			scenario: `list ${s.n} vendors`,
			minimum: listRequests(s),
			perRequestMs: bench.getMs,
			failedItems: errorItems(res),
			outputItems: res.items.length,
			correct: distinctIds(res) === s.n && res.items.length === s.n,
			oneStream: true,
		}),
	);
}

/** Scenario 4: two executions listing all N vendors at once on one key. */
async function twoListsAtOnce(bench: Bench): Promise<Row> {
	const { sb, s } = bench;
	const list = () => runTheNode(sb, listParams, [{}]);
	return await measureRun(
		bench,
		() => Promise.all([list(), list()]),
		async ([a, b]) => ({
			scenario: `2 × list ${s.n} at once`,
			minimum: 2 * listRequests(s),
			perRequestMs: bench.getMs,
			failedItems: errorItems(a.res) + errorItems(b.res),
			outputItems: a.res.items.length + b.res.items.length,
			correct: [a, b].every((x) => x.res.items.length === s.n && distinctIds(x.res) === s.n),
			notes: `each finished after ${Math.round(a.ms)} ms and ${Math.round(b.ms)} ms`,
		}),
	);
}

/** Scenario 2: create M vendors from M input items. */
async function createAll(bench: Bench): Promise<Row> {
	const { sb, s } = bench;
	await sb.admin.reset('none');
	const create = () => runTheNode(sb, createParams, createItems(s.m));
	return await measureRun(bench, create, async ({ res }) => {
		const total = (await sb.admin.getStats()).counts.vendors;
		const paired = res.items.every((it, i) => (it.pairedItem as { item: number }).item === i);
		return {
			scenario: `create ${s.m} vendors`,
			minimum: s.m,
			perRequestMs: bench.postMs,
			failedItems: errorItems(res),
			outputItems: res.items.length,
			correct: total === s.m && res.items.length === s.m && paired,
			notes: `vendors on the service afterwards: ${total}`,
			oneStream: true,
		};
	});
}
