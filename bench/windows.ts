/**
 * `npm run bench:windows`: what learning the window length (nodes/BusinessFinance/transport/
 * limiter.ts) gains at the service's real 60 s window (docs/transport.md, "Window learning"). The
 * real transport runs on a virtual clock against a model of two kinds of service: windows that
 * start with the first request (the sandbox's rule) and clock-aligned ones. Learning off: the
 * model sends the same reset as an HTTP date, which the transport does not learn from.
 * Environment: WINDOWS_PAGES (500), WINDOWS_RUNS (10), WINDOWS_S (60), WINDOWS_ONE_WAY_MS (10-40).
 */
import type { IDataObject } from 'n8n-workflow';
import { createTransport } from '../nodes/BusinessFinance/transport';
import type { Clock } from '../nodes/BusinessFinance/transport/deadline';
import { printMarkdownTable } from './report';

const PAGES = Number(process.env.WINDOWS_PAGES ?? 500);
const RUNS = Number(process.env.WINDOWS_RUNS ?? 10);
const WINDOW_MS = Number(process.env.WINDOWS_S ?? 60) * 1000;
/** One-way latency range, "min-max" in ms. */
const [ONE_WAY_MIN_MS, ONE_WAY_MAX_MS] = (process.env.WINDOWS_ONE_WAY_MS ?? '10-40')
	.split('-')
	.map(Number);
const LIMIT = 100;
const START_MS = 1_800_000_000_000; // a whole minute of the epoch

type Mode = 'first request' | 'clock-aligned';

/** Timers fire only when everything else is waiting: virtual time, as fast as the CPU allows. */
class VirtualClock {
	nowMs = START_MS;
	private timers: Array<{ at: number; seq: number; fire: () => void }> = [];
	private seq = 0;
	private seed = 42;

	readonly clock: Clock = {
		now: () => this.nowMs,
		random: () => this.random(),
		sleep: async (ms, signal) =>
			await new Promise<void>((resolve, reject) => {
				const timer = { at: this.nowMs + Math.max(0, ms), seq: this.seq++, fire: resolve };
				signal?.addEventListener('abort', () => {
					this.timers = this.timers.filter((t) => t !== timer);
					reject(signal.reason);
				});
				this.timers.push(timer);
			}),
	};

	/** A seeded pseudo-random number in [0, 1) (the same runs every time). */
	random(): number {
		this.seed = (this.seed * 1_103_515_245 + 12_345) % 2 ** 31;
		return this.seed / 2 ** 31;
	}

	async run<T>(promise: Promise<T>): Promise<T> {
		let done = false;
		const settled = promise.finally(() => (done = true));
		for (;;) {
			for (let i = 0; i < 4; i++) await new Promise<void>((resolve) => setImmediate(resolve));
			if (done) return await settled;
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.timers.shift();
			if (!next) throw new Error('nothing to wait for');
			this.nowMs = Math.max(this.nowMs, next.at);
			next.fire();
		}
	}
}

interface Window {
	startMs: number;
	count: number;
	firstArrivalMs: number;
}

/** A fixed-window rate limiter like the service's, counting on arrival. */
class WindowService {
	windows: Window[] = [];
	rateLimited = 0;

	constructor(
		private readonly mode: Mode,
		private readonly windowMs: number,
		/** Send the reset as an HTTP date (the same whole second): the transport learns nothing. */
		private readonly resetAsDate: boolean,
	) {}

	private resetHeader(seconds: number): string {
		return this.resetAsDate ? new Date(seconds * 1000).toUTCString() : String(seconds);
	}

	answer(nowMs: number): { statusCode: number; headers: Record<string, string>; body: string } {
		let w = this.windows[this.windows.length - 1];
		if (!w || nowMs >= w.startMs + this.windowMs) {
			const startMs =
				this.mode === 'clock-aligned' ? Math.floor(nowMs / this.windowMs) * this.windowMs : nowMs;
			w = { startMs, count: 0, firstArrivalMs: nowMs };
			this.windows.push(w);
		}
		w.count += 1;
		const headers = {
			'x-ratelimit-limit': String(LIMIT),
			'x-ratelimit-remaining': String(Math.max(0, LIMIT - w.count)),
			'x-ratelimit-reset': this.resetHeader(Math.ceil((w.startMs + this.windowMs) / 1000)),
		};
		if (w.count > LIMIT) {
			this.rateLimited += 1;
			return {
				statusCode: 429,
				headers,
				body: '{"error":{"code":"RATE_LIMITED","message":"Too many requests"}}',
			};
		}
		return {
			statusCode: 200,
			headers,
			body: JSON.stringify({ data: [{ id: `v${nowMs}-${w.count}` }], meta: { has_more: true } }),
		};
	}

	/** For every used-up window: ms from its end to the first request of the next one. */
	lostAfterFullWindows(): number[] {
		const lost: number[] = [];
		for (let i = 0; i + 1 < this.windows.length; i++) {
			const w = this.windows[i];
			if (w.count >= LIMIT)
				lost.push(this.windows[i + 1].firstArrivalMs - (w.startMs + this.windowMs));
		}
		return lost;
	}
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
): Promise<{ service: WindowService; elapsedMs: number }> {
	const virtual = new VirtualClock();
	virtual.nowMs += startOffsetMs;
	const service = new WindowService(mode, WINDOW_MS, !learn);
	const oneWayMs = () =>
		ONE_WAY_MIN_MS + Math.round((ONE_WAY_MAX_MS - ONE_WAY_MIN_MS) * virtual.random());
	const ctx = {
		getNode: () => ({
			id: 'n',
			name: 'Business Finance',
			type: 'businessFinance',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getCredentials: async () => ({
			apiKey: 'svc_dummy_windows_measurement',
			baseUrl: 'https://api.example.com',
		}),
		helpers: {
			httpRequestWithAuthentication: async () => {
				await virtual.clock.sleep(oneWayMs());
				const answer = service.answer(virtual.nowMs);
				await virtual.clock.sleep(oneWayMs());
				return answer;
			},
		},
	};
	const listing = async (pages: number) => {
		const transport = createTransport({ clock: virtual.clock });
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
	const started = virtual.nowMs;
	const share = Math.ceil(PAGES / processes);
	await virtual.run(Promise.all(Array.from({ length: processes }, () => listing(share))));
	return { service, elapsedMs: virtual.nowMs - started };
}

async function measure(mode: Mode, learn: boolean, processes: number) {
	const lost: number[] = [];
	let rateLimited = 0;
	let elapsed = 0;
	for (let run = 0; run < RUNS; run++) {
		// Starting points spread over a window (and off the whole second).
		const offsetMs = Math.round(((run + 0.37) * WINDOW_MS) / RUNS);
		const { service, elapsedMs } = await oneRun(mode, learn, processes, offsetMs);
		lost.push(...service.lostAfterFullWindows());
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
