/**
 * Scenario 3, per-item overhead with the rate limit off: the node against a plain keep-alive
 * axios loop over the same requests, and a bare n8n node between them to tell n8n's own cost from
 * the package's. Its per-request times are also the "work" in the other scenarios' floors.
 */
import type { RunningSandbox } from '../sandbox';
import {
	baselineCreateParams,
	baselineListParams,
	baselineType,
	createItems,
	createParams,
	errorItems,
	listParams,
	plainCreate,
	plainList,
	requestLog,
	runTheNode,
} from './clients';
import { listRequests, UNLIMITED, type Settings } from './settings';

const SAMPLE_NAMES = [
	'plainList',
	'plainListNoKeepAlive',
	'baseList',
	'nodeList',
	'plainCreate',
	'plainCreateNoKeepAlive',
	'baseCreate',
	'nodeCreate',
] as const;
type Samples = Record<(typeof SAMPLE_NAMES)[number], number[]>;

/** One client's timed run: its time, and whether its requests and output were right. */
interface Client {
	sample: keyof Samples;
	run: () => Promise<{ ms: number; correct: boolean }>;
}

/** Milliseconds per request, of the node and of the plain loop. */
export interface PerRequestMs {
	node: number;
	plain: number;
}

export interface OverheadResult {
	overhead: ReturnType<typeof summarise>;
	getMs: PerRequestMs;
	postMs: PerRequestMs;
}

/**
 * Each round runs the plain loop, the bare n8n node and the Business Finance node in turn; the
 * best of REPEAT rounds is kept (the least disturbed by other load on the machine). Round 0 warms
 * up (JIT, sockets) and is not counted. Each round runs the four clients in a rotated order, so
 * none always comes right after the heavy seeding or the others' garbage. Expects the N vendors
 * seeded; leaves them seeded.
 */
export async function measureOverhead(sb: RunningSandbox, s: Settings): Promise<OverheadResult> {
	const samples = Object.fromEntries(SAMPLE_NAMES.map((name) => [name, []])) as unknown as Samples;
	let correct = true;
	for (let round = -1; round < s.repeat; round++) {
		if (round === 0) for (const list of Object.values(samples)) list.length = 0;
		const shift = Math.max(0, round);
		for (const client of rotate(listClients(sb, s), shift)) {
			await freshLimits(sb);
			correct = (await timeInto(samples, client)) && correct;
		}
		await sb.admin.reset('none');
		for (const client of rotate(createClients(sb, s), shift)) {
			await freshLimits(sb);
			correct = (await timeInto(samples, client)) && correct;
			await sb.admin.reset('none');
		}
		await sb.admin.seedVendors(s.n);
	}
	const requests = listRequests(s);
	return {
		overhead: summarise(samples, s, correct),
		getMs: perRequest(samples.nodeList, samples.plainList, requests),
		postMs: perRequest(samples.nodeCreate, samples.plainCreate, s.m),
	};
}

function listClients(sb: RunningSandbox, s: Settings): Client[] {
	const requests = listRequests(s);
	return [
		{
			sample: 'plainList',
			run: async () => {
				const plain = await plainList(sb, true);
				return { ms: plain.ms, correct: plain.ids === s.n && plain.requests === requests };
			},
		},
		{
			sample: 'plainListNoKeepAlive',
			run: async () => {
				const plain = await plainList(sb, false);
				return { ms: plain.ms, correct: plain.ids === s.n };
			},
		},
		{
			sample: 'baseList',
			run: async () => {
				const { ms, res } = await runTheNode(sb, baselineListParams, [{}], baselineType);
				return { ms, correct: res.items.length === s.n && !res.error };
			},
		},
		{
			sample: 'nodeList',
			run: async () => {
				const { ms, res } = await runTheNode(sb, listParams, [{}]);
				const logged = await requestLog(sb);
				return {
					ms,
					correct: res.items.length === s.n && !res.error && logged.length === requests,
				};
			},
		},
	];
}

