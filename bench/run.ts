/**
 * `npm run bench`: how close the node comes to the limits the service's rate limit sets.
 *
 * In-process: the real node runs through n8n-core's WorkflowExecute (test/helpers/n8n.ts) with
 * real HTTP against the sandbox, started with a short window (LIMIT requests per WINDOW_S
 * seconds) so a run takes seconds. Scenarios:
 *   1. list all of N vendors (seeded through the admin route), returnAll;
 *   2. create M vendors from M input items;
 *   3. per-item overhead with the rate limit off: the node against a plain keep-alive axios loop
 *      over the same requests;
 *   4. two executions listing at once on one key.
 * Requests, 429 answers and failures come from the sandbox's request log and the node's output.
 * Prints a table and writes bench/results/latest.json. Environment overrides: BENCH_N, BENCH_M,
 * BENCH_LIMIT, BENCH_WINDOW_S, BENCH_REPEAT, BENCH_OUT.
 */
import * as os from 'os';
import * as path from 'path';
import { mkdirSync, writeFileSync } from 'fs';
import { startSandbox } from '../sandbox';
import { measureOverhead, type OverheadResult } from './overhead';
import { coldAndFastestWarm, measureWindowGaps, runRateLimited } from './rate-limited';
import { machine, printOverhead, printTable, type Row } from './report';
import { chooseWindowS, PAGE, readSettings, type Settings } from './settings';

const FLOOR_FORMULA =
	"floor = (ceil(R / limit) - 1) * window + (R - (ceil(R / limit) - 1) * limit) * t when limit * t <= window (else the simulation in bench/floor.ts), R = the minimum number of requests; t = the node's own time per request with the rate limit off (floorMs) or the plain loop's (strictFloorMs)";
const TARGETS = {
	ratioToFloor: '<= 1.05',
	requests: '= minimum (429 answers counted apart)',
	rateLimited429: '<= 1 per window',
	failedItems: 0,
	overheadRatio: '>= 0.8',
};

async function main(): Promise<void> {
	const startedLoad = os.loadavg()[0];
	const configured = readSettings();
	const sb = await startSandbox({
		port: 0,
		host: '127.0.0.1',
		seed: 'none',
		rateLimit: configured.limit,
		rateWindowSeconds: 60,
	});
	try {
		await sb.admin.seedVendors(configured.n);
		// The overhead first: its per-request costs with the rate limit off are the floor's "work".
		const measured = await measureOverhead(sb, configured);
		const nodeMsPerRequest = Math.max(measured.getMs.node, measured.postMs.node);
		const s = { ...configured, windowS: chooseWindowS(configured, nodeMsPerRequest) };
		const bench = { sb, s, getMs: measured.getMs, postMs: measured.postMs };
		const runs = await runRateLimited(bench);
		const rows = [runs.list, runs.twoListsAtOnce, runs.create].flatMap(coldAndFastestWarm);
		const gaps = await measureWindowGaps(bench);

		printTable(rows, s);
		printOverhead(measured.overhead);
		console.log(
			`\nms from the end of each used-up window to the next request (warm, through a timing proxy): list ${JSON.stringify(gaps.lost.list)}, create ${JSON.stringify(gaps.lost.create)}`,
		);
		console.log(
			`ms from the last request's arrival to the end of the execution: list ${gaps.tail.list}, create ${gaps.tail.create}`,
		);
		const result = {
			machine: { ...machine(), loadAverage1mAtStart: Math.round(startedLoad * 100) / 100 },
			settings: settingsRecord(s),
			floorFormula: FLOOR_FORMULA,
			targets: TARGETS,
			scenarios: rows,
			everyRun: runs,
			msLostAfterEachFullWindow: gaps.lost,
			msFromLastRequestToEndOfExecution: gaps.tail,
			overhead: measured.overhead,
			allTargetsMet: allTargetsMet(rows, measured),
		};
		mkdirSync(path.dirname(s.out), { recursive: true });
		writeFileSync(s.out, `${JSON.stringify(result, null, 2)}\n`);
		console.log(
			`\nwritten ${path.relative(process.cwd(), s.out)}; all targets met: ${result.allTargetsMet}`,
		);
	} finally {
		await sb.close();
	}
}

function settingsRecord(s: Settings) {
	return {
		N: s.n,
		M: s.m,
		limit: s.limit,
		windowSeconds: s.windowS,
		windowChosen: process.env.BENCH_WINDOW_S
			? 'BENCH_WINDOW_S'
			: 'auto: max(2, 2 x a full window of work)',
		pageSize: PAGE,
		repeat: s.repeat,
	};
}

function allTargetsMet(rows: Row[], measured: OverheadResult): boolean {
	return rows.every((r) => r.ok) && measured.overhead.ok;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
