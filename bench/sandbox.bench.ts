/**
 * `npm run bench:sandbox`: the sandbox's own speed and size (issue 2).
 *
 * 1. Throughput: `GET /v1/vendors?limit=100` with 10,000 vendors, CONCURRENCY keep-alive
 *    connections for DURATION_S seconds (after a warm-up). Target ≥ 3,000 requests/s.
 * 2. Memory: 100,000 vendors seeded through the admin route, every page read once, then the
 *    server process's resident memory (RSS, from /_admin/stats after a GC). Target < 300 MB.
 *
 * The sandbox runs as `npm run sandbox` runs it: the emitted JS (`tsc -p
 * sandbox/tsconfig.build.json`, which the npm script runs first) in its own Node process, so the
 * load generator here does not share its event loop or its memory. The server's CPU time per
 * request is read from /proc (Linux), which says what one free core could serve even when the
 * machine is busy. The rate limit is raised for the run. Environment overrides:
 * BENCH_CONCURRENCY, BENCH_DURATION_S, BENCH_VENDORS, BENCH_MEMORY_VENDORS.
 */
import { readFileSync } from 'fs';
import * as http from 'http';
import * as os from 'os';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const VENDORS = Number(process.env.BENCH_VENDORS ?? 10_000);
const MEMORY_VENDORS = Number(process.env.BENCH_MEMORY_VENDORS ?? 100_000);
let apiKey = '';

type Server = SandboxProcess;

/** The sandbox in its own process, the rate limit out of the way, --expose-gc for /_admin/stats. */
async function startServer(): Promise<Server> {
	const server = await startSandboxProcess(
		['--seed', 'none', '--rate-limit', '1000000000'],
		['--expose-gc'],
	);
	apiKey = server.apiKey;
	return server;
}

async function stopServer(server: Server): Promise<void> {
	await server.close();
}

