/**
 * Forged and damaged webhook deliveries against a trigger activated for real on the sandbox (the
 * endpoint created through the API, its secret fetched from the service). The trigger's webhook()
 * runs in n8n-core's WebhookContext behind a loopback HTTP server (test/trigger/support.ts). A
 * genuine delivery from the sandbox, and a correctly re-signed copy, start an execution (so the
 * refusals below are not an artefact of a broken setup); a forged one, or one with another
 * delivery's signature, gets 401 and starts nothing. (Stale, future, unsigned and tampered
 * deliveries: test/trigger/webhook.test.ts.)
 */
import { randomBytes } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { signWebhook } from '../helpers/standardWebhooks';
import { deliver, TriggerHarness, until, type Served } from '../trigger/support';
import { startFaultEnv, VALID, type NodeTestEnv } from './support';

let env: NodeTestEnv;
let trigger: TriggerHarness;
let served: Served;
let secret: string;
let url: string;
let event: IDataObject;

beforeAll(async () => {
	env = await startFaultEnv();
	await env.sb.admin.reset('none');
	trigger = new TriggerHarness({
		parameters: { webhookEndpointId: '', events: ['vendor.created'], options: {} },
		credentials: { apiKey: env.sb.apiKey, baseUrl: env.sb.baseUrl },
	});
	served = await trigger.serve();
	trigger.webhookBaseUrl = served.baseUrl;
	await trigger.activate();
	url = trigger.webhookUrl();
	const endpointId = (trigger.staticData().production as IDataObject).endpointId as string;
	secret = ((await env.api('GET', `/v1/webhooks/${endpointId}/secret`)) as IDataObject)
		.secret as string;
	expect(secret).toMatch(/^whsec_/);

	// A genuine delivery: the sandbox signs and sends vendor.created.
	await env.api('POST', '/v1/vendors', {
		name: 'Webhook Vendor',
		payment_method: 'crypto',
		wallet_address: VALID.evm,
		wallet_chain: 'base',
	});
	await until('the genuine delivery', () => served.executions[0]);
	const events = (await env.sb.admin.getEvents()) as unknown as IDataObject[];
	event = events.find((e) => e.type === 'vendor.created')!;
	expect(event).toBeDefined();
}, 60_000);

afterAll(async () => {
	await trigger.deactivate();
	await served.close();
	await env.close();
});

const now = () => Math.floor(Date.now() / 1000);
const newId = () => `msg_${randomBytes(8).toString('hex')}`;
const otherSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

function headers(
	body: string,
	opts: { key?: string; id?: string; ts?: number } = {},
): Record<string, string> {
	const id = opts.id ?? newId();
	const ts = opts.ts ?? now();
	return {
		'webhook-id': id,
		'webhook-timestamp': String(ts),
		'webhook-signature': signWebhook(opts.key ?? secret, id, ts, body),
	};
}

describe('deliveries to a trigger activated on the sandbox', () => {
	it('the genuine delivery from the sandbox started exactly one execution with the event', () => {
		expect(served.executions).toHaveLength(1);
		expect(served.executions[0][0][0].json).toMatchObject({ id: event.id, type: 'vendor.created' });
	});

	it('control: the same event, correctly signed with a new id and the current time, is accepted', async () => {
		const before = served.executions.length;
		const body = JSON.stringify(event);
		const res = await deliver(url, body, headers(body));
		expect(res.status).toBe(200);
		expect(served.executions).toHaveLength(before + 1);
	});

	const body = () => JSON.stringify(event);
	it.each([
		['forged: signed with another secret', () => headers(body(), { key: otherSecret() })],
		[
			'signature of another delivery (replayed signature, new id)',
			() => ({ ...headers(body()), 'webhook-id': newId() }),
		],
	])('%s: 401 and no execution', async (_name, forged) => {
		const before = served.executions.length;
		const res = await deliver(url, body(), forged());
		expect(res.status).toBe(401);
		expect(JSON.stringify(res.body)).not.toContain(secret.slice('whsec_'.length));
		// Nothing started, now or a little later.
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(served.executions).toHaveLength(before);
	});
});
