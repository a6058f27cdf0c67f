/** The service's side of test/e2e and test/e2e-queue, and what an execution put out. */
import type { RunningSandbox } from '../../sandbox';
import { runInServer, type N8nServer } from '../../scripts/n8n';
import { createHttpClient } from '../../scripts/http-client';
import { signedHeaders } from '../helpers/standardWebhooks';
import { newSecret, nowSeconds } from '../trigger/support';

/** The sandbox's API with its key (never throws on a status). */
export function sandboxApi(sandbox: RunningSandbox) {
	const client = createHttpClient(`${sandbox.baseUrl}/v1`, { apiKey: sandbox.apiKey });
	return (method: string, urlPath: string, body?: unknown) =>
		client.request(method, urlPath, { body });
}

/** A delivery's headers, signed now with `secret` (by default one that is not the endpoint's). */
export const signed = (body: string, id: string, secret = newSecret()) =>
	signedHeaders(secret, body, { id, ts: nowSeconds() });

export const post = async (url: string, body: string, headers: Record<string, string> = {}) =>
	await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body,
	});

type SandboxApi = ReturnType<typeof sandboxApi>;

/** Every vendor in the service's list order (created_at, then id). */
export async function allVendors(v1: SandboxApi): Promise<any[]> {
	const vendors: any[] = [];
	for (let page = 1; ; page++) {
		const { status, body } = await v1('GET', `/vendors?limit=100&page=${page}`);
		if (status !== 200) throw new Error(`GET /v1/vendors -> ${status}`);
		vendors.push(...body.data);
		if (body.data.length < 100) return vendors;
	}
}

/** Creates a vendor paid in crypto (so without email and bank); resolves with it. */
export async function addCryptoVendor(v1: SandboxApi, name: string): Promise<any> {
	const created = await v1('POST', '/vendors', {
		name,
		payment_method: 'crypto',
		wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
		wallet_chain: 'base',
	});
	if (created.status !== 201) throw new Error(`POST /v1/vendors -> ${created.status}`);
	return created.body.data;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a workflow in the server from its Manual Trigger, as the editor's "Execute" does. */
export async function runManually(n8n: N8nServer, workflowId: string, timeoutMs?: number) {
	const { nodes } = await n8n.api('GET', `/workflows/${workflowId}`);
	const start = nodes.find((n: any) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!start) throw new Error(`workflow ${workflowId} has no Manual Trigger`);
	return await runInServer(n8n, n8n.runtime.major, workflowId, start.name, timeoutMs);
}

/** The items a node put out in an execution (first output, all its runs); [] when it did not run. */
export function output(execution: any, node: string): any[] {
	const runs = execution?.data?.resultData?.runData?.[node] ?? [];
	return runs.flatMap((run: any) => (run.data?.main?.[0] ?? []).map((item: any) => item.json));
}

export function triggerSteps(sandbox: () => RunningSandbox, n8n: () => N8nServer) {
	const v1 = (method: string, urlPath: string, body?: unknown) =>
		sandboxApi(sandbox())(method, urlPath, body);
	const secretOf = async (id: string): Promise<string> =>
		(await v1('GET', `/webhooks/${id}/secret`)).body.data.secret;
	/** The endpoint a trigger created: its id shows in the trigger's next call (its secret). */
	const createdEndpointId = async (call = /^\/v1\/webhooks\/ep_[^/]+/): Promise<string> =>
		await n8n().waitFor(
			'the created endpoint id',
			async () =>
				(await sandbox().admin.getRequests()).find((r) => call.test(r.path))?.path.split('/')[3],
			60_000,
		);
	return {
		v1,
		secretOf,
		createEndpoint: async (fields: Record<string, unknown>): Promise<string> => {
			const created = await v1('POST', '/webhooks', fields);
			if (created.status !== 201) throw new Error(`POST /v1/webhooks -> ${created.status}`);
			return created.body.data.id;
		},
		createdEndpointId,
		endpointWhen: (id: string, what: string, test: (now: any) => boolean) =>
			n8n().waitFor(what, async () => {
				const now = (await v1('GET', `/webhooks/${id}`)).body?.data;
				return test(now) && now;
			}),
		endpointDeleted: (id: string) =>
			n8n().waitFor(
				'the created endpoint to be deleted',
				async () => (await v1('GET', `/webhooks/${id}`)).status === 404,
			),
		/** Waits until n8n serves a webhook at `url` (answers other than 404), or no longer does. */
		webhookServed: (url: string, served = true) =>
			n8n().waitFor(`${url} ${served ? 'to be served' : 'to be gone'}`, async () => {
				return ((await post(url, '{}')).status !== 404) === served;
			}),
		/** Starts an activation, the trigger's secret fetch held 5 s (its endpoint exists by then). */
		activateHeld: async (workflowId: string) => {
			await sandbox().admin.clearRequests();
			const held = { latencyMs: 5000, count: 1, method: 'GET', pathPrefix: '/v1/webhooks/ep_' };
			await sandbox().admin.addFault({ kind: 'latency', ...held });
			const activation = n8n().activate(workflowId);
			const endpointId = await createdEndpointId(/^\/v1\/webhooks\/ep_[^/]+\/secret$/);
			return { activation, endpointId, secret: await secretOf(endpointId) };
		},
	};
}
