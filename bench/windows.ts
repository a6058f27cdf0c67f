/**
 * `npm run bench:windows`: what learning the window length (nodes/BusinessFinance/transport/
 * limiter.ts) gains at the service's real 60 s window (docs/transport.md, "Window learning"). The
 * real transport runs on the unit tests' fake clock against their model of the service
 * (test/unit/transport-fakes.ts), in its two kinds: windows that start with the first request (the
 * sandbox's rule) and clock-aligned ones. Learning off: the model sends the same reset as an HTTP
 * date, which the transport does not learn from.
 * Environment: WINDOWS_PAGES (500), WINDOWS_RUNS (10), WINDOWS_S (60), WINDOWS_ONE_WAY_MS (10-40).
 */
import type { IDataObject } from 'n8n-workflow';
import { createTransport } from '../nodes/BusinessFinance/transport';
import { FakeClock, FakeWindowServer, fakeContext } from '../test/unit/transport-fakes';
import { printMarkdownTable } from './report';

const PAGES = Number(process.env.WINDOWS_PAGES ?? 500);
const RUNS = Number(process.env.WINDOWS_RUNS ?? 10);
const WINDOW_MS = Number(process.env.WINDOWS_S ?? 60) * 1000;
/** One-way latency range, "min-max" in ms. */
const [ONE_WAY_MIN_MS, ONE_WAY_MAX_MS] = (process.env.WINDOWS_ONE_WAY_MS ?? '10-40')
	.split('-')
	.map(Number);
const LIMIT = 100;
/** The printed name of each kind of service, and the server model's. */
const MODES = { 'first request': 'firstRequest', 'clock-aligned': 'aligned' } as const;
type Mode = keyof typeof MODES;

/** A seeded pseudo-random sequence in [0, 1): the same runs every time. */
function seededRandom(seed = 42): () => number {
	return () => {
		seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
		return seed / 2 ** 31;
	};
}

/** For every used-up window: ms from its end to the first request of the next one. */
function lostAfterFullWindows({ windows }: FakeWindowServer): number[] {
	const lost: number[] = [];
	for (let i = 0; i + 1 < windows.length; i++) {
		const w = windows[i];
		if (w.count >= LIMIT) lost.push(windows[i + 1].firstArrivalMs - (w.startMs + WINDOW_MS));
	}
	return lost;
}

/**
 * One case's run: `processes` n8n processes (each its own transport, so its own per-key state, as
 * n8n workers in queue mode) list PAGES pages between them at the same time on one key.
 */
async function oneRun(
	mode: Mode,
	learn: boolean,
	processes: number,
	startOffsetMs: number,
): Promise<{ service: FakeWindowServer; elapsedMs: number }> {
	const fake = new FakeClock(); // starts on a whole minute of the epoch
	fake.random = seededRandom();
	fake.now += startOffsetMs;
	const resetUnit = learn ? 'seconds' : 'httpDate';
	const service = new FakeWindowServer(fake, LIMIT, WINDOW_MS, resetUnit, MODES[mode]);
	const oneWayMs = () =>
		ONE_WAY_MIN_MS + Math.round((ONE_WAY_MAX_MS - ONE_WAY_MIN_MS) * fake.random());
	const ctx = fakeContext(fake, async () => {
		await fake.sleep(oneWayMs());
		const answer = service.handle();
		await fake.sleep(oneWayMs());
		return answer;
	});
	const listing = async (pages: number) => {
		const transport = createTransport({ clock: fake.clock });
		for (let page = 1; page <= pages; page++) {
			await transport.apiRequest.call(
				ctx as never,
				'GET',
				'/v1/vendors',
				undefined,
				{ page } as IDataObject,
				{ waitBudgetMs: 10 * WINDOW_MS },
			);
		}
	};
	const started = fake.now;
	const share = Math.ceil(PAGES / processes);
	await fake.run(Promise.all(Array.from({ length: processes }, () => listing(share))));
	return { service, elapsedMs: fake.now - started };
}

async function measure(mode: Mode, learn: boolean, processes: number) {
	const lost: number[] = [];
	let rateLimited = 0;
	let elapsed = 0;
	for (let run = 0; run < RUNS; run++) {
		// Starting points spread over a window (and off the whole second).
		const offsetMs = Math.round(((run + 0.37) * WINDOW_MS) / RUNS);
		const { service, elapsedMs } = await oneRun(mode, learn, processes, offsetMs);
		lost.push(...lostAfterFullWindows(service));
		rateLimited += service.rateLimited;
		elapsed += elapsedMs;
	}
	const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
	return {
		mode,
		learn,
		processes,
		meanLostMs: mean(lost),
		maxLostMs: lost.length ? Math.max(...lost) : 0,
		rateLimited,
		meanElapsedMs: Math.round(elapsed / RUNS),
	};
}

async function main(): Promise<void> {
	const rows: Array<Awaited<ReturnType<typeof measure>>> = [];
	for (const processes of [1, 2]) {
		for (const mode of ['first request', 'clock-aligned'] as const) {
			for (const learn of [false, true]) rows.push(await measure(mode, learn, processes));
		}
	}
	console.log(
		`\n${LIMIT} requests per ${WINDOW_MS / 1000} s; ${PAGES} pages in a row, ${RUNS} runs per case (virtual clock, one-way latency ${ONE_WAY_MIN_MS}–${ONE_WAY_MAX_MS} ms)\n`,
	);
	const head = ['processes on the key', 'service', 'window learning'];
	head.push('ms lost per used-up window (mean / max)', '429s in all runs', 'mean total time');
	printMarkdownTable(
		head,
		rows.map((r) => [
			String(r.processes),
			r.mode,
			r.learn ? 'on' : 'off',
			`${r.meanLostMs} / ${r.maxLostMs}`,
			String(r.rateLimited),
			`${(r.meanElapsedMs / 1000).toFixed(1)} s`,
		]),
	);
	for (let i = 0; i < rows.length; i += 2) {
		const [off, on] = [rows[i], rows[i + 1]];
		const gain = ((off.meanElapsedMs - on.meanElapsedMs) / off.meanElapsedMs) * 100;
		console.log(
			`\n${off.processes} process(es), ${off.mode}: learning saves ${off.meanLostMs - on.meanLostMs} ms per used-up window, ${gain.toFixed(2)} % of the total time`,
		);
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
