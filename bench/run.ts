/**
 * `npm run bench`: how close the node comes to the limits the service's rate limit sets.
 *
 * In-process: the real node runs through n8n-core's WorkflowExecute (test/helpers/n8n.ts) with
 * real HTTP against the sandbox, started with a short window (LIMIT requests per WINDOW_S
 * seconds) so a run takes seconds. Scenarios:
 *   1. list all of N vendors (seeded through the admin route), returnAll;
 *   2. create M vendors from M input items;
 *   3. per-item overhead with the rate limit off: the node against a plain keep-alive axios loop
 *      over the same requests;
 *   4. two executions listing at once on one key.
 * Requests, 429 answers and failures come from the sandbox's request log and the node's output.
 * Prints a table and writes bench/results/latest.json. Environment overrides: BENCH_N, BENCH_M,
 * BENCH_LIMIT, BENCH_WINDOW_S, BENCH_REPEAT, BENCH_OUT.
 */
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';

import axios from 'axios';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { BusinessFinanceApi } from '../credentials/BusinessFinanceApi.credentials';
import { BusinessFinance } from '../nodes/BusinessFinance/BusinessFinance.node';
import { resetRateLimitState } from '../nodes/BusinessFinance/transport';
import { startSandbox } from '../sandbox';
import { runNode, type RunNodeResult } from '../test/helpers/n8n';
import { floorMs, minimumRequests, windowsNeeded } from './floor';

const N = Number(process.env.BENCH_N ?? 20_000);
const M = Number(process.env.BENCH_M ?? 500);
const LIMIT = Number(process.env.BENCH_LIMIT ?? 100);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 2);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const PAGE = 100;
const UNLIMITED = 1_000_000_000;
const OUT = process.env.BENCH_OUT ?? path.join(__dirname, 'results', 'latest.json');

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
interface LoggedRequest {
	method: string;
	path: string;
	status: number;
}

const nodeType = new BusinessFinance();
const credentialType = new BusinessFinanceApi();

const listParams: INodeParameters = {
	resource: 'vendor',
	operation: 'getAll',
	returnAll: true,
	filters: {},
	options: { rateLimitWaitSeconds: 600 },
};
const createParams: INodeParameters = {
	resource: 'vendor',
	operation: 'create',
	name: '={{ $json.name }}',
	paymentMethod: 'crypto',
	additionalFields: { walletAddress: EVM, walletChain: 'ethereum' },
	options: { rateLimitWaitSeconds: 600 },
};
const createItems = (m: number): IDataObject[] => Array.from({ length: m }, (_, i) => ({ name: `Bench vendor ${i + 1}` }));

async function runTheNode(sb: Sandbox, parameters: INodeParameters, items: IDataObject[]): Promise<{ ms: number; res: RunNodeResult }> {
	const started = performance.now();
	const res = await runNode({
		nodeType,
		parameters,
		items,
		continueOnFail: true,
		credentials: { businessFinanceApi: { apiKey: sb.apiKey, baseUrl: sb.baseUrl } },
		credentialTypes: [credentialType],
	});
	return { ms: performance.now() - started, res };
}

/** Fresh rate-limit state on both sides: the sandbox's counters and the transport's memory. */
async function freshLimits(sb: Sandbox, limit: number, windowSeconds: number): Promise<void> {
	await sb.admin.setRateLimit({ limit, windowSeconds, retryAfter: false });
	resetRateLimitState();
	await sb.admin.clearRequests();
}

async function log(sb: Sandbox): Promise<LoggedRequest[]> {
	return (await sb.admin.getRequests()) as unknown as LoggedRequest[];
}

/** A plain HTTP client: axios with a keep-alive agent, nothing else. */
function plainClient(sb: Sandbox) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	return axios.create({
		baseURL: sb.baseUrl,
		httpAgent: agent,
		headers: { Authorization: `Bearer ${sb.apiKey}`, Accept: 'application/json' },
		validateStatus: () => true,
	});
}

