// The clients of the limits scenario (the node, a bare n8n node, a plain loop) and its overhead
// rounds (docs/benchmarks.md, "Overhead"), whose per-request times are also the other floors' t.
import * as http from 'http';
import axios from 'axios';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { BusinessFinance } from '../nodes/BusinessFinance/BusinessFinance.node';
import { API_MAX_PAGE_SIZE } from '../nodes/BusinessFinance/helpers/constants';
import { runNode, type RunNodeResult } from '../test/helpers/n8n';
import { percentile, round3, UNLIMITED, type SandboxProcess } from './common';
import type { Settings } from './limits';

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';

/** The body of `POST /v1/vendors`, as the node sends it for createParams. */
const cryptoVendor = (name: string, wallet: string) => ({
	name,
	payment_method: 'crypto',
	wallet_address: wallet,
	wallet_chain: 'ethereum',
});

/** Pages of a listing: at least one request, even for 0 items. */
export function minimumRequests(items: number): number {
	return Math.max(1, Math.ceil(items / API_MAX_PAGE_SIZE));
}

export interface PerRequestMs {
	node: number;
	plain: number;
}

/**
 * Tells n8n's own cost per request from the package's: no validation, rate-limit tracking,
 * retries or error mapping.
 */
class BenchBaseline implements INodeType {
	description = {
		displayName: 'Bench Baseline',
		name: 'benchBaseline',
		group: ['transform'],
		version: 1,
		description: 'Bare requests through httpRequestWithAuthentication',
		defaults: { name: 'Bench Baseline' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'businessFinanceApi', required: true }],
		properties: [
			{ displayName: 'Mode', name: 'mode', type: 'string', default: 'list' },
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{ displayName: 'Wallet Address', name: 'walletAddress', type: 'string', default: '' },
		],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials('businessFinanceApi');
		const url = `${String(credentials.baseUrl).replace(/\/+$/, '')}/v1/vendors`;
		const request = async (options: Omit<IHttpRequestOptions, 'url'>) =>
			await this.helpers.httpRequestWithAuthentication.call(this, 'businessFinanceApi', {
				...options,
				url,
				json: true,
			});
		const out: INodeExecutionData[] = [];
		if (this.getNodeParameter('mode', 0) === 'list') {
			for (let page = 1; ; page++) {
				const body = await request({ method: 'GET', qs: { page, limit: 100 } });
				for (const json of body.data as IDataObject[]) out.push({ json, pairedItem: { item: 0 } });
				if (!body.meta.has_more) break;
			}
			return [out];
		}
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const name = this.getNodeParameter('name', i) as string;
			const wallet = this.getNodeParameter('walletAddress', i) as string;
			const body = await request({ method: 'POST', body: cryptoVendor(name, wallet) });
			out.push({ json: body.data as IDataObject, pairedItem: { item: i } });
		}
		return [out];
	}
}

const nodeType = new BusinessFinance();
const baselineType = new BenchBaseline();

export const listParams: INodeParameters = {
	resource: 'vendor',
	operation: 'getAll',
	returnAll: true,
	filters: {},
	options: { rateLimitWaitSeconds: 600 },
};
export const createParams: INodeParameters = {
	resource: 'vendor',
	operation: 'create',
	name: '={{ $json.name }}',
	paymentMethod: 'crypto',
	additionalFields: { walletAddress: EVM, walletChain: 'ethereum' },
	options: { rateLimitWaitSeconds: 600 },
};
const baselineListParams: INodeParameters = { mode: 'list' };
const baselineCreateParams: INodeParameters = {
	mode: 'create',
	name: '={{ $json.name }}',
	walletAddress: EVM,
};

export const createItems = (m: number): IDataObject[] =>
	Array.from({ length: m }, (_, i) => ({ name: `Bench vendor ${i + 1}` }));

/** In the bench's process, through n8n-core's WorkflowExecute (test/helpers/n8n.ts). */
export async function runTheNode(
	sb: SandboxProcess,
	parameters: INodeParameters,
	items: IDataObject[],
	type: INodeType = nodeType,
): Promise<{ ms: number; res: RunNodeResult }> {
	const started = performance.now();
	const res = await runNode({
		nodeType: type,
		parameters,
		items,
		continueOnFail: true,
		credentials: { businessFinanceApi: { apiKey: sb.apiKey, baseUrl: sb.baseUrl } },
	});
	return { ms: performance.now() - started, res };
}

