/**
 * The trigger's webhook() handler, served over real HTTP in n8n-core's WebhookContext: Standard
 * Webhooks verification over the raw body, event filter, duplicate deliveries and output modes.
 * The secret here is the credential's (the state an activation leaves when the service cannot hand
 * out the endpoint's secret); the endpoint-secret path is covered in delivery.test.ts.
 */
import { randomBytes } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { signWebhook } from '../helpers/standardWebhooks';
import { deliver, STANDARD_VECTOR, TriggerHarness, type Served } from './support';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const now = () => Math.floor(Date.now() / 1000);

let seq = 0;
function event(
	type = 'receivable.paid',
	data: IDataObject = { id: 'r1', amount: 12.5 },
): IDataObject {
	seq += 1;
	return { id: `evt_${seq}`, type, created_at: '2026-11-22T12:00:00Z', data };
}

function signed(secret: string, body: string, opts: { id?: string; ts?: number } = {}) {
	const id = opts.id ?? `msg_${randomBytes(6).toString('hex')}`;
	const ts = opts.ts ?? now();
	return {
		'webhook-id': id,
		'webhook-timestamp': String(ts),
		'webhook-signature': signWebhook(secret, id, ts, body),
	};
}

interface Setup {
	harness: TriggerHarness;
	served: Served;
	url: string;
	secret: string;
}

const open: Served[] = [];
afterAll(async () => {
	await Promise.all(open.map((s) => s.close()));
});

async function setup(
	options: IDataObject = {},
	events: string[] = ['*'],
	secret: string | undefined = newSecret(),
): Promise<Setup> {
	const harness = new TriggerHarness({
		parameters: { webhookEndpointId: '', events, options },
		credentials: {
			apiKey: 'svc_unused_in_these_tests',
			baseUrl: 'http://127.0.0.1:9',
			webhookSigningSecret: secret ?? '',
		},
		// What create() leaves behind when the secret comes from the credential.
		staticData: { production: { secretSource: secret ? 'credential' : 'none' } },
	});
	const served = await harness.serve();
	open.push(served);
	return { harness, served, url: `${served.baseUrl}/any`, secret: secret ?? '' };
}

