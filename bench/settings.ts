/** What `npm run bench` runs with: BENCH_* variables over defaults (docs/benchmarks.md). */
import * as path from 'path';
import { API_MAX_PAGE_SIZE } from '../nodes/BusinessFinance/helpers/constants';
import { minimumRequests } from './floor';

export interface Settings {
	/** Vendors listed, vendors created, requests per window. */
	n: number;
	m: number;
	limit: number;
	/** 0: chosen from this machine's speed (chooseWindowS). */
	windowS: number;
	/** Warm runs per scenario after the cold one, and overhead rounds. */
	repeat: number;
	out: string;
	queue: { enabled: boolean; n: number; limit: number; windowS: number };
}

/** The node's page size: what listing N vendors costs in requests. */
export const PAGE = API_MAX_PAGE_SIZE;
/** A rate limit that never binds (the overhead scenario). */
export const UNLIMITED = 1_000_000_000;

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export function readSettings(): Settings {
	return {
		n: env('BENCH_N', 20_000),
		m: env('BENCH_M', 500),
		limit: env('BENCH_LIMIT', 100),
		windowS: env('BENCH_WINDOW_S', 0),
		repeat: env('BENCH_REPEAT', 5),
		out: process.env.BENCH_OUT ?? path.join(__dirname, 'results', 'latest.json'),
		queue: {
			enabled: process.env.BENCH_QUEUE !== '0',
			n: env('BENCH_QUEUE_N', 10_000),
			limit: env('BENCH_QUEUE_LIMIT', 20),
			windowS: env('BENCH_QUEUE_WINDOW_S', 5),
		},
	};
}

export function listRequests(settings: Settings): number {
	return minimumRequests(settings.n, PAGE);
}

/**
 * BENCH_WINDOW_S, or 2 s unless a full window's work takes more than half of it here (then the
 * limit would never bind and the benchmark would measure nothing).
 */
export function chooseWindowS(settings: Settings, nodeMsPerRequest: number): number {
	if (settings.windowS > 0) return settings.windowS;
	return Math.max(2, Math.ceil((2 * settings.limit * nodeMsPerRequest) / 1000));
}