export const errorItems = (res: RunNodeResult): number =>
	(res.error ? 1 : 0) +
	res.items.filter((i) => typeof (i.json as IDataObject).error === 'string').length;

export const distinctIds = (res: RunNodeResult): number =>
	new Set(res.items.map((i) => (i.json as IDataObject).id)).size;

function plainClient(sb: SandboxProcess) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	return axios.create({
		baseURL: sb.baseUrl,
		httpAgent: agent,
		headers: { Authorization: `Bearer ${sb.apiKey}`, Accept: 'application/json' },
		validateStatus: () => true,
	});
}

async function plainList(sb: SandboxProcess, s: Settings) {
	const client = plainClient(sb);
	const started = performance.now();
	let ids = 0;
	let requests = 0;
	for (let page = 1; ; page++) {
		const r = await client.get('/v1/vendors', { params: { page, limit: API_MAX_PAGE_SIZE } });
		requests++;
		if (r.status !== 200) throw new Error(`plain loop: GET page ${page} answered ${r.status}`);
		ids += r.data.data.length;
		if (!r.data.meta.has_more) break;
	}
	const ms = performance.now() - started;
	return { ms, correct: ids === s.n && requests === minimumRequests(s.n) };
}

async function plainCreate(sb: SandboxProcess, m: number) {
	const client = plainClient(sb);
	const started = performance.now();
	for (const item of createItems(m)) {
		const r = await client.post('/v1/vendors', cryptoVendor(item.name as string, EVM));
		if (r.status !== 201) throw new Error(`plain loop: POST answered ${r.status}`);
	}
	return { ms: performance.now() - started, correct: true };
}

const LIST_SAMPLES = ['plainList', 'baseList', 'nodeList'] as const;
const CREATE_SAMPLES = ['plainCreate', 'baseCreate', 'nodeCreate'] as const;
type SampleName = (typeof LIST_SAMPLES)[number] | (typeof CREATE_SAMPLES)[number];
type Samples = Record<SampleName, number[]>;

/**
 * Best of the rounds: the least disturbed by other load. Rotated order, so no client always comes
 * right after the seeding or the others' garbage. Expects the N vendors seeded; leaves them seeded.
 */
export async function measureOverhead(sb: SandboxProcess, s: Settings) {
	const run = clients(sb, s);
	const samples = Object.fromEntries(
		[...LIST_SAMPLES, ...CREATE_SAMPLES].map((name) => [name, [] as number[]]),
	) as Samples;
	let correct = true;
	const time = async (name: SampleName) => {
		await freshLimits(sb);
		const timed = await run[name]();
		samples[name].push(timed.ms);
		correct &&= timed.correct;
	};
	for (let round = -1; round < s.repeat; round++) {
		if (round === 0) for (const list of Object.values(samples)) list.length = 0;
		const shift = Math.max(0, round);
		for (const name of rotate(LIST_SAMPLES, shift)) await time(name);
		await sb.admin.reset('none');
		for (const name of rotate(CREATE_SAMPLES, shift)) {
			await time(name);
			await sb.admin.reset('none');
		}
		await sb.admin.seedVendors(s.n);
	}
	const requests = minimumRequests(s.n);
	return {
		overhead: summarise(samples, s, correct),
		getMs: perRequest(samples.nodeList, samples.plainList, requests),
		postMs: perRequest(samples.nodeCreate, samples.plainCreate, s.m),
	};
}

type Client = () => Promise<{ ms: number; correct: boolean }>;