async function plainList(sb: Sandbox): Promise<{ ms: number; ids: number; requests: number }> {
	const client = plainClient(sb);
	const started = performance.now();
	let ids = 0;
	let requests = 0;
	for (let page = 1; ; page++) {
		const r = await client.get('/v1/vendors', { params: { page, limit: PAGE } });
		requests++;
		if (r.status !== 200) throw new Error(`plain loop: GET page ${page} answered ${r.status}`);
		ids += r.data.data.length;
		if (!r.data.meta.has_more) break;
	}
	return { ms: performance.now() - started, ids, requests };
}

async function plainCreate(sb: Sandbox, m: number): Promise<{ ms: number; requests: number }> {
	const client = plainClient(sb);
	const started = performance.now();
	for (const item of createItems(m)) {
		const r = await client.post('/v1/vendors', {
			name: item.name,
			payment_method: 'crypto',
			wallet_address: EVM,
			wallet_chain: 'ethereum',
		});
		if (r.status !== 201) throw new Error(`plain loop: POST answered ${r.status}`);
	}
	return { ms: performance.now() - started, requests: m };
}

async function vendorTotal(sb: Sandbox): Promise<number> {
	const r = await plainClient(sb).get('/v1/vendors', { params: { limit: 1 } });
	return r.data.meta.total as number;
}

