/**
 * `npm run bench:sandbox`: the sandbox's own speed and size (issue 2).
 *
 * 1. Throughput: `GET /v1/vendors?limit=100` with 10,000 vendors, CONCURRENCY keep-alive
 *    connections for DURATION_S seconds (after a warm-up). Target ≥ 3,000 requests/s.
 * 2. Memory: 100,000 vendors seeded through the admin route, every page read once (so every
 *    cached serialisation exists), then the server's RSS and heap. Target < 300 MB.
 *
 * For throughput the sandbox runs in a worker thread (ts-node, transpile-only, as `npm run
 * sandbox` runs it), so the load generator does not share its event loop; memory is measured
 * in this process after a GC (the script runs node with --expose-gc). The rate limit is raised. Environment overrides: BENCH_CONCURRENCY, BENCH_DURATION_S,
 * BENCH_VENDORS, BENCH_MEMORY_VENDORS.
 */
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';

import { startSandbox } from '../sandbox';

const ROOT = path.resolve(__dirname, '..');
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const VENDORS = Number(process.env.BENCH_VENDORS ?? 10_000);
const MEMORY_VENDORS = Number(process.env.BENCH_MEMORY_VENDORS ?? 100_000);
let apiKey = '';

interface Running {
	baseUrl: string;
	stop(): Promise<void>;
}

/** The sandbox in a worker thread: its own event loop (and core), as a separate server would be. */
function startInWorker(): Promise<Running> {
	const code = `
		require('ts-node').register({ transpileOnly: true, project: ${JSON.stringify(path.join(ROOT, 'tsconfig.json'))} });
		const { parentPort } = require('worker_threads');
		const { startSandbox } = require(${JSON.stringify(path.join(ROOT, 'sandbox'))});
		startSandbox({ port: 0, seed: 'none', rateLimit: 1e9 }).then((sb) => {
			parentPort.postMessage({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
			parentPort.on('message', () => sb.close().then(() => parentPort.postMessage('closed')));
		});`;
	const worker = new Worker(code, { eval: true });
	return new Promise((resolve, reject) => {
		worker.once('error', reject);
		worker.once('message', (m: { baseUrl: string; apiKey: string }) => {
			apiKey = m.apiKey;
			resolve({
				baseUrl: m.baseUrl,
				stop: () =>
					new Promise<void>((done) => {
						worker.once('message', () => void worker.terminate().then(() => done()));
						worker.postMessage('close');
					}),
			});
		});
	});
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(url: string, method = 'GET', body?: unknown): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const payload = body === undefined ? undefined : JSON.stringify(body);
		const req = http.request(
			url,
			{
				method,
				agent,
				headers: {
					authorization: `Bearer ${apiKey}`,
					...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
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

async function load(url: string, seconds: number): Promise<{ requests: number; rps: number; p50: number; p99: number; errors: number }> {
	const latencies: number[] = [];
	let errors = 0;
	const end = Date.now() + seconds * 1000;
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (Date.now() < end) {
				const t = process.hrtime.bigint();
				const res = await request(url);
				latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
				if (res.status !== 200) errors++;
			}
		}),
	);
	const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
	latencies.sort((a, b) => a - b);
	const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
	return { requests: latencies.length, rps: latencies.length / elapsed, p50: q(0.5), p99: q(0.99), errors };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function throughput() {
	const sb = await startInWorker();
	try {
		await admin(sb.baseUrl, 'POST', '/vendors/seed', { count: VENDORS });
		const url = `${sb.baseUrl}/v1/vendors?limit=100&page=7`;
		const sample = JSON.parse((await request(url)).text);
		if (sample.data.length !== 100 || sample.meta.total !== VENDORS) throw new Error('unexpected page');
		await load(url, 2); // warm-up
		await admin(sb.baseUrl, 'DELETE', '/requests');
		const list = await load(url, DURATION_S);
		const searchUrl = `${sb.baseUrl}/v1/vendors?limit=100&search=vendor%20001`;
		const search = await load(searchUrl, Math.max(2, DURATION_S / 2));
		return { list, search };
	} finally {
		await sb.stop();
	}
}

/** In this process (run with --expose-gc): the figures are the whole process, ts-node included. */
async function memory() {
	const sb = await startSandbox({ port: 0, seed: 'none', rateLimit: 1e9 });
	apiKey = sb.apiKey;
	try {
		const before = (await sb.admin.getStats()).memory as Record<string, number>;
		const t = Date.now();
		await sb.admin.seedVendors(MEMORY_VENDORS);
		const seedMs = Date.now() - t;
		for (let page = 1; page <= Math.ceil(MEMORY_VENDORS / 100); page++) {
			const res = await request(`${sb.baseUrl}/v1/vendors?limit=100&page=${page}`);
			if (res.status !== 200) throw new Error(`page ${page}: ${res.status}`);
		}
		await sb.admin.clearRequests();
		const after = (await sb.admin.getStats()).memory as Record<string, number>;
		return { seedMs, before, after };
	} finally {
		await sb.close();
	}
}

async function main() {
	console.log(`node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
	const mem = await memory(); // first, in a fresh process
	const { list, search } = await throughput();
	console.log(
		`GET /v1/vendors?limit=100 (${VENDORS} vendors, ${CONCURRENCY} connections, ${DURATION_S} s): ` +
			`${Math.round(list.rps)} req/s, p50 ${list.p50.toFixed(1)} ms, p99 ${list.p99.toFixed(1)} ms, ${list.errors} errors ` +
			`(target ≥ 3000 req/s: ${list.rps >= 3000 ? 'met' : 'NOT met'})`,
	);
	console.log(
		`GET /v1/vendors?limit=100&search=… (full scan of ${VENDORS}): ${Math.round(search.rps)} req/s, p50 ${search.p50.toFixed(1)} ms`,
	);
	console.log(
		`${MEMORY_VENDORS} vendors: seeded in ${mem.seedMs} ms; RSS ${mb(mem.before.rss)} MB empty → ${mb(mem.after.rss)} MB ` +
			`after seeding and reading every page; heap used ${mb(mem.before.heapUsed)} → ${mb(mem.after.heapUsed)} MB ` +
			`(target < 300 MB: ${mem.after.rss < 300 * 1024 * 1024 ? 'met' : 'NOT met'})`,
	);
	agent.destroy();
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
