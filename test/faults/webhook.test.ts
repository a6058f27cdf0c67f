/**
 * Forged and damaged webhook deliveries against a trigger activated for real on the sandbox (the
 * endpoint created through the API, its secret fetched from the service). The trigger's webhook()
 * runs in n8n-core's WebhookContext behind a loopback HTTP server (test/trigger/support.ts). A
 * genuine delivery from the sandbox, and a correctly re-signed copy, start an execution (so the
 * refusals below are not an artefact of a broken setup); every forged, stale, future, unsigned or
 * tampered one gets 401 and starts nothing.
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
	// Timestamps 60 s outside the tolerance: at 301 s, the clock's next second could bring one back
	// inside it before the delivery is checked.
	const cases: Array<[string, () => { body: string; headers: Record<string, string> }]> = [
		[
			'forged: signed with another secret',
			() => ({ body: body(), headers: headers(body(), { key: otherSecret() }) }),
		],
		[
			'stale: signed correctly, timestamp 360 s old (tolerance 300)',
			() => ({ body: body(), headers: headers(body(), { ts: now() - 360 }) }),
		],
		[
			'future: signed correctly, timestamp 360 s ahead (tolerance 300)',
			() => ({ body: body(), headers: headers(body(), { ts: now() + 360 }) }),
		],
		[
			'unsigned: no webhook-signature header',
			() => {
				const h = headers(body());
				delete h['webhook-signature'];
				return { body: body(), headers: h };
			},
		],
		['unsigned: no webhook headers at all', () => ({ body: body(), headers: {} })],
		[
			'tampered: valid signature of the original, vendor name changed in the body',
			() => {
				const original = body();
				const changed = JSON.stringify({
					...event,
					data: { ...(event.data as IDataObject), name: 'Mallory Ltd' },
				});
				return { body: changed, headers: headers(original) };
			},
		],
		[
			'tampered: one space added to the signed body',
			() => {
				const original = body();
				return { body: `${original} `, headers: headers(original) };
			},
		],
		[
			'signature of another delivery (replayed signature, new id)',
			() => {
				const h = headers(body());
				return { body: body(), headers: { ...h, 'webhook-id': newId() } };
			},
		],
	];

	it.each(cases)('%s: 401 and no execution', async (_name, make) => {
		const before = served.executions.length;
		const { body: raw, headers: h } = make();
		const res = await deliver(url, raw, h);
		expect(res.status).toBe(401);
		expect(JSON.stringify(res.body)).not.toContain(secret.slice('whsec_'.length));
		// Nothing started, now or a little later.
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(served.executions).toHaveLength(before);
	});
});