const median = (values: number[]): number => {
	const s = [...values].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const errorItems = (res: RunNodeResult): number =>
	(res.error ? 1 : 0) + res.items.filter((i) => typeof (i.json as IDataObject).error === 'string').length;

interface Row {
	scenario: string;
	wallMs: number;
	/** Floor with the node's own time per request (rate limit off): the cost of waiting alone. */
	floorMs: number;
	ratio: number;
	/** Floor with the plain loop's time per request: also charges the node's overhead. */
	strictFloorMs: number;
	strictRatio: number;
	requests: number;
	requestsOther429: number;
	minimumRequests: number;
	windows: number;
	rateLimited429: number;
	failedItems: number;
	outputItems: number;
	ok: boolean;
	notes?: string;
}

function summarise(
	scenario: string,
	wallMs: number,
	reqs: LoggedRequest[],
	minimum: number,
	perRequestMs: { node: number; plain: number },
	failedItems: number,
	outputItems: number,
	correct: boolean,
): Row {
	const floor = floorMs(minimum, LIMIT, WINDOW_S * 1000, perRequestMs.node);
	const strict = floorMs(minimum, LIMIT, WINDOW_S * 1000, perRequestMs.plain);
	const rateLimited429 = reqs.filter((r) => r.status === 429).length;
	const windows = windowsNeeded(minimum, LIMIT);
	const row: Row = {
		scenario,
		wallMs: Math.round(wallMs),
		floorMs: Math.round(floor),
		ratio: Math.round((wallMs / floor) * 1000) / 1000,
		strictFloorMs: Math.round(strict),
		strictRatio: Math.round((wallMs / strict) * 1000) / 1000,
		requests: reqs.length,
		requestsOther429: reqs.length - rateLimited429,
		minimumRequests: minimum,
		windows,
		rateLimited429,
		failedItems,
		outputItems,
		ok: false,
	};
	row.ok =
		correct && row.ratio <= 1.05 && row.requestsOther429 === minimum && rateLimited429 <= windows && failedItems === 0;
	return row;
}

function machine(): IDataObject {
	let commit = 'unknown';
	try {
		const git = path.join(__dirname, '..', '.git');
		const head = readFileSync(path.join(git, 'HEAD'), 'utf8').trim();
		const ref = head.startsWith('ref: ') ? head.slice(5) : undefined;
		commit = (ref && existsSync(path.join(git, ref)) ? readFileSync(path.join(git, ref), 'utf8') : head).trim().slice(0, 7);
	} catch {
		/* not a checkout */
	}
	return {
		date: new Date().toISOString(),
		commit,
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model,
		memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
		loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
	};
}

async function main(): Promise<void> {
	const startedLoad = os.loadavg()[0];
	const sb = await startSandbox({ port: 0, host: '127.0.0.1', seed: 'none', rateLimit: LIMIT, rateWindowSeconds: WINDOW_S });
	try {
		await sb.admin.seedVendors(N);
		const listRequests = minimumRequests(N, PAGE);

		// 3 first: the per-request costs with the rate limit off also give the floor's "work".
		const nodeListMs: number[] = [];
		const plainListMs: number[] = [];
		const nodeCreateMs: number[] = [];
		const plainCreateMs: number[] = [];
		let overheadChecks = true;
		for (let r = 0; r < REPEAT; r++) {
			await freshLimits(sb, UNLIMITED, WINDOW_S);
			const plain = await plainList(sb);
			overheadChecks &&= plain.ids === N && plain.requests === listRequests;
			plainListMs.push(plain.ms);
			await freshLimits(sb, UNLIMITED, WINDOW_S);
			const node = await runTheNode(sb, listParams, [{}]);
			overheadChecks &&= node.res.items.length === N && !node.res.error;
			overheadChecks &&= (await log(sb)).length === listRequests;
			nodeListMs.push(node.ms);

			await sb.admin.reset('none');
			await freshLimits(sb, UNLIMITED, WINDOW_S);
			plainCreateMs.push((await plainCreate(sb, M)).ms);
			await sb.admin.reset('none');
			await freshLimits(sb, UNLIMITED, WINDOW_S);
			const created = await runTheNode(sb, createParams, createItems(M));
			overheadChecks &&= errorItems(created.res) === 0 && created.res.items.length === M;
			overheadChecks &&= (await log(sb)).length === M;
			nodeCreateMs.push(created.ms);
			await sb.admin.reset('none');
			await sb.admin.seedVendors(N);
		}
		const getMs = { node: median(nodeListMs) / listRequests, plain: median(plainListMs) / listRequests };
		const postMs = { node: median(nodeCreateMs) / M, plain: median(plainCreateMs) / M };
		const overhead = {
			listThroughputRatio: Math.round((median(plainListMs) / median(nodeListMs)) * 1000) / 1000,
			createThroughputRatio: Math.round((median(plainCreateMs) / median(nodeCreateMs)) * 1000) / 1000,
			nodeListMs: nodeListMs.map(Math.round),
			plainListMs: plainListMs.map(Math.round),
			nodeCreateMs: nodeCreateMs.map(Math.round),
			plainCreateMs: plainCreateMs.map(Math.round),
			plainGetMsPerRequest: Math.round(getMs.plain * 100) / 100,
			plainPostMsPerRequest: Math.round(postMs.plain * 100) / 100,
			nodeGetMsPerRequest: Math.round((median(nodeListMs) / listRequests) * 100) / 100,
			nodePostMsPerRequest: Math.round((median(nodeCreateMs) / M) * 100) / 100,
			correct: overheadChecks,
			ok: false,
		};
		overhead.ok = overheadChecks && overhead.listThroughputRatio >= 0.8 && overhead.createThroughputRatio >= 0.8;

		const rows: Row[] = [];
		// 1. list all N under the limit.
		await freshLimits(sb, LIMIT, WINDOW_S);
		{
			const { ms, res } = await runTheNode(sb, listParams, [{}]);
			const ids = new Set(res.items.map((i) => (i.json as IDataObject).id));
			const reqs = await log(sb);
			rows.push(
				summarise(`list ${N} vendors`, ms, reqs, listRequests, getMs, errorItems(res), res.items.length,
					ids.size === N && res.items.length === N),
			);
		}
		// 2. create M from M items.
		await sb.admin.reset('none');
		await freshLimits(sb, LIMIT, WINDOW_S);
		{
			const { ms, res } = await runTheNode(sb, createParams, createItems(M));
			const reqs = await log(sb);
			await freshLimits(sb, UNLIMITED, WINDOW_S);
			const total = await vendorTotal(sb);
			const paired = res.items.every((it, i) => (it.pairedItem as { item: number }).item === i);
			const row = summarise(`create ${M} vendors`, ms, reqs, M, postMs, errorItems(res), res.items.length,
				total === M && res.items.length === M && paired);
			row.notes = `vendors on the service afterwards: ${total}`;
			rows.push(row);
		}
		// 4. two executions listing at once on one key.
		await sb.admin.reset('none');
		await sb.admin.seedVendors(N);
		await freshLimits(sb, LIMIT, WINDOW_S);
		{
			const started = performance.now();
			const [a, b] = await Promise.all([runTheNode(sb, listParams, [{}]), runTheNode(sb, listParams, [{}])]);
			const ms = performance.now() - started;
			const reqs = await log(sb);
			const complete = [a, b].every((x) => x.res.items.length === N && new Set(x.res.items.map((i) => (i.json as IDataObject).id)).size === N);
			const row = summarise(`2 × list ${N} at once`, ms, reqs, 2 * listRequests, getMs,
				errorItems(a.res) + errorItems(b.res), a.res.items.length + b.res.items.length, complete);
			row.notes = `each finished after ${Math.round(a.ms)} ms and ${Math.round(b.ms)} ms`;
			rows.push(row);
		}

		printTable(rows, overhead);
		const result = {
			machine: { ...machine(), loadAverage1mAtStart: Math.round(startedLoad * 100) / 100 },
			settings: { N, M, limit: LIMIT, windowSeconds: WINDOW_S, pageSize: PAGE, repeat: REPEAT },
			floorFormula:
				'floor = (ceil(R / limit) - 1) * window + (R - (ceil(R / limit) - 1) * limit) * t when limit * t <= window (else the simulation in bench/floor.ts), R = the minimum number of requests; t = the node\'s own time per request with the rate limit off (floorMs) or the plain loop\'s (strictFloorMs)',
			targets: { ratioToFloor: '<= 1.05', requests: '= minimum (429 answers counted apart)', rateLimited429: '<= 1 per window', failedItems: 0, overheadRatio: '>= 0.8' },
			scenarios: rows,
			overhead,
			allTargetsMet: rows.every((r) => r.ok) && overhead.ok,
		};
		mkdirSync(path.dirname(OUT), { recursive: true });
		writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
		console.log(`\nwritten ${path.relative(process.cwd(), OUT)}; all targets met: ${result.allTargetsMet}`);
	} finally {
		await sb.close();
	}
}

function printTable(rows: Row[], overhead: IDataObject): void {
	const head = ['scenario', 'wall ms', 'floor ms', 'ratio', 'strict floor', 'strict ratio', 'requests (non-429)', 'minimum', 'windows', '429s', 'failed', 'met'];
	const body = rows.map((r) => [
		r.scenario,
		String(r.wallMs),
		String(r.floorMs),
		r.ratio.toFixed(3),
		String(r.strictFloorMs),
		r.strictRatio.toFixed(3),
		String(r.requestsOther429),
		String(r.minimumRequests),
		String(r.windows),
		String(r.rateLimited429),
		String(r.failedItems),
		r.ok ? 'yes' : 'NO',
	]);
	const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
	console.log(`\nRate limit ${LIMIT} requests per ${WINDOW_S} s; N = ${N}, M = ${M}\n`);
	console.log(line(head));
	console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
	for (const b of body) console.log(line(b));
	for (const r of rows) if (r.notes) console.log(`  ${r.scenario}: ${r.notes}`);
	console.log(
		`\nOverhead, rate limit off (median of ${REPEAT}): list ${overhead.listThroughputRatio} (node ${overhead.nodeGetMsPerRequest} ms/request, plain ${overhead.plainGetMsPerRequest}), ` +
			`create ${overhead.createThroughputRatio} (node ${overhead.nodePostMsPerRequest} ms/request, plain ${overhead.plainPostMsPerRequest}); target >= 0.8: ${overhead.ok ? 'met' : 'NOT met'}`,
	);
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
