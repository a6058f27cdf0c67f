// `npm run bench:trigger` (docs/benchmarks.md, "Trigger burst"). Every run reports `{ source, id }`
// to the bench's collector, so a round ends when every event has run and a second run of an event
// shows. What claim-overlap.ts uses too comes first: the collector, the sandbox, n8n, endpoints,
// the report step and step times.
import * as fs from 'fs';
import * as path from 'path';
import { setTimeout as sleep } from 'timers/promises';
import type { N8nServer, WorkflowJson } from '../scripts/n8n';
import { pollUntil } from '../scripts/poll';
import { redisCommand } from '../scripts/queue/redis';
import { startN8nWithPackage } from '../test/e2e/environment';
import { CLAIM, chain, exampleClaimNodes, node, trigger } from '../test/e2e/workflows';
import { processesOf } from '../test/e2e-queue/listening';
import { send, signedDeliveries, type Answer } from '../test/helpers/deliveries';
import { answer, bodyOf, scriptedServer } from '../test/helpers/scripted-server';
import {
	percentile,
	printMarkdownTable,
	round3,
	schedDuring,
	startSandboxProcess,
	type Outcome,
	type SandboxProcess,
	type SchedDelta,
} from './common';

export type Collector = Awaited<ReturnType<typeof startCollector>>;

async function startCollector() {
	const runs = new Map<string, number[]>(); // Date.now() of each run of `source:id`, in order
	const server = await scriptedServer(async (req, res) => {
		try {
			const { source, id } = JSON.parse((await bodyOf(req)).toString('utf8'));
			runs.set(`${source}:${id}`, [...(runs.get(`${source}:${id}`) ?? []), Date.now()]);
		} catch {
			// not a run report: counted nowhere
		}
		answer(res, 200, {});
	});
	return { url: `${server.baseUrl}/runs`, runs, close: server.close };
}

/** The sandbox (its rate limit off) and the collector, while `work` runs. */
export async function withSandboxAndCollector<T>(
	work: (sb: SandboxProcess, collector: Collector) => Promise<T>,
): Promise<T> {
	const sb = await startSandboxProcess(['--rate-limit', '1000000']);
	const collector = await startCollector();
	try {
		return await work(sb, collector);
	} finally {
		await collector.close();
		await sb.close();
	}
}

/** Logging at warn, as the figures were measured (startN8nWithPackage's default is info). */
export const startN8nFor = (
	sb: SandboxProcess,
	workflows: WorkflowJson[],
	redis: boolean,
	env: Record<string, string> = {},
) =>
	startN8nWithPackage({
		credentials: [{ apiKey: sb.apiKey, baseUrl: sb.baseUrl }],
		workflows,
		redis,
		extraEnv: { N8N_LOG_LEVEL: 'warn', ...env },
	});

/** One per trigger: the trigger adopts it on activation. */
export async function createEndpoint(sb: SandboxProcess): Promise<{ id: string; secret: string }> {
	const created = await sb.api.request('POST', '/webhooks', {
		body: { url: 'http://127.0.0.1:9/before-the-bench', filter_types: [], disabled: false },
	});
	if (created.status !== 201) throw new Error(`creating an endpoint: ${created.text}`);
	const { id } = created.body.data;
	return { id, secret: (await sb.api.request('GET', `/webhooks/${id}/secret`)).body.data.secret };
}

export const triggerUrl = (n8nUrl: string, webhookId: string) =>
	`${n8nUrl}/webhook/${webhookId}/webhook`;

export async function untilEndpointPointsAt(sb: SandboxProcess, endpointId: string, url: string) {
	await pollUntil(
		'the endpoint to point at n8n',
		async () => (await sb.api.request('GET', `/webhooks/${endpointId}`)).body?.data?.url === url,
		60_000,
	);
}

/** n8n's Remove Duplicates on the event's id (example 03's recipe before the claim). */
export function removeDuplicatesNode(name: string) {
	const parameters = {
		operation: 'removeItemsSeenInPreviousExecutions',
		dedupeValue: '={{ $json.id }}',
		options: {},
	};
	return node(name, 'n8n-nodes-base.removeDuplicates', parameters, { typeVersion: 2 });
}

/** Reports `{ source, id }` to the bench's collector. */
export function reportRun(collectorUrl: string, source: string, id: string) {
	const parameters = {
		method: 'POST',
		url: collectorUrl,
		sendBody: true,
		bodyParameters: {
			parameters: [
				{ name: 'source', value: source },
				{ name: 'id', value: id },
			],
		},
		options: {},
	};
	return node('Report the run', 'n8n-nodes-base.httpRequest', parameters, { typeVersion: 4.2 });
}

