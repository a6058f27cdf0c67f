/**
 * The trigger-burst scenario of `npm run bench` (alone: `npm run bench:trigger`): what a burst of
 * signed events costs through the Business Finance Trigger (typeVersion 2) against n8n's own
 * Webhook node, in the same n8n, rounds alternating. Each configuration is a fresh `n8n start`
 * (the provisioned 2.x line) with two active workflows, the trigger or a bare Webhook node, each
 * followed by an HTTP Request node that reports the run to bench/burst.ts's collector:
 *   defaults     n8n as installed;
 *   fair         the Webhook node made to acquire an expression isolate for the webhook phase
 *                too, as n8n makes every other trigger (so the ratio is the package's own cost);
 *   recommended  the operator setting docs/trigger.md recommends for bursts (lazy acquisition);
 *   queue mode   the same burst through two webhook processors behind a load balancer, runs on
 *                two workers (scripts/queue), with n8n's defaults.
 * Per side: total time (the rounds' first send to last run), answer p50/p90, CPU per delivery
 * (the n8n processes', from /proc), runs per event and the sandbox's secret fetches. Writes
 * bench/results/trigger-burst.json. Environment: BENCH_BURST_N (deliveries per side, default
 * 1000), BENCH_BURST_ROUND (per round, 250), BENCH_BURST_CONCURRENCY (20), BENCH_BURST_CONFIGS
 * (comma list, default all four).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { build, requireRuntime, type Runtime } from '../scripts/n8n';
import { createHttpClient } from '../test/helpers/http';
import {
	measureBurst,
	startCollector,
	type BurstSettings,
	type Collector,
	type SideResult,
} from './burst';
import { inQueueMode, inSingleN8n, type Configuration } from './burst-n8n';
import { machine } from './report';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

export const CONFIGURATIONS: Configuration[] = [
	{ name: 'defaults', meaning: "n8n's defaults", env: {} },
	{
		name: 'fair',
		meaning: 'the Webhook node acquires an isolate too',
		env: { N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP: 'false' },
	},
	{
		name: 'recommended',
		meaning: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
		env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	},
	{ name: 'queue mode', meaning: '2 webhook processors, 2 workers, defaults', env: {} },
];

const TARGETS = { defaults: 1.5, fair: 1.1, recommended: 1.05 } as Record<string, number>;

export interface ConfigurationResult {
	configuration: Configuration;
	trigger: SideResult;
	webhook: SideResult;
	/** Trigger / Webhook node total time. */
	timeRatio: number;
	cpuRatio: number;
	target?: number;
	skipped?: string;
}

function readBurstSettings(): BurstSettings & { configs: string[] } {
	const names = process.env.BENCH_BURST_CONFIGS;
	return {
		perSide: Number(process.env.BENCH_BURST_N ?? 1000),
		round: Number(process.env.BENCH_BURST_ROUND ?? 250),
		concurrency: Number(process.env.BENCH_BURST_CONCURRENCY ?? 20),
		configs: names ? names.split(',').map((n) => n.trim()) : CONFIGURATIONS.map((c) => c.name),
	};
}

/** Every configuration asked for, each in its own n8n; the table printed, the JSON written. */
export async function runTriggerBurst(): Promise<ConfigurationResult[]> {
	const s = readBurstSettings();
	const runtime: Runtime = requireRuntime();
	build();
	const sb = await startSandboxProcess(['--seed', 'none', '--rate-limit', '1000000']);
	const collector = await startCollector();
	const results: ConfigurationResult[] = [];
	try {
		for (const configuration of CONFIGURATIONS.filter((c) => s.configs.includes(c.name))) {
			results.push(await runConfiguration(runtime, sb, collector, configuration, s));
		}
	} finally {
		await collector.close();
		await sb.close();
	}
	report(results, s);
	return results;
}

