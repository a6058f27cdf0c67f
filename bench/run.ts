/**
 * `npm run bench`: how close the node comes to the limits the service's rate limit sets. The
 * scenarios, floors, targets and environment variables are in docs/benchmarks.md.
 */
import * as os from 'os';
import * as path from 'path';
import { mkdirSync, writeFileSync } from 'fs';
import { runDataTableSync } from './data-table-sync';
import { measureOverhead, printOverhead, type OverheadResult } from './overhead';
import { runPolling } from './polling';
import { runQueueListing } from './queue-listing';
import { runRateLimited } from './rate-limited';
import { coldAndMedianWarm, machine, printTable, type Row } from './report';
import { startSandboxProcess } from './sandbox-process';
import { runTriggerBurst } from './trigger-burst';
import { PAGE, readSettings, type Settings } from './settings';

async function main(): Promise<void> {
	const startedLoad = os.loadavg()[0];
	const s = readSettings();
	const sb = await startSandboxProcess(['--seed', 'none', '--rate-limit', String(s.limit)]);
	try {
		await sb.admin.seedVendors(s.n);
		// The overhead first: its per-request costs with the rate limit off are the floor's "work".
		const measured = await measureOverhead(sb, s);
		const runs = await runRateLimited({ sb, s, getMs: measured.getMs, postMs: measured.postMs });
		await sb.close();
		const queue = await runQueueListing(s);
		const everyRun = { ...runs, queueMode: queue.runs };
		const rows = Object.values(everyRun)
			.filter((r) => r.length)
			.flatMap(coldAndMedianWarm);
		report({ startedLoad, s, rows, everyRun, measured });
		if (queue.skipped) console.log(`\nqueue-mode scenario left out: ${queue.skipped}`);
	} finally {
		await sb.close();
	}
	if (process.env.BENCH_POLLING !== '0') await runPolling();
	if (process.env.BENCH_SYNC !== '0') await runDataTableSync();
	if (process.env.BENCH_TRIGGER !== '0') await runTriggerBurst();
}

interface Outcome {
	startedLoad: number;
	s: Settings;
	rows: Row[];
	everyRun: Record<string, Row[]>;
	measured: OverheadResult;
}

function report({ startedLoad, s, rows, everyRun, measured }: Outcome): void {
	printTable(rows, s);
	printOverhead(measured.overhead);
	const result = {
		machine: { ...machine(), loadAverage1mAtStart: Math.round(startedLoad * 100) / 100 },
		settings: settingsRecord(s),
		scenarios: rows,
		everyRun,
		overhead: measured.overhead,
		allTargetsMet: rows.every((r) => r.ok) && measured.overhead.ok,
	};
	mkdirSync(path.dirname(s.out), { recursive: true });
	writeFileSync(s.out, `${JSON.stringify(result, null, 2)}\n`);
	console.log(
		`\nwritten ${path.relative(process.cwd(), s.out)}; all targets met: ${result.allTargetsMet}`,
	);
}

function settingsRecord(s: Settings) {
	return {
		N: s.n,
		M: s.m,
		limit: s.limit,
		windowSeconds: s.windowS,
		pageSize: PAGE,
		repeat: s.repeat,
		sandbox: 'in its own process (the emitted JS of npm run sandbox)',
		queueMode: s.queue.enabled ? { ...s.queue, workers: 2, concurrency: 1 } : 'left out',
	};
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
