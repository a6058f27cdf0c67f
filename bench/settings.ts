import * as path from 'path';

export const UNLIMITED = 1_000_000_000;

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export function readSettings() {
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

export type Settings = ReturnType<typeof readSettings>;
