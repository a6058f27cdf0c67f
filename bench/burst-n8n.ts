/**
 * The n8n side of the trigger-burst benchmark (bench/trigger-burst.ts): two workflows, the
 * Business Finance Trigger at typeVersion 2 and a bare Webhook node, each followed by an HTTP
 * Request node reporting the run to the collector; imported into a fresh `n8n start` or into
 * queue mode (scripts/queue), activated, and measured there.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
	importCredentials,
	importWorkflows,
	installPackage,
	N8nServer,
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	type Runtime,
	type WorkflowJson,
} from '../scripts/n8n';
import { pollUntil } from '../scripts/poll';
import { QueueEnvironment } from '../scripts/queue';
import { chain, TRIGGER } from '../test/e2e/workflows';
import { processesOf } from '../test/e2e-queue/listening';
import { createHttpClient } from '../test/helpers/http';
import {
	TRIGGER_WEBHOOK_ID,
	urlOf,
	WEBHOOK_NODE_PATH,
	type BurstTarget,
	type Collector,
	type Side,
	type SideResult,
} from './burst';
import { queuePrerequisites } from './queue-listing';
import type { SandboxProcess } from './sandbox-process';

/** An n8n set-up the burst is measured in: its name, and the environment its processes get. */
export interface Configuration {
	name: 'defaults' | 'fair' | 'recommended' | 'queue mode';
	meaning: string;
	env: Record<string, string>;
}

interface Setup {
	collector: Collector;
	endpointId: string;
	configuration: Configuration;
}
type Measure = (target: BurstTarget) => Promise<Record<Side, SideResult>>;
type Measured = Record<Side, SideResult> | { skipped: string };

/** One `n8n start` with the configuration's environment, in a user folder removed after. */
export async function inSingleN8n(
	runtime: Runtime,
	sb: SandboxProcess,
	setup: Setup,
	measure: Measure,
): Promise<Measured> {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-bench-burst-'));
	let n8n: N8nServer | undefined;
	try {
		installPackage(userFolder);
		const cli = { userFolder, port: 0 };
		await importCredentials(runtime, cli, [{ apiKey: sb.apiKey, baseUrl: sb.baseUrl }]);
		await importWorkflows(runtime, cli, burstWorkflows(setup));
		n8n = await N8nServer.start(runtime, {
			userFolder,
			logLevel: 'warn',
			extraEnv: { GENERIC_TIMEZONE: 'UTC', ...setup.configuration.env },
		});
		await n8n.setupOwner();
		await activate(n8n, sb, setup.endpointId, n8n.baseUrl);
		const group = n8n.process.child.pid!;
		return await measure({ baseUrl: n8n.baseUrl, pids: () => [...processesOf([group]).keys()] });
	} finally {
		await n8n?.stop();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

/** Queue mode: deliveries through the load balancer to two webhook processors, runs on workers. */
export async function inQueueMode(
	_runtime: Runtime,
	sb: SandboxProcess,
	setup: Setup,
	measure: Measure,
): Promise<Measured> {
	const prerequisites = queuePrerequisites();
	if ('missing' in prerequisites) return { skipped: prerequisites.missing };
	const env = await QueueEnvironment.start(prerequisites.runtime, prerequisites.programs, {
		concurrency: 10,
		webhookLogLevel: 'info',
	});
	try {
		await env.main.setupOwner();
		const cli = env.cliOptions();
		await importCredentials(env.main.runtime, cli, [{ apiKey: sb.apiKey, baseUrl: sb.baseUrl }]);
		await importWorkflows(env.main.runtime, cli, burstWorkflows(setup));
		await activate(env.main, sb, setup.endpointId, env.loadBalancer.url);
		const groups = [...env.webhookProcessors, ...env.workers].map((p) => p.process.child.pid!);
		return await measure({
			baseUrl: env.loadBalancer.url,
			pids: () => [...processesOf(groups).keys()],
		});
	} finally {
		await env.stop();
	}
}

const TRIGGER_WORKFLOW_ID = 'bfBenchBurstTrig';
const WEBHOOK_WORKFLOW_ID = 'bfBenchBurstHook';

/** Both workflows active: the endpoint points at n8n, and the Webhook node answers. */
async function activate(
	server: N8nServer,
	sb: SandboxProcess,
	endpointId: string,
	webhookBaseUrl: string,
): Promise<void> {
	await server.activate(TRIGGER_WORKFLOW_ID);
	await server.activate(WEBHOOK_WORKFLOW_ID);
	const api = createHttpClient(`${sb.baseUrl}/v1`, { apiKey: sb.apiKey });
	const triggerUrl = urlOf('trigger', webhookBaseUrl);
	await pollUntil(
		'the endpoint to point at n8n',
		async () => {
			const endpoint = await api.request('GET', `/webhooks/${endpointId}`);
			return endpoint.body?.data?.url === triggerUrl;
		},
		60_000,
	);
	await pollUntil(
		'the Webhook node to answer',
		async () => {
			const probe = await fetch(urlOf('webhook', webhookBaseUrl), { method: 'POST', body: '{}' });
			return probe.status === 200;
		},
		60_000,
	);
}

function burstWorkflows({ collector, endpointId }: Setup): WorkflowJson[] {
	const trigger = {
		id: '8c2d4e61-3333-4c1a-9e01-0000000000a1',
		name: 'On receivable paid',
		type: TRIGGER,
		typeVersion: 2,
		position: [0, 0],
		webhookId: TRIGGER_WEBHOOK_ID,
		parameters: { webhookEndpointId: endpointId, events: ['receivable.paid'], options: {} },
		credentials: {
			businessFinanceApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME },
		},
	};
	const webhook = {
		id: '8c2d4e61-3333-4c1a-9e01-0000000000b1',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: '8c2d4e61-3333-4c1a-9e01-00000000b0b1',
		parameters: {
			httpMethod: 'POST',
			path: WEBHOOK_NODE_PATH,
			responseMode: 'onReceived',
			options: {},
		},
	};
	return [
		chain(TRIGGER_WORKFLOW_ID, 'bench: trigger burst', [
			trigger,
			reportRun('a2', 'trigger', '={{ $json.id }}', collector.url),
		]),
		chain(WEBHOOK_WORKFLOW_ID, 'bench: Webhook node burst', [
			webhook,
			reportRun('b2', 'webhook', '={{ $json.body.id }}', collector.url),
		]),
	];
}

function reportRun(idSuffix: string, source: Side, id: string, url: string) {
	return {
		id: `8c2d4e61-3333-4c1a-9e01-0000000000${idSuffix}`,
		name: 'Report the run',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		parameters: {
			method: 'POST',
			url,
			sendBody: true,
			bodyParameters: {
				parameters: [
					{ name: 'source', value: source },
					{ name: 'id', value: id },
				],
			},
			options: {},
		},
	};
}