/** n8n's own record of `nodeName`'s time (`executionTime`) in the workflow's newest 100 runs. */
export async function stepMs(n8n: N8nServer, workflowId: string, nodeName: string) {
	const runs = await n8n.executions(workflowId, true, 100);
	const times: number[] = runs
		.map((run) => run.data?.resultData?.runData?.[nodeName]?.[0]?.executionTime)
		.filter((ms): ms is number => typeof ms === 'number')
		.sort((a, b) => a - b);
	const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
	return { p50: at(0.5), p90: at(0.9), runs: times.length };
}

interface Configuration {
	name: string;
	meaning: string;
	env: Record<string, string>;
	target: number | 'reported';
	/** A step right after the trigger: example 03's claim, or Remove Duplicates (its earlier recipe). */
	recipe?: 'claim' | 'removeDuplicates';
	/** Claims already in Redis before the burst (a long history). */
	recorded?: number;
	/** Deliveries per side, instead of BENCH_BURST_N. */
	perSide?: number;
}

const DEDUPE_NODE = 'Skip events already handled';
/** The step whose time is reported, per recipe. */
const STEP_OF = { removeDuplicates: DEDUPE_NODE, claim: CLAIM.count };

/** n8n's defaults with a step after the trigger, 300 deliveries per side, reported. */
function withStep(
	name: string,
	meaning: string,
	recipe: Configuration['recipe'],
	recorded?: number,
): Configuration {
	const history = recorded ? { recorded } : {};
	return { name, meaning, env: {}, target: 'reported', recipe, ...history, perSide: 300 };
}

const CONFIGURATIONS: Configuration[] = [
	{ name: 'defaults', meaning: "n8n's defaults", env: {}, target: 1.5 },
	{
		name: 'fair',
		meaning: 'the Webhook node acquires an isolate too',
		env: { N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP: 'false' },
		target: 1.1,
	},
	{
		name: 'recommended',
		meaning: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
		env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
		target: 1.05,
	},
	withStep(
		'recipe',
		"defaults, with Remove Duplicates after the trigger (example 03's earlier recipe)",
		'removeDuplicates',
	),
	withStep(
		'claim',
		"defaults, with example 03's claim (Redis Increment, then a Filter) after the trigger",
		'claim',
	),
	withStep('claim10k', 'as claim, with 10,000 events already claimed in Redis', 'claim', 10_000),
];

type Side = 'trigger' | 'webhook';
type SideResult = ReturnType<typeof summarise> & { secretFetches?: number };

interface Setup {
	sb: SandboxProcess;
	collector: Collector;
	/** One per n8n: the trigger adopts it. */
	endpoint: { id: string; secret: string };
	configuration: Configuration;
}

type ConfigurationResult = Record<Side, SideResult> & {
	configuration: Configuration;
	timeRatio: number;
	/** n8n's own record of the recipe's (first) node's time, over the last 100 runs. */
	dedupeStepMs?: Awaited<ReturnType<typeof stepMs>>;
};

type BurstSettings = ReturnType<typeof readBurstSettings>;

function readBurstSettings() {
	const names = process.env.BENCH_BURST_CONFIGS;
	return {
		perSide: Number(process.env.BENCH_BURST_N ?? 1000),
		round: Number(process.env.BENCH_BURST_ROUND ?? 250),
		concurrency: Number(process.env.BENCH_BURST_CONCURRENCY ?? 20),
		configs: names ? names.split(',').map((n) => n.trim()) : CONFIGURATIONS.map((c) => c.name),
	};
}

export async function runTriggerBurst(): Promise<Outcome> {
	const s = readBurstSettings();
	const results = await withSandboxAndCollector(async (sb, collector) => {
		const measured: ConfigurationResult[] = [];
		for (const configuration of CONFIGURATIONS.filter((c) => s.configs.includes(c.name))) {
			const setup = { sb, collector, endpoint: await createEndpoint(sb), configuration };
			const tag = `${configuration.name}_${Date.now().toString(36)}`;
			const perSide = configuration.perSide ?? s.perSide;
			const sides = await inSingleN8n(setup, { ...s, perSide, tag });
			const timeRatio = round3(sides.trigger.totalMs / sides.webhook.totalMs);
			measured.push({ configuration, ...sides, timeRatio });
		}
		return measured;
	});
	report(results, s);
	const record = { settings: s, results: [...results, ...unmeasured(results)] };
	return { file: 'trigger-burst.json', record };
}

