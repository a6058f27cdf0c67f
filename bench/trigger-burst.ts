// `npm run bench:trigger` (docs/benchmarks.md, "Trigger burst").
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
	build,
	importCredentials,
	importWorkflows,
	installPackage,
	N8nServer,
	redisCredentialsOf,
	requireRuntime,
	type Runtime,
	type WorkflowJson,
} from '../scripts/n8n';
import { pollUntil } from '../scripts/poll';
import { requireQueueServices } from '../scripts/queue/installed';
import { redisCommand, startRedis, type RedisInstance } from '../scripts/queue/redis';
import { stopGroup } from '../scripts/process-group';
import { CLAIM, chain, exampleClaimNodes, node, trigger } from '../test/e2e/workflows';
import { processesOf } from '../test/e2e-queue/listening';
import {
	measureBurst,
	startCollector,
	TRIGGER_WEBHOOK_ID,
	urlOf,
	WEBHOOK_NODE_PATH,
	type BurstSettings,
	type BurstSetup,
	type Side,
	type SideResult,
} from './burst';
import { printMarkdownTable, round3, type Outcome } from './report';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

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
	{
		name: 'recipe',
		meaning: "defaults, with Remove Duplicates after the trigger (example 03's earlier recipe)",
		env: {},
		target: 'reported',
		recipe: 'removeDuplicates',
		perSide: 300,
	},
	{
		name: 'claim',
		meaning: "defaults, with example 03's claim (Redis Increment, then a Filter) after the trigger",
		env: {},
		target: 'reported',
		recipe: 'claim',
		perSide: 300,
	},
	{
		name: 'claim10k',
		meaning: 'as claim, with 10,000 events already claimed in Redis',
		env: {},
		target: 'reported',
		recipe: 'claim',
		recorded: 10_000,
		perSide: 300,
	},
];

type Setup = BurstSetup & { configuration: Configuration };
type ConfigurationResult = Record<Side, SideResult> & {
	configuration: Configuration;
	timeRatio: number;
	/** n8n's own record of the recipe's (first) node's time, over the last 100 runs. */
	dedupeStepMs?: { p50: number; p90: number; runs: number };
};

function readBurstSettings(): BurstSettings & { configs: string[] } {
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
	const runtime = requireRuntime();
	build();
	const sb = await startSandboxProcess(['--rate-limit', '1000000']);
	const collector = await startCollector();
	const results: ConfigurationResult[] = [];
	try {
		for (const configuration of CONFIGURATIONS.filter((c) => s.configs.includes(c.name))) {
			const setup = { sb, collector, endpoint: await createEndpoint(sb), configuration };
			const tag = `${configuration.name}_${Date.now().toString(36)}`;
			const perSide = configuration.perSide ?? s.perSide;
			const measured = await inSingleN8n(runtime, setup, { ...s, perSide, tag });
			const timeRatio = round3(measured.trigger.totalMs / measured.webhook.totalMs);
			results.push({ configuration, ...measured, timeRatio });
		}
	} finally {
		await collector.close();
		await sb.close();
	}
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

export async function createEndpoint(sb: SandboxProcess): Promise<BurstSetup['endpoint']> {
	const created = await sb.api.request('POST', '/webhooks', {
		body: { url: 'http://127.0.0.1:9/before-the-bench', filter_types: [], disabled: false },
	});
	if (created.status !== 201) throw new Error(`creating an endpoint: ${created.text}`);
	const { id } = created.body.data;
	return { id, secret: (await sb.api.request('GET', `/webhooks/${id}/secret`)).body.data.secret };
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

async function inSingleN8n(
	runtime: Runtime,
	setup: Setup,
	s: Parameters<typeof measureBurst>[2],
): Promise<Record<Side, SideResult> & Pick<ConfigurationResult, 'dedupeStepMs'>> {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-bench-burst-'));
	const { recipe, recorded, env } = setup.configuration;
	let n8n: N8nServer | undefined;
	let redis: RedisInstance | undefined;
	try {
		installPackage(userFolder);
		const workflows = burstWorkflows(setup);
		if (recipe === 'claim') redis = await startRedisWith(userFolder, recorded ?? 0);
		const { apiKey, baseUrl } = setup.sb;
		await importCredentials(runtime, { userFolder, port: 0 }, [
			{ apiKey, baseUrl },
			...(redis ? redisCredentialsOf(workflows, redis.port) : []),
		]);
		await importWorkflows(runtime, { userFolder, port: 0 }, workflows);
		n8n = await N8nServer.start(runtime, {
			userFolder,
			logLevel: 'warn',
			extraEnv: { GENERIC_TIMEZONE: 'UTC', ...env },
		});
		await n8n.setupOwner();
		await n8n.activate(TRIGGER_WORKFLOW_ID);
		await n8n.activate(WEBHOOK_WORKFLOW_ID);
		await untilBothServe(setup, n8n.baseUrl);
		const group = n8n.process.child.pid!;
		const target = { baseUrl: n8n.baseUrl, pids: () => [...processesOf([group]).keys()] };
		const measured = await measureBurst(target, setup, s);
		if (!recipe) return measured;
		return { ...measured, dedupeStepMs: await stepMs(n8n, TRIGGER_WORKFLOW_ID, STEP_OF[recipe]) };
	} finally {
		await n8n?.stop();
		if (redis) await stopGroup(redis.process, 'SIGTERM', 10_000);
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

/** A Redis holding `recorded` claims of earlier events (set in one MSET). */
async function startRedisWith(dir: string, recorded: number): Promise<RedisInstance> {
	const redis = await startRedis(requireQueueServices().redisServer, dir);
	if (recorded) {
		const pairs = Array.from({ length: recorded }, (_, i) => [`bf-event:evt_earlier_${i}`, '1']);
		await redisCommand(redis.port, ['MSET', ...pairs.flat()]);
	}
	return redis;
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

async function untilBothServe(setup: Setup, n8nUrl: string): Promise<void> {
	const triggerUrl = urlOf('trigger', n8nUrl);
	const endpoint = `/webhooks/${setup.endpoint.id}`;
	await pollUntil(
		'the endpoint to point at n8n',
		async () => (await setup.sb.api.request('GET', endpoint)).body?.data?.url === triggerUrl,
		60_000,
	);
	await pollUntil(
		'the Webhook node to answer',
		async () =>
			(await fetch(urlOf('webhook', n8nUrl), { method: 'POST', body: '{}' })).status === 200,
		60_000,
	);
}

function dedupeNode() {
	const parameters = {
		operation: 'removeItemsSeenInPreviousExecutions',
		dedupeValue: '={{ $json.id }}',
		options: {},
	};
	return node(DEDUPE_NODE, 'n8n-nodes-base.removeDuplicates', parameters, { typeVersion: 2 });
}

/** Reports `{ source, id }` to the bench's collector (bench/burst.ts). */
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
			...(configuration.recipe === 'removeDuplicates' ? [dedupeNode()] : []),
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
