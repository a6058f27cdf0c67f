/** What `npm run bench` runs with: BENCH_* variables over defaults (docs/benchmarks.md). */
import * as path from 'path';
import { API_MAX_PAGE_SIZE } from '../nodes/BusinessFinance/helpers/constants';
import { minimumRequests } from './floor';

export interface Settings {
	/** Vendors listed, vendors created, requests per window of windowS (the spec's: 100 per 60 s). */
	n: number;
	m: number;
	limit: number;
	windowS: number;
	/** Warm runs per scenario after the cold one, and overhead rounds. */
	repeat: number;
	out: string;
	/** Queue mode: on or off, and the vendors each of its two listings reads. */
	queue: { enabled: boolean; n: number };
}

/** The node's page size: what listing N vendors costs in requests. */
export const PAGE = API_MAX_PAGE_SIZE;
/** A rate limit that never binds (the overhead scenario). */
export const UNLIMITED = 1_000_000_000;

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export function readSettings(): Settings {
	return {
		n: env('BENCH_N', 15_000),
		m: env('BENCH_M', 150),
		limit: env('BENCH_LIMIT', 100),
		windowS: env('BENCH_WINDOW_S', 60),
		repeat: env('BENCH_REPEAT', 3),
		out: process.env.BENCH_OUT ?? path.join(__dirname, 'results', 'latest.json'),
		queue: { enabled: process.env.BENCH_QUEUE !== '0', n: env('BENCH_QUEUE_N', 10_000) },
	};
}

export function listRequests(settings: Settings): number {
	return minimumRequests(settings.n, PAGE);
}