function createClients(sb: RunningSandbox, s: Settings): Client[] {
	return [
		{
			sample: 'plainCreate',
			run: async () => ({ ...(await plainCreate(sb, s.m, true)), correct: true }),
		},
		{
			sample: 'plainCreateNoKeepAlive',
			run: async () => ({ ...(await plainCreate(sb, s.m, false)), correct: true }),
		},
		{
			sample: 'baseCreate',
			run: async () => {
				const { ms, res } = await runTheNode(
					sb,
					baselineCreateParams,
					createItems(s.m),
					baselineType,
				);
				return { ms, correct: !res.error && res.items.length === s.m };
			},
		},
		{
			sample: 'nodeCreate',
			run: async () => {
				const { ms, res } = await runTheNode(sb, createParams, createItems(s.m));
				const logged = await requestLog(sb);
				const complete = errorItems(res) === 0 && res.items.length === s.m;
				return { ms, correct: complete && logged.length === s.m };
			},
		},
	];
}

function rotate<T>(list: T[], shift: number): T[] {
	return list.map((_, k) => list[(k + shift) % list.length]);
}

async function timeInto(samples: Samples, client: Client): Promise<boolean> {
	const { ms, correct } = await client.run();
	samples[client.sample].push(ms);
	return correct;
}

/**
 * Fresh rate-limit counters on the sandbox, in 1 s windows: what the transport knows of a window
 * ends with it, so the rate-limited runs after these rounds start on a key it knows nothing of
 * (with 60 s windows it would still count on this window's remaining requests there).
 */
async function freshLimits(sb: RunningSandbox): Promise<void> {
	await sb.admin.setRateLimit({ limit: UNLIMITED, windowSeconds: 1, retryAfter: false });
	await sb.admin.clearRequests();
}

const best = (values: number[]) => Math.min(...values);
const ratio = (a: number[], b: number[]) => Math.round((best(a) / best(b)) * 1000) / 1000;
const msEach = (values: number[], n: number) => Math.round((best(values) / n) * 100) / 100;

/**
 * The per-request times the floors charge: the median of the unthrottled rounds, since the
 * rate-limited scenarios are reported by their median run too (the best round would compare a
 * typical run with the least disturbed moment of the machine).
 */
function perRequest(node: number[], plain: number[], requests: number): PerRequestMs {
	return { node: median(node) / requests, plain: median(plain) / requests };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function summarise(samples: Samples, s: Settings, correct: boolean) {
	const requests = listRequests(s);
	const overhead = {
		statistic: `best of ${s.repeat} rounds after a warm-up round`,
		listThroughputRatio: ratio(samples.plainList, samples.nodeList),
		createThroughputRatio: ratio(samples.plainCreate, samples.nodeCreate),
		// The breakdown: n8n's own request path (bare node vs plain loop) and the package's code
		// (Business Finance node vs bare node).
		n8nListRatio: ratio(samples.plainList, samples.baseList),
		n8nCreateRatio: ratio(samples.plainCreate, samples.baseCreate),
		packageListRatio: ratio(samples.baseList, samples.nodeList),
		packageCreateRatio: ratio(samples.baseCreate, samples.nodeCreate),
		msPerRequest: {
			plainGet: msEach(samples.plainList, requests),
			bareNodeGet: msEach(samples.baseList, requests),
			nodeGet: msEach(samples.nodeList, requests),
			plainGetNewConnectionEach: msEach(samples.plainListNoKeepAlive, requests),
			plainPost: msEach(samples.plainCreate, s.m),
			plainPostNewConnectionEach: msEach(samples.plainCreateNoKeepAlive, s.m),
			bareNodePost: msEach(samples.baseCreate, s.m),
			nodePost: msEach(samples.nodeCreate, s.m),
		},
		samplesMs: Object.fromEntries(
			Object.entries(samples).map(([name, values]) => [name, values.map(Math.round)]),
		),
		correct,
		ok: false,
	};
	overhead.ok =
		correct && overhead.listThroughputRatio >= 0.8 && overhead.createThroughputRatio >= 0.8;
	return overhead;
}