/** User + system CPU seconds of a process so far (Linux /proc; undefined elsewhere). */
function cpuSeconds(pid: number | undefined): number | undefined {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
	} catch {
		return undefined;
	}
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** A GET whose body is only counted (keeps the load generator's own CPU use low). */
function hit(url: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = http.request(
			url,
			{ agent, headers: { authorization: `Bearer ${apiKey}` } },
			(res) => {
				let bytes = 0;
				res.on('data', (c: Buffer) => (bytes += c.length));
				res.on('end', () =>
					resolve(res.statusCode === 200 && bytes > 0 ? 200 : (res.statusCode ?? 0)),
				);
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end();
	});
}

function request(
	url: string,
	method = 'GET',
	body?: unknown,
): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const payload = body === undefined ? undefined : JSON.stringify(body);
		const req = http.request(
			url,
			{
				method,
				agent,
				headers: {
					authorization: `Bearer ${apiKey}`,
					...(payload
						? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
						: {}),
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
				);
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

async function admin(baseUrl: string, method: string, route: string, body?: unknown): Promise<any> {
	const res = await request(`${baseUrl}/_admin${route}`, method, body);
	if (res.status >= 300) throw new Error(`admin ${route}: ${res.status} ${res.text}`);
	return JSON.parse(res.text).data;
}

interface LoadResult {
	requests: number;
	rps: number;
	p50: number;
	p99: number;
	errors: number;
	/** Server CPU time per request, microseconds. */
	cpuUs?: number;
}

/** Requests from CONCURRENCY keep-alive clients for `seconds`; `url` may change per request. */
async function load(
	server: Server,
	url: string | (() => string),
	seconds: number,
): Promise<LoadResult> {
	const urlFor = typeof url === 'string' ? () => url : url;
	const latencies: number[] = [];
	let errors = 0;
	const end = Date.now() + seconds * 1000;
	const cpu0 = cpuSeconds(server.pid);
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (Date.now() < end) {
				const t = process.hrtime.bigint();
				const status = await hit(urlFor());
				latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
				if (status !== 200) errors++;
			}
		}),
	);
	const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
	const cpu1 = cpuSeconds(server.pid);
	latencies.sort((a, b) => a - b);
	const q = (p: number) =>
		latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
	return {
		requests: latencies.length,
		rps: latencies.length / elapsed,
		p50: q(0.5),
		p99: q(0.99),
		errors,
		cpuUs:
			cpu0 === undefined || cpu1 === undefined
				? undefined
				: ((cpu1 - cpu0) / latencies.length) * 1e6,
	};
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function throughput() {
	const server = await startServer();
	try {
		await admin(server.baseUrl, 'POST', '/vendors/seed', { count: VENDORS });
		const url = `${server.baseUrl}/v1/vendors?limit=100&page=7`;
		const sample = JSON.parse((await request(url)).text);
		if (sample.data.length !== 100 || sample.meta.total !== VENDORS)
			throw new Error('unexpected page');
		await load(server, url, 2); // warm-up
		await admin(server.baseUrl, 'DELETE', '/requests');
		const list = await load(server, url, DURATION_S);
		// Every page in turn: each answer is built once, then served from the cache.
		let page = 0;
		const pages = Math.ceil(VENDORS / 100);
		const allPages = await loadPages(server, () => (page++ % pages) + 1);
		const search = await load(
			server,
			`${server.baseUrl}/v1/vendors?limit=100&search=vendor%20001`,
			Math.max(2, DURATION_S / 2),
		);
		return { list, allPages, search };
	} finally {
		await stopServer(server);
	}
}

/** As `load`, over changing pages (after a vendor change, so no answer is cached at the start). */
async function loadPages(server: Server, next: () => number): Promise<LoadResult> {
	await admin(server.baseUrl, 'POST', '/vendors/seed', { count: 1 }); // invalidates the cached answers
	return await load(
		server,
		() => `${server.baseUrl}/v1/vendors?limit=100&page=${next()}`,
		Math.max(2, DURATION_S / 2),
	);
}

async function memory() {
	const server = await startServer();
	try {
		const before = (await admin(server.baseUrl, 'GET', '/stats')).memory;
		const t = Date.now();
		await admin(server.baseUrl, 'POST', '/vendors/seed', { count: MEMORY_VENDORS });
		const seedMs = Date.now() - t;
		const seeded = (await admin(server.baseUrl, 'GET', '/stats')).memory;
		for (let page = 1; page <= Math.ceil(MEMORY_VENDORS / 100); page++) {
			const res = await request(`${server.baseUrl}/v1/vendors?limit=100&page=${page}`);
			if (res.status !== 200) throw new Error(`page ${page}: ${res.status}`);
		}
		await admin(server.baseUrl, 'DELETE', '/requests');
		const after = (await admin(server.baseUrl, 'GET', '/stats')).memory;
		return { seedMs, before, seeded, after };
	} finally {
		await stopServer(server);
	}
}

const fmt = (r: LoadResult) =>
	`${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors` +
	(r.cpuUs === undefined
		? ''
		: `; server CPU ${Math.round(r.cpuUs)} µs/request = ${Math.round(1e6 / r.cpuUs)} req/s per core`);

async function main() {
	console.log(
		`node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model}), load average ${os
			.loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')}`,
	);
	const mem = await memory();
	console.log(
		`${MEMORY_VENDORS} vendors: seeded in ${mem.seedMs} ms; server RSS ${mb(mem.before.rss)} MB empty → ` +
			`${mb(mem.seeded.rss)} MB seeded → ${mb(mem.after.rss)} MB after reading every page; heap used ` +
			`${mb(mem.before.heapUsed)} → ${mb(mem.after.heapUsed)} MB (target < 300 MB: ${mem.after.rss < 300 * 1024 * 1024 ? 'met' : 'NOT met'})`,
	);
	const { list, allPages, search } = await throughput();
	console.log(
		`GET /v1/vendors?limit=100 (${VENDORS} vendors, ${CONCURRENCY} connections, ${DURATION_S} s, one page): ${fmt(list)} ` +
			`(target ≥ 3000 req/s: ${list.rps >= 3000 ? 'met' : 'NOT met'} measured${
				list.cpuUs !== undefined
					? `, ${1e6 / list.cpuUs >= 3000 ? 'met' : 'NOT met'} per free core`
					: ''
			})`,
	);
	console.log(
		`GET /v1/vendors?limit=100&page=1..${Math.ceil(VENDORS / 100)} in turn: ${fmt(allPages)}`,
	);
	console.log(`GET /v1/vendors?limit=100&search=… (scan of ${VENDORS}): ${fmt(search)}`);
	agent.destroy();
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