describe('webhook(): Standard Webhooks verification', () => {
	it('accepts the Standard Webhooks test vector (raw body with its spacing)', async () => {
		// The vector is from 2021: a tolerance of ~12.7 years puts it in the window.
		const { served, url } = await setup(
			{ toleranceSeconds: 400_000_000 },
			['*'],
			STANDARD_VECTOR.vectorWhsec,
		);
		const res = await deliver(url, STANDARD_VECTOR.body, {
			'webhook-id': STANDARD_VECTOR.id,
			'webhook-timestamp': String(STANDARD_VECTOR.timestamp),
			'webhook-signature': STANDARD_VECTOR.signature,
		});
		expect(res.status).toBe(200);
		expect(served.executions).toHaveLength(1);
		expect(served.executions[0][0][0].json).toEqual({ test: 2432232314 });
	});

	it('refuses the test vector with the default tolerance (it is years old)', async () => {
		const { served, url } = await setup({}, ['*'], STANDARD_VECTOR.vectorWhsec);
		const res = await deliver(url, STANDARD_VECTOR.body, {
			'webhook-id': STANDARD_VECTOR.id,
			'webhook-timestamp': String(STANDARD_VECTOR.timestamp),
			'webhook-signature': STANDARD_VECTOR.signature,
		});
		expect(res.status).toBe(401);
		expect(served.executions).toHaveLength(0);
	});

	it('accepts a signed delivery and outputs the whole event', async () => {
		const { served, url, secret } = await setup();
		const evt = event();
		const body = JSON.stringify(evt);
		const res = await deliver(url, body, signed(secret, body));
		expect(res.status).toBe(200);
		expect(served.executions).toHaveLength(1);
		expect(served.executions[0]).toEqual([[{ json: evt }]]);
	});

	it('outputs only data with output: data, in the stable vendor columns, extra fields after', async () => {
		const { served, url, secret } = await setup({ output: 'data' });
		const evt = event('vendor.created', { name: 'Acme', id: 'v1', tier: 'gold' });
		const body = JSON.stringify(evt);
		expect((await deliver(url, body, signed(secret, body))).status).toBe(200);
		const json = served.executions[0][0][0].json;
		expect(Object.keys(json)).toEqual([
			'id',
			'name',
			'email',
			'payment_method',
			'bank_name',
			'account_name',
			'account_number_last4',
			'routing_number_last4',
			'wallet_address',
			'wallet_chain',
			'created_at',
			'updated_at',
			'tier',
		]);
		expect(json).toMatchObject({
			id: 'v1',
			name: 'Acme',
			email: null,
			updated_at: null,
			tier: 'gold',
		});
	});

	it('refuses a forged signature (another secret) with 401 and no execution', async () => {
		const { served, url } = await setup();
		const body = JSON.stringify(event());
		const res = await deliver(url, body, signed(newSecret(), body));
		expect(res.status).toBe(401);
		expect(served.executions).toHaveLength(0);
	});

	it('refuses a stale timestamp and accepts one just inside the tolerance', async () => {
		const { served, url, secret } = await setup({ toleranceSeconds: 300 });
		const body = JSON.stringify(event());
		const stale = await deliver(url, body, signed(secret, body, { ts: now() - 330 }));
		expect(stale.status).toBe(401);
		expect(served.executions).toHaveLength(0);
		const inside = await deliver(url, body, signed(secret, body, { ts: now() - 270 }));
		expect(inside.status).toBe(200);
		expect(served.executions).toHaveLength(1);
	});

	it('refuses a timestamp too far in the future', async () => {
		const { served, url, secret } = await setup({ toleranceSeconds: 60 });
		const body = JSON.stringify(event());
		const res = await deliver(url, body, signed(secret, body, { ts: now() + 120 }));
		expect(res.status).toBe(401);
		expect(served.executions).toHaveLength(0);
	});

	it('refuses an unsigned delivery unless allowUnsigned is on', async () => {
		const off = await setup();
		const body = JSON.stringify(event());
		const refused = await deliver(off.url, body, {});
		expect(refused.status).toBe(401);
		expect(off.served.executions).toHaveLength(0);

		const on = await setup({ allowUnsigned: true });
		const accepted = await deliver(on.url, body, {});
		expect(accepted.status).toBe(200);
		expect(on.served.executions).toHaveLength(1);
	});

	it('still refuses a wrong signature when allowUnsigned is on', async () => {
		const { served, url } = await setup({ allowUnsigned: true });
		const body = JSON.stringify(event());
		const res = await deliver(url, body, signed(newSecret(), body));
		expect(res.status).toBe(401);
		expect(served.executions).toHaveLength(0);
	});

	it('refuses a tampered body, even one that parses to the same JSON', async () => {
		const { served, url, secret } = await setup();
		const evt = event('payable.paid', { id: 'p1', amount: 100 });
		const body = JSON.stringify(evt);
		const headers = signed(secret, body);
		const changed = body.replace('"amount":100', '"amount":1000');
		expect((await deliver(url, changed, headers)).status).toBe(401);
		const reformatted = JSON.stringify(evt, null, 2); // same JSON value, other bytes
		expect((await deliver(url, reformatted, headers)).status).toBe(401);
		expect(served.executions).toHaveLength(0);
		expect((await deliver(url, body, headers)).status).toBe(200);
		expect(served.executions).toHaveLength(1);
	});

	it('accepts a header with several signatures when one of them matches', async () => {
		const { served, url, secret } = await setup();
		const body = JSON.stringify(event());
		const headers = signed(secret, body);
		const forged = signed(newSecret(), body, {
			id: headers['webhook-id'],
			ts: Number(headers['webhook-timestamp']),
		});
		const multi = {
			...headers,
			'webhook-signature': `v1a,abc ${forged['webhook-signature']} ${headers['webhook-signature']}`,
		};
		expect((await deliver(url, body, multi)).status).toBe(200);
		expect(served.executions).toHaveLength(1);

		const onlyWrong = {
			...headers,
			'webhook-id': 'msg_other',
			'webhook-signature': `v2,xyz ${forged['webhook-signature']}`,
		};
		expect((await deliver(url, body, onlyWrong)).status).toBe(401);
		expect(served.executions).toHaveLength(1);
	});

	it('refuses every delivery when no secret is available and allowUnsigned is off', async () => {
		const { served, url } = await setup({}, ['*'], undefined);
		const body = JSON.stringify(event());
		const res = await deliver(url, body, signed(newSecret(), body));
		expect(res.status).toBe(401);
		expect(served.executions).toHaveLength(0);
	});

	it('answers 400 to a correctly signed body that is not an event object', async () => {
		const { served, url, secret } = await setup();
		for (const body of ['not json', '[1,2]']) {
			const res = await deliver(url, body, signed(secret, body));
			expect(res.status).toBe(400);
		}
		expect(served.executions).toHaveLength(0);
	});

	it('never echoes the secret in its answers', async () => {
		const { served, url, secret } = await setup();
		const body = JSON.stringify(event());
		await deliver(url, body, signed(newSecret(), body));
		await deliver(url, body, {});
		await deliver(url, body, signed(secret, body));
		const text = JSON.stringify(served.answers);
		expect(text).not.toContain(secret);
		expect(text).not.toContain(secret.slice('whsec_'.length));
	});
});

