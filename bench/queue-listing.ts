// Scenario 5 (docs/benchmarks.md, "Queue mode").
import { setTimeout as sleep } from 'timers/promises';
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
import { toRow, type Row } from './report';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';
import { schedDuring } from './sched';
import { minimumRequests } from './floor';
import type { Settings } from './settings';

export async function runQueueListing(s: Settings): Promise<{ runs: Row[]; skipped?: string }> {
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
