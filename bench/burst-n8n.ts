/**
 * The n8n side of the trigger-burst benchmark (trigger-burst.ts): two workflows, the Business
 * Finance Trigger at typeVersion 2 and a bare Webhook node, each followed by an HTTP Request node
 * reporting the run to the collector; imported into a fresh `n8n start` or into queue mode.
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
	type N8nOptions,
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

export interface Setup {
	sb: SandboxProcess;
	collector: Collector;
	endpointId: string;
	configuration: Configuration;
}
type Measure = (target: BurstTarget) => Promise<Record<Side, SideResult>>;
type Measured = Record<Side, SideResult> | { skipped: string };

/** One `n8n start` with the configuration's environment, in a user folder removed after. */
export async function inSingleN8n(
	runtime: Runtime,
	setup: Setup,
	measure: Measure,
): Promise<Measured> {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-bench-burst-'));
	let n8n: N8nServer | undefined;
	try {
		installPackage(userFolder);
		await importBoth(runtime, { userFolder, port: 0 }, setup);
		n8n = await N8nServer.start(runtime, {
			userFolder,
			logLevel: 'warn',
			extraEnv: { GENERIC_TIMEZONE: 'UTC', ...setup.configuration.env },
		});
		await activateBoth(n8n, setup, n8n.baseUrl);
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
		await importBoth(env.main.runtime, env.cliOptions(), setup);
		await activateBoth(env.main, setup, env.loadBalancer.url);
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

async function importBoth(runtime: Runtime, cli: N8nOptions, setup: Setup): Promise<void> {
	const { apiKey, baseUrl } = setup.sb;
	await importCredentials(runtime, cli, [{ apiKey, baseUrl }]);
	await importWorkflows(runtime, cli, burstWorkflows(setup));
}

/** Both workflows active: the endpoint points at n8n, and the Webhook node answers. */
async function activateBoth(server: N8nServer, setup: Setup, webhookBaseUrl: string) {
	await server.setupOwner();
	await server.activate(TRIGGER_WORKFLOW_ID);
	await server.activate(WEBHOOK_WORKFLOW_ID);
	const api = createHttpClient(`${setup.sb.baseUrl}/v1`, { apiKey: setup.sb.apiKey });
	const triggerUrl = urlOf('trigger', webhookBaseUrl);
	await pollUntil(
		'the endpoint to point at n8n',
		async () =>
			(await api.request('GET', `/webhooks/${setup.endpointId}`)).body?.data?.url === triggerUrl,
		60_000,
	);
	await pollUntil(
		'the Webhook node to answer',
		async () =>
			(await fetch(urlOf('webhook', webhookBaseUrl), { method: 'POST', body: '{}' })).status ===
			200,
		60_000,
	);
}

function burstWorkflows({ collector, endpointId }: Setup): WorkflowJson[] {
	const node = (suffix: string, name: string, type: string, typeVersion: number) => ({
		id: `8c2d4e61-3333-4c1a-9e01-0000000000${suffix}`,
		name,
		type,
		typeVersion,
		position: [0, 0],
	});
	const reportRun = (suffix: string, source: Side, id: string) => ({
		...node(suffix, 'Report the run', 'n8n-nodes-base.httpRequest', 4.2),
		parameters: {
			method: 'POST',
			url: collector.url,
			sendBody: true,
			bodyParameters: {
				parameters: [
					{ name: 'source', value: source },
					{ name: 'id', value: id },
				],
			},
			options: {},
		},
	});
	const trigger = {
		...node('a1', 'On receivable paid', TRIGGER, 2),
		webhookId: TRIGGER_WEBHOOK_ID,
		parameters: { webhookEndpointId: endpointId, events: ['receivable.paid'], options: {} },
		credentials: {
			businessFinanceApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME },
		},
	};
	const webhook = {
		...node('b1', 'Webhook', 'n8n-nodes-base.webhook', 2),
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
			reportRun('a2', 'trigger', '={{ $json.id }}'),
		]),
		chain(WEBHOOK_WORKFLOW_ID, 'bench: Webhook node burst', [
			webhook,
			reportRun('b2', 'webhook', '={{ $json.body.id }}'),
		]),
	];
}