describe('webhook(): event filter and duplicates', () => {
	it('acknowledges an event type that is not selected without an execution', async () => {
		const { served, url, secret } = await setup({}, ['receivable.paid', 'payable.failed']);
		const other = JSON.stringify(event('vendor.created'));
		const res = await deliver(url, other, signed(secret, other));
		expect(res.status).toBe(200);
		expect(served.executions).toHaveLength(0);
		for (const type of ['receivable.paid', 'payable.failed']) {
			const body = JSON.stringify(event(type));
			expect((await deliver(url, body, signed(secret, body))).status).toBe(200);
		}
		expect(served.executions.map((e) => e[0][0].json.type)).toEqual([
			'receivable.paid',
			'payable.failed',
		]);
	});

	it('runs once for a retried delivery (same webhook-id, new timestamp and signature)', async () => {
		const { served, url, secret } = await setup();
		const body = JSON.stringify(event());
		const first = await deliver(
			url,
			body,
			signed(secret, body, { id: 'msg_retry_1', ts: now() - 5 }),
		);
		const retry = await deliver(url, body, signed(secret, body, { id: 'msg_retry_1' }));
		expect(first.status).toBe(200);
		expect(retry.status).toBe(200);
		expect(retry.body).toMatchObject({ received: true });
		expect(served.executions).toHaveLength(1);
		const another = await deliver(url, body, signed(secret, body, { id: 'msg_retry_2' }));
		expect(another.status).toBe(200);
		expect(served.executions).toHaveLength(2);
	});

	it('still recognises a retry after the workflow was saved (deactivated and activated again)', async () => {
		const { harness, served, url, secret } = await setup();
		const body = JSON.stringify(event());
		expect(
			(await deliver(url, body, signed(secret, body, { id: 'msg_across_update' }))).status,
		).toBe(200);
		await harness.deactivate();
		expect(
			(await deliver(url, body, signed(secret, body, { id: 'msg_across_update' }))).status,
		).toBe(200);
		expect(served.executions).toHaveLength(1);
	});

	it('runs once when the same delivery arrives twice at the same moment', async () => {
		const { served, url, secret } = await setup();
		const body = JSON.stringify(event());
		const headers = signed(secret, body, { id: 'msg_concurrent' });
		const answers = await Promise.all([deliver(url, body, headers), deliver(url, body, headers)]);
		expect(answers.map((a) => a.status)).toEqual([200, 200]);
		expect(served.executions).toHaveLength(1);
	});

	it('does not let a forged delivery with a genuine webhook-id block the genuine one', async () => {
		const { served, url, secret } = await setup();
		const body = JSON.stringify(event());
		const forged = await deliver(url, body, signed(newSecret(), body, { id: 'msg_target' }));
		expect(forged.status).toBe(401);
		const genuine = await deliver(url, body, signed(secret, body, { id: 'msg_target' }));
		expect(genuine.status).toBe(200);
		expect(served.executions).toHaveLength(1);
	});
});
