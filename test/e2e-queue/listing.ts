/**
 * Used by the suite and by `npm run bench`: two listings started at once, so that the two workers
 * (concurrency 1) each run one.
 */
import type { RunningSandbox } from '../../sandbox';
import type { QueueEnvironment } from '../../scripts/queue';
import { output, runManually } from '../e2e/service';
import { workerThatRan } from './evidence';
import { LISTING_WORKFLOW_ID } from './workflows';

export interface ListingLimit {
	limit: number; // requests per window
	windowSeconds: number;
}

/** Starts a fresh window (the sandbox's counters reset) first. */
export async function runTwoListings(
	env: QueueEnvironment,
	sandbox: Pick<RunningSandbox, 'admin'>,
	rate: ListingLimit,
) {
	await sandbox.admin.clearRequests();
	await sandbox.admin.setRateLimit({ limit: rate.limit, windowSeconds: rate.windowSeconds });
	const executions = await Promise.all(
		[1, 2].map(() => runManually(env.main, LISTING_WORKFLOW_ID, 300_000)),
	);
	const requests = await sandbox.admin.getRequests();
	return {
		executions,
		workers: executions.map((e) => workerThatRan(env, String(e.id))),
		vendors: executions.map((e) => output(e, 'List vendors')),
		requests,
		figures: listingFigures(executions, requests, rate),
	};
}

function listingFigures(
	executions: any[],
	requests: Array<{ path: string; status: number }>,
	rate: ListingLimit,
) {
	const runs = executions.map((e) => e.data.resultData.runData['List vendors'][0]);
	const starts = runs.map((r) => r.startTime as number);
	const ends = runs.map((r) => (r.startTime as number) + (r.executionTime as number));
	const spanMs = Math.max(...ends) - Math.min(...starts);
	const listing = requests.filter((r) => r.path === '/v1/vendors');
	const pageRequests = listing.filter((r) => r.status !== 429).length;
	const windowMs = rate.windowSeconds * 1000;
	// The sandbox opens a window at the first request after the last one ended: over the span at
	// most this many windows were opened.
	const windows = Math.floor(spanMs / windowMs) + 1;
	// All the page requests together need ⌈R / limit⌉ windows; the last one cannot start sooner.
	const floorMs = (Math.ceil(pageRequests / rate.limit) - 1) * windowMs;
	return {
		pageRequests,
		throttled: listing.length - pageRequests,
		windows,
		spanMs,
		floorMs,
		spanToFloor: Number((spanMs / floorMs).toFixed(3)),
		overlapMs: Math.min(...ends) - Math.max(...starts),
	};
}