/** A run of some configurations keeps the others' rows (queue mode's: commit 7f26f44). */
function unmeasured(measured: ConfigurationResult[]): object[] {
	const file = path.join(__dirname, 'results', 'trigger-burst.json');
	if (!fs.existsSync(file)) return [];
	const before = JSON.parse(fs.readFileSync(file, 'utf8'));
	const ran = (r: ConfigurationResult) =>
		measured.some((m) => m.configuration.name === r.configuration.name);
	return before.results
		.filter((r: ConfigurationResult) => !ran(r))
		.map((r: object) => ({ measuredOn: before.machine.date, ...r }));
}

function sideCells(r: ConfigurationResult, side: SideResult): string[] {
	const { min, max } = side.runsPerEvent;
	const trigger = side === r.trigger;
	return [
		r.configuration.name,
		side.side,
		(side.totalMs / 1000).toFixed(1),
		`${side.p50Ms} / ${side.p90Ms}`,
		String(side.cpuMsPerDelivery),
		(side.runQueueMs / 1000).toFixed(1),
		min === max ? String(min) : `${min}-${max}`,
		...(trigger ? [side.secretFetches, r.timeRatio, r.configuration.target] : ['', '', '']).map(
			String,
		),
	];
}

function report(results: ConfigurationResult[], s: BurstSettings): void {
	console.log(
		`\ntrigger burst: ${s.perSide} signed deliveries per side (unless a configuration sets its own) at concurrency ${s.concurrency}, rounds of ${s.round} alternating`,
	);
	const head = ['configuration', 'side', 'total s', 'answer p50 / p90 ms', 'CPU ms / delivery'];
	head.push('run-queue s', 'runs per event', 'secret fetches', 'time ratio', 'target');
	const rows = results.flatMap((r) => [sideCells(r, r.trigger), sideCells(r, r.webhook)]);
	printMarkdownTable(head, rows);
	for (const { configuration, dedupeStepMs: step } of results) {
		if (step && configuration.recipe) {
			const { p50, p90, runs } = step;
			const of = `${configuration.perSide ?? s.perSide} deliveries per side`;
			console.log(
				`${configuration.name} (${of}): ${STEP_OF[configuration.recipe]} took ${p50} / ${p90} ms (p50 / p90, ${runs} runs)`,
			);
		}
	}
}

const TRIGGER_WORKFLOW_ID = 'bfBenchBurstTrig';
const WEBHOOK_WORKFLOW_ID = 'bfBenchBurstHook';
const WEBHOOK_NODE_PATH = 'bench-burst';
const TRIGGER_WEBHOOK_ID = '8c2d4e61-3333-4c1a-9e01-00000000b0b0';

function urlOf(side: Side, n8nUrl: string): string {
	return side === 'trigger'
		? triggerUrl(n8nUrl, TRIGGER_WEBHOOK_ID)
		: `${n8nUrl}/webhook/${WEBHOOK_NODE_PATH}`;
}

async function inSingleN8n(setup: Setup, s: BurstSettings & { tag: string }) {
	const { recipe, recorded, env } = setup.configuration;
	const inN8n = await startN8nFor(setup.sb, burstWorkflows(setup), recipe === 'claim', env);
	try {
		const { n8n, redis } = inN8n;
		if (redis && recorded) {
			// claims of earlier events, in one MSET
			const pairs = Array.from({ length: recorded }, (_, i) => [`bf-event:evt_earlier_${i}`, '1']);
			await redisCommand(redis.port, ['MSET', ...pairs.flat()]);
		}
		await n8n.activate(TRIGGER_WORKFLOW_ID);
		await n8n.activate(WEBHOOK_WORKFLOW_ID);
		await untilEndpointPointsAt(setup.sb, setup.endpoint.id, urlOf('trigger', n8n.baseUrl));
		await pollUntil(
			'the Webhook node to answer',
			async () =>
				(await fetch(urlOf('webhook', n8n.baseUrl), { method: 'POST', body: '{}' })).status === 200,
			60_000,
		);
		const measured = await measureBurst(n8n, setup, s);
		if (!recipe) return measured;
		return { ...measured, dedupeStepMs: await stepMs(n8n, TRIGGER_WORKFLOW_ID, STEP_OF[recipe]) };
	} finally {
		await inN8n.stop();
	}
}