function clients(sb: SandboxProcess, s: Settings): Record<SampleName, Client> {
	const requests = minimumRequests(s.n);
	const node = async (
		type: INodeType,
		parameters: INodeParameters,
		items: IDataObject[],
		expected: number,
		logged?: number,
	) => {
		const { ms, res } = await runTheNode(sb, parameters, items, type);
		const complete = errorItems(res) === 0 && res.items.length === expected;
		const requestsRight = logged === undefined || (await sb.admin.getRequests()).length === logged;
		return { ms, correct: complete && requestsRight };
	};
	return {
		plainList: () => plainList(sb, s),
		baseList: () => node(baselineType, baselineListParams, [{}], s.n),
		nodeList: () => node(nodeType, listParams, [{}], s.n, requests),
		plainCreate: () => plainCreate(sb, s.m),
		baseCreate: () => node(baselineType, baselineCreateParams, createItems(s.m), s.m),
		nodeCreate: () => node(nodeType, createParams, createItems(s.m), s.m, s.m),
	};
}

function rotate<T>(list: readonly T[], shift: number): T[] {
	return list.map((_, k) => list[(k + shift) % list.length]);
}

/**
 * 1 s windows: what the transport knows of a window ends with it, so the rate-limited runs after
 * these rounds start on a key it knows nothing of.
 */
async function freshLimits(sb: SandboxProcess): Promise<void> {
	await sb.admin.setRateLimit({ limit: UNLIMITED, windowSeconds: 1, retryAfter: false });
	await sb.admin.clearRequests();
}

const best = (values: number[]) => Math.min(...values);
const ratio = (a: number[], b: number[]) => round3(best(a) / best(b));
const msEach = (values: number[], n: number) => Math.round((best(values) / n) * 100) / 100;

/**
 * The median (the lower one of an even count, as coldAndMedianWarm picks the warm run), since the
 * rate-limited scenarios are reported by their median run too (the best round would compare a
 * typical run with the least disturbed moment of the machine).
 */
function perRequest(node: number[], plain: number[], requests: number): PerRequestMs {
	return { node: percentile(node, 50) / requests, plain: percentile(plain, 50) / requests };
}

function summarise(samples: Samples, s: Settings, correct: boolean) {
	const requests = minimumRequests(s.n);
	const list = ratio(samples.plainList, samples.nodeList);
	const create = ratio(samples.plainCreate, samples.nodeCreate);
	return {
		statistic: `best of ${s.repeat} rounds after a warm-up round`,
		listThroughputRatio: list,
		createThroughputRatio: create,
		n8nListRatio: ratio(samples.plainList, samples.baseList),
		n8nCreateRatio: ratio(samples.plainCreate, samples.baseCreate),
		packageListRatio: ratio(samples.baseList, samples.nodeList),
		packageCreateRatio: ratio(samples.baseCreate, samples.nodeCreate),
		msPerRequest: {
			plainGet: msEach(samples.plainList, requests),
			bareNodeGet: msEach(samples.baseList, requests),
			nodeGet: msEach(samples.nodeList, requests),
			plainPost: msEach(samples.plainCreate, s.m),
			bareNodePost: msEach(samples.baseCreate, s.m),
			nodePost: msEach(samples.nodeCreate, s.m),
		},
		samplesMs: Object.fromEntries(
			Object.entries(samples).map(([name, values]) => [name, values.map(Math.round)]),
		),
		correct,
		ok: correct && list >= 0.8 && create >= 0.8,
	};
}

export function printOverhead(overhead: ReturnType<typeof summarise>): void {
	const ms = overhead.msPerRequest;
	console.log(
		`\nOverhead, rate limit off (${overhead.statistic}): throughput of the node / plain keep-alive loop: ` +
			`list ${overhead.listThroughputRatio}, create ${overhead.createThroughputRatio}; target >= 0.8: ${overhead.ok ? 'met' : 'NOT met'}`,
	);
	console.log(
		`  ms per request: GET page plain ${ms.plainGet}, bare n8n node ${ms.bareNodeGet}, Business Finance node ${ms.nodeGet}; ` +
			`POST plain ${ms.plainPost}, bare n8n node ${ms.bareNodePost}, Business Finance node ${ms.nodePost}`,
	);
	console.log(
		`  n8n's request path (bare node / plain): list ${overhead.n8nListRatio}, create ${overhead.n8nCreateRatio}; ` +
			`the package's code (node / bare node): list ${overhead.packageListRatio}, create ${overhead.packageCreateRatio}`,
	);
}
