// Scenario 3 (docs/benchmarks.md, "Overhead"); its per-request times are also the other floors' t.
import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';
import {
	baselineCreateParams,
	baselineListParams,
	baselineType,
	createItems,
	createParams,
	errorItems,
	listParams,
	nodeType,
	plainCreate,
	plainList,
	runTheNode,
} from './clients';
import { minimumRequests } from './floor';
import { percentile, type PerRequestMs } from './report';
import type { SandboxProcess } from './sandbox-process';
import { UNLIMITED, type Settings } from './settings';

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
		plainList: async () => {
			const listed = await plainList(sb);
			return { ms: listed.ms, correct: listed.ids === s.n && listed.requests === requests };
		},
		baseList: () => node(baselineType, baselineListParams, [{}], s.n),
		nodeList: () => node(nodeType, listParams, [{}], s.n, requests),
		plainCreate: async () => ({ ms: await plainCreate(sb, s.m), correct: true }),
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
const ratio = (a: number[], b: number[]) => Math.round((best(a) / best(b)) * 1000) / 1000;
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
