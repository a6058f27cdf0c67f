/** What `npm run bench` runs with: defaults, overridden through BENCH_* environment variables. */
import * as path from 'path';
import { API_MAX_PAGE_SIZE } from '../nodes/BusinessFinance/helpers/constants';
import { minimumRequests } from './floor';

export interface Settings {
	/** Vendors listed (BENCH_N). */
	n: number;
	/** Vendors created, one per input item (BENCH_M). */
	m: number;
	/** Requests per window (BENCH_LIMIT). */
	limit: number;
	/** Window length (BENCH_WINDOW_S); 0 = chosen from this machine's speed (see chooseWindow). */
	windowS: number;
	/** Warm runs per scenario after the cold one, and overhead rounds (BENCH_REPEAT, default 5). */
	repeat: number;
	/** The result file (BENCH_OUT). */
	out: string;
	/** The queue-mode scenario (BENCH_QUEUE=0 leaves it out). */
	queue: { enabled: boolean; n: number; limit: number; windowS: number };
}

/** The node's page size: what listing N vendors costs in requests. */
export const PAGE = API_MAX_PAGE_SIZE;
/** A rate limit that never binds (the overhead scenario). */
export const UNLIMITED = 1_000_000_000;

export function readSettings(): Settings {
	return {
		n: Number(process.env.BENCH_N ?? 20_000),
		m: Number(process.env.BENCH_M ?? 500),
		limit: Number(process.env.BENCH_LIMIT ?? 100),
		windowS: Number(process.env.BENCH_WINDOW_S ?? 0),
		repeat: Number(process.env.BENCH_REPEAT ?? 5),
		out: process.env.BENCH_OUT ?? path.join(__dirname, 'results', 'latest.json'),
		queue: {
			enabled: process.env.BENCH_QUEUE !== '0',
			n: Number(process.env.BENCH_QUEUE_N ?? 10_000),
			limit: Number(process.env.BENCH_QUEUE_LIMIT ?? 20),
			windowS: Number(process.env.BENCH_QUEUE_WINDOW_S ?? 5),
		},
	};
}

/** Requests listing all N vendors needs. */
export function listRequests(settings: Settings): number {
	return minimumRequests(settings.n, PAGE);
}

/**
 * The window: BENCH_WINDOW_S, or 2 s unless this machine needs more than half of it for a full
 * window's work (then the limit would never bind and the benchmark would measure nothing).
 */
export function chooseWindowS(settings: Settings, nodeMsPerRequest: number): number {
	if (settings.windowS > 0) return settings.windowS;
	const windowWorkMs = settings.limit * nodeMsPerRequest;
	return Math.max(2, Math.ceil((2 * windowWorkMs) / 1000));
}
