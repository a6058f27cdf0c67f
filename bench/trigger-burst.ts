/**
 * `npm run bench:trigger` (also the last scenario of `npm run bench`): what a burst of signed
 * events costs through the Business Finance Trigger against n8n's own Webhook node in the same
 * n8n, rounds alternating, in each configuration below (docs/benchmarks.md, "Trigger burst").
 * Writes bench/results/trigger-burst.json.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { build, requireRuntime } from '../scripts/n8n';
import { createHttpClient } from '../test/helpers/http';
import { measureBurst, startCollector, type BurstSettings, type SideResult } from './burst';
import { inQueueMode, inSingleN8n, type Configuration, type Setup } from './burst-n8n';
import { machine, printMarkdownTable } from './report';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

const CONFIGURATIONS: Configuration[] = [
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

interface ConfigurationResult {
	configuration: Configuration;
	trigger?: SideResult;
	webhook?: SideResult;
	/** Trigger / Webhook node total time, and CPU per delivery. */
	timeRatio?: number;
	cpuRatio?: number;
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
export async function runTriggerBurst(): Promise<void> {
	const s = readBurstSettings();
	const runtime = requireRuntime();
	build();
	const sb = await startSandboxProcess(['--seed', 'none', '--rate-limit', '1000000']);
	const collector = await startCollector();
	const results: ConfigurationResult[] = [];
	try {
		for (const configuration of CONFIGURATIONS.filter((c) => s.configs.includes(c.name))) {
			const endpoint = await createEndpoint(sb);
			const setup: Setup = { sb, collector, endpointId: endpoint.id, configuration };
			const tag = `${configuration.name.replace(/\s+/g, '_')}_${Date.now().toString(36)}`;
			const inN8n = configuration.name === 'queue mode' ? inQueueMode : inSingleN8n;
			const measured = await inN8n(runtime, setup, (target) =>
				measureBurst(target, sb, collector, endpoint, { ...s, tag }),
			);
			results.push(
				'skipped' in measured
					? { configuration, ...measured }
					: {
							configuration,
							...measured,
							timeRatio: round3(measured.trigger.totalMs / measured.webhook.totalMs),
							cpuRatio: round3(
								measured.trigger.cpuMsPerDelivery / measured.webhook.cpuMsPerDelivery,
							),
							target: TARGETS[configuration.name],
						},
			);
		}
	} finally {
		await collector.close();
		await sb.close();
	}
	report(results, s);
}

/** A fresh endpoint for each n8n (the trigger adopts it), and its signing secret. */
async function createEndpoint(sb: SandboxProcess): Promise<{ id: string; secret: string }> {
	const api = createHttpClient(`${sb.baseUrl}/v1`, { apiKey: sb.apiKey });
	const created = await api.request('POST', '/webhooks', {
		body: { url: 'http://127.0.0.1:9/before-the-bench', filter_types: [], disabled: false },
	});
	if (created.status !== 201) throw new Error(`creating an endpoint: ${created.text}`);
	const { id } = created.body.data;
	return { id, secret: (await api.request('GET', `/webhooks/${id}/secret`)).body.data.secret };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

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
		...(trigger ? [side.secretFetches, r.timeRatio, r.target ?? 'reported'] : ['', '', '']).map(
			String,
		),
	];
}

function report(results: ConfigurationResult[], s: BurstSettings): void {
	console.log(
		`\ntrigger burst: ${s.perSide} signed deliveries per side at concurrency ${s.concurrency}, rounds of ${s.round} alternating`,
	);
	const head = ['configuration', 'side', 'total s', 'answer p50 / p90 ms', 'CPU ms / delivery'];
	head.push('run-queue s', 'runs per event', 'secret fetches', 'time ratio', 'target');
	const rows = results.flatMap((r) =>
		r.trigger && r.webhook
			? [sideCells(r, r.trigger), sideCells(r, r.webhook)]
			: [[r.configuration.name, `left out: ${r.skipped}`, ...Array(8).fill('')]],
	);
	printMarkdownTable(head, rows);
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