async function runConfiguration(
	runtime: Runtime,
	sb: SandboxProcess,
	collector: Collector,
	configuration: Configuration,
	s: BurstSettings,
): Promise<ConfigurationResult> {
	const endpointId = await createEndpoint(sb);
	const inN8n = configuration.name === 'queue mode' ? inQueueMode : inSingleN8n;
	const measured = await inN8n(runtime, sb, { collector, endpointId, configuration }, (n8n) =>
		measureBurst(n8n, sb, collector, endpointId, { ...s, tag: tagOf(configuration) }),
	);
	if ('skipped' in measured) {
		const none = {} as SideResult;
		return {
			configuration,
			trigger: none,
			webhook: none,
			timeRatio: NaN,
			cpuRatio: NaN,
			...measured,
		};
	}
	const { trigger, webhook } = measured;
	console.log(
		`[burst] ${configuration.name}: trigger ${trigger.totalMs} ms, Webhook node ${webhook.totalMs} ms (run-queue ${trigger.runQueueMs} / ${webhook.runQueueMs} ms)`,
	);
	return {
		configuration,
		trigger,
		webhook,
		timeRatio: round3(trigger.totalMs / webhook.totalMs),
		cpuRatio: round3(trigger.cpuMsPerDelivery / webhook.cpuMsPerDelivery),
		target: TARGETS[configuration.name],
	};
}

/** A fresh endpoint for each n8n: the trigger adopts it (an endpoint held elsewhere is refused). */
async function createEndpoint(sb: SandboxProcess): Promise<string> {
	const api = createHttpClient(`${sb.baseUrl}/v1`, { apiKey: sb.apiKey });
	const created = await api.request('POST', '/webhooks', {
		body: { url: 'http://127.0.0.1:9/before-the-bench', filter_types: [], disabled: false },
	});
	if (created.status !== 201) throw new Error(`creating an endpoint: ${created.text}`);
	return created.body.data.id;
}

const tagOf = (c: Configuration) => `${c.name.replace(/\s+/g, '_')}_${Date.now().toString(36)}`;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

function report(results: ConfigurationResult[], s: BurstSettings): void {
	console.log(
		`\ntrigger burst: ${s.perSide} signed deliveries per side at concurrency ${s.concurrency}, rounds of ${s.round} alternating`,
	);
	console.log(
		'| configuration | side | total s | answer p50 / p90 ms | CPU ms / delivery | run-queue s | runs per event | secret fetches | time ratio | target |',
	);
	console.log('|---|---|---|---|---|---|---|---|---|---|');
	for (const r of results) {
		if (r.skipped) {
			console.log(`| ${r.configuration.name} | left out: ${r.skipped} | | | | | | | | |`);
			continue;
		}
		for (const side of [r.trigger, r.webhook]) {
			const runs =
				side.runsPerEvent.min === side.runsPerEvent.max
					? String(side.runsPerEvent.min)
					: `${side.runsPerEvent.min}-${side.runsPerEvent.max}`;
			const isTrigger = side === r.trigger;
			console.log(
				`| ${r.configuration.name} | ${side.side} | ${(side.totalMs / 1000).toFixed(1)} | ${side.p50Ms} / ${side.p90Ms} | ${side.cpuMsPerDelivery} | ${(side.runQueueMs / 1000).toFixed(1)} | ${runs} | ${isTrigger ? side.secretFetches : ''} | ${isTrigger ? r.timeRatio : ''} | ${isTrigger ? (r.target ?? 'reported') : ''} |`,
			);
		}
	}
	const out = path.join(__dirname, 'results', 'trigger-burst.json');
	fs.mkdirSync(path.dirname(out), { recursive: true });
	const record = { machine: { ...machine(), load1mAtEnd: os.loadavg()[0] }, settings: s, results };
	fs.writeFileSync(out, `${JSON.stringify(record, null, 2)}\n`);
	console.log(`written ${path.relative(process.cwd(), out)}`);
}

if (require.main === module) {
	runTriggerBurst().catch((error) => {
		console.error(error);
		process.exitCode = 1;
	});
}