function burstWorkflows({ collector, endpoint, configuration }: Setup): WorkflowJson[] {
	const webhook = node(
		'Webhook',
		'n8n-nodes-base.webhook',
		{ httpMethod: 'POST', path: WEBHOOK_NODE_PATH, responseMode: 'onReceived', options: {} },
		{ typeVersion: 2, webhookId: '8c2d4e61-3333-4c1a-9e01-00000000b0b1' },
	);
	return [
		chain(TRIGGER_WORKFLOW_ID, 'bench: trigger burst', [
			trigger('On receivable paid', TRIGGER_WEBHOOK_ID, {
				webhookEndpointId: endpoint.id,
				events: ['receivable.paid'],
			}),
			...(configuration.recipe === 'removeDuplicates' ? [removeDuplicatesNode(DEDUPE_NODE)] : []),
			...(configuration.recipe === 'claim' ? exampleClaimNodes() : []),
			// the claim's nodes put out the Redis count, not the event
			reportRun(
				collector.url,
				'trigger',
				configuration.recipe === 'claim'
					? "={{ $('On receivable paid').item.json.id }}"
					: '={{ $json.id }}',
			),
		]),
		chain(WEBHOOK_WORKFLOW_ID, 'bench: Webhook node burst', [
			webhook,
			reportRun(collector.url, 'webhook', '={{ $json.body.id }}'),
		]),
	];
}

type Round = { ids: string[]; answers: Answer[]; wallMs: number } & SchedDelta;

const RUNS_DEADLINE_MS = 120_000;

/** CPU and run-queue time of n8n's processes (main and its task runner). */
async function measureBurst(
	n8n: N8nServer,
	{ sb, collector, endpoint }: Setup,
	s: BurstSettings & { tag: string },
): Promise<Record<Side, SideResult>> {
	const pids = () => [...processesOf([n8n.process.child.pid!]).keys()];
	const sides: Side[] = ['trigger', 'webhook'];
	const round = async (side: Side, name: string, size: number): Promise<Round> => {
		const deliveries = signedDeliveries(endpoint.secret, `${s.tag}_${name}`, size);
		const ids = deliveries.map((d) => d.id);
		const started = Date.now();
		const { result: answers, sched } = await schedDuring(pids(), async () => {
			const answered = await send(urlOf(side, n8n.baseUrl), deliveries, s.concurrency);
			const deadline = Date.now() + RUNS_DEADLINE_MS;
			while (!ids.every((id) => collector.runs.has(`${side}:${id}`)) && Date.now() < deadline) {
				await sleep(10);
			}
			return answered;
		});
		const ranAt = ids.map((id) => collector.runs.get(`${side}:${id}`)?.[0] ?? Date.now());
		return { ids, answers, wallMs: Math.max(...ranAt) - started, ...sched };
	};
	await sb.admin.clearRequests(); // the secret fetches from here on, the warm-up's included
	for (const side of sides) await round(side, `warm_${side}`, s.concurrency);
	const rounds: Record<Side, Round[]> = { trigger: [], webhook: [] };
	for (let r = 0; r * s.round < s.perSide; r++) {
		const size = Math.min(s.round, s.perSide - r * s.round);
		for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
			rounds[side].push(await round(side, `${side}_${r}`, size));
		}
	}
	await sleep(2000); // a second run of an event would show by now
	const secretPath = `/v1/webhooks/${endpoint.id}/secret`;
	const secretFetches = (await sb.admin.getRequests()).filter((r) => r.path === secretPath).length;
	return {
		trigger: { ...summarise('trigger', rounds.trigger, collector), secretFetches },
		webhook: summarise('webhook', rounds.webhook, collector),
	};
}

function summarise(side: Side, rounds: Round[], collector: Collector) {
	const answers = rounds.flatMap((r) => r.answers);
	const counts = rounds
		.flatMap((r) => r.ids)
		.map((id) => collector.runs.get(`${side}:${id}`)?.length ?? 0);
	const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
	const ms = answers.map((a) => a.ms);
	return {
		side,
		deliveries: counts.length,
		totalMs: sum(rounds.map((r) => r.wallMs)),
		roundsMs: rounds.map((r) => r.wallMs),
		p50Ms: Math.round(percentile(ms, 50)),
		p90Ms: Math.round(percentile(ms, 90)),
		cpuMsPerDelivery: Math.round((10 * sum(rounds.map((r) => r.cpuMs))) / counts.length) / 10,
		runQueueMs: Math.round(sum(rounds.map((r) => r.runQueueMs))),
		notAccepted: answers.filter((a) => a.status !== 200).length,
		runsPerEvent: {
			min: Math.min(...counts),
			max: Math.max(...counts),
			notOnce: counts.filter((c) => c !== 1).length,
		},
	};
}
