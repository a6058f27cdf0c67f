/**
 * Webhook endpoints (GET/PATCH of the spec, assumed POST/DELETE/secret) and event delivery per
 * Standard Webhooks: event types per operation, filter_types, disabled endpoints, body and headers,
 * signatures verified with the `standardwebhooks` library, redelivery after a non-2xx answer
 * (bounded), and the admin delivery log.
 */
import { createHmac, randomUUID } from 'crypto';
import { Webhook } from 'standardwebhooks';

import {
	WEBHOOK_FIELDS,
	achVendor,
	cryptoVendor,
	eventually,
	expectDateTime,
	expectError,
	expectOnlyFields,
	expectValidationError,
	receivableBody,
	sleep,
	startHarness,
	startReceiver,
	type Harness,
	type Receiver,
} from './support';

const RETRY_DELAYS = [50, 100, 200];

let h: Harness;
let receiver: Receiver;

beforeAll(async () => {
	h = await startHarness({ deliveryRetryDelaysMs: RETRY_DELAYS });
});
afterAll(async () => {
	await receiver?.close();
	await h?.close();
});
beforeEach(async () => {
	await h.admin.reset('none');
	await receiver?.close();
	receiver = await startReceiver();
});

async function createEndpoint(body: Record<string, unknown> = {}) {
	const res = await h.api.post('/v1/webhooks', { url: receiver.url, ...body });
	expect(res.status).toBe(201);
	return res.body.data as Record<string, any>;
}

async function secretOf(id: string): Promise<string> {
	const res = await h.api.get(`/v1/webhooks/${id}/secret`);
	expect(res.status).toBe(200);
	return res.body.data.secret;
}

/** Waits until no new delivery arrives for `quietMs`. */
async function settle(quietMs = 400): Promise<void> {
	let last = -1;
	while (last !== receiver.received.length) {
		last = receiver.received.length;
		await sleep(quietMs);
	}
}

describe('webhook endpoints', () => {
	test('POST: 201 with every field and the defaults', async () => {
		const res = await h.api.post('/v1/webhooks', { url: receiver.url });
		expect(res.status).toBe(201);
		expect(Object.keys(res.body)).toEqual(['data']);
		const ep = res.body.data;
		expectOnlyFields(ep, WEBHOOK_FIELDS);
		expect(ep.id).toMatch(/^ep_/);
		expect(ep).toMatchObject({
			url: receiver.url,
			description: '',
			filter_types: [],
			disabled: false,
		});
		expectDateTime(ep.created_at);
		expectDateTime(ep.updated_at);
		expect(res.text).not.toContain('whsec_');
	});

	test('POST with every field', async () => {
		const ep = await createEndpoint({
			description: 'Accounting sync',
			filter_types: ['receivable.paid', 'payable.paid'],
			disabled: true,
		});
		expect(ep).toMatchObject({
			description: 'Accounting sync',
			filter_types: ['receivable.paid', 'payable.paid'],
			disabled: true,
		});
	});

	test('GET: the endpoint as created', async () => {
		const ep = await createEndpoint({ description: 'x' });
		const res = await h.api.get(`/v1/webhooks/${ep.id}`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ data: ep });
	});

	test('PATCH: each field, updated_at moves, GET agrees', async () => {
		const ep = await createEndpoint();
		await sleep(5);
		const res = await h.api.patch(`/v1/webhooks/${ep.id}`, {
			url: 'http://localhost:9/other',
			description: 'Renamed',
			filter_types: ['vendor.created'],
			disabled: true,
		});
		expect(res.status).toBe(200);
		expectOnlyFields(res.body.data, WEBHOOK_FIELDS);
		expect(res.body.data).toMatchObject({
			id: ep.id,
			url: 'http://localhost:9/other',
			description: 'Renamed',
			filter_types: ['vendor.created'],
			disabled: true,
			created_at: ep.created_at,
		});
		expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(ep.updated_at));
		expect((await h.api.get(`/v1/webhooks/${ep.id}`)).body.data).toEqual(res.body.data);
		const partial = await h.api.patch(`/v1/webhooks/${ep.id}`, { disabled: false });
		expect(partial.body.data).toMatchObject({
			description: 'Renamed',
			disabled: false,
			filter_types: ['vendor.created'],
		});
	});

	test('secret: whsec_ + base64 of 24 bytes, stable, never in the endpoint', async () => {
		const ep = await createEndpoint();
		const secret = await secretOf(ep.id);
		expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
		expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
		expect(await secretOf(ep.id)).toBe(secret);
		const other = await createEndpoint();
		expect(await secretOf(other.id)).not.toBe(secret);
		const get = await h.api.get(`/v1/webhooks/${ep.id}`);
		expect(get.text).not.toContain(secret);
	});

	test('DELETE: 204 with no body, then 404 everywhere', async () => {
		const ep = await createEndpoint();
		const res = await h.api.delete(`/v1/webhooks/${ep.id}`);
		expect(res.status).toBe(204);
		expect(res.text).toBe('');
		expectError(await h.api.get(`/v1/webhooks/${ep.id}`), 404, 'NOT_FOUND');
		expectError(await h.api.patch(`/v1/webhooks/${ep.id}`, { disabled: true }), 404, 'NOT_FOUND');
		expectError(await h.api.get(`/v1/webhooks/${ep.id}/secret`), 404, 'NOT_FOUND');
		expectError(await h.api.delete(`/v1/webhooks/${ep.id}`), 404, 'NOT_FOUND');
	});

	test('unknown and malformed ids: 404', async () => {
		expectError(await h.api.get('/v1/webhooks/ep_doesnotexist'), 404, 'NOT_FOUND');
		expectError(await h.api.get(`/v1/webhooks/${randomUUID()}`), 404, 'NOT_FOUND');
		expectError(await h.api.delete('/v1/webhooks/ep_doesnotexist'), 404, 'NOT_FOUND');
	});

	test('listing endpoints is not a route: GET /v1/webhooks is 405', async () => {
		expectError(await h.api.get('/v1/webhooks'), 405, 'METHOD_NOT_ALLOWED');
	});

	const invalidCreate: Array<[string, Record<string, unknown>, string]> = [
		['url missing', { url: undefined }, 'url'],
		['url relative', { url: '/hook' }, 'url'],
		['url not http', { url: 'ftp://127.0.0.1/hook' }, 'url'],
		['url not a string', { url: 42 }, 'url'],
		['filter_types not an array', { filter_types: 'vendor.created' }, 'filter_types'],
		['filter_types unknown type', { filter_types: ['vendor.deleted'] }, 'filter_types'],
		['filter_types wildcard', { filter_types: ['*'] }, 'filter_types'],
		[
			'filter_types duplicates',
			{ filter_types: ['vendor.created', 'vendor.created'] },
			'filter_types',
		],
		['disabled not a boolean', { disabled: 'true' }, 'disabled'],
		['description not a string', { description: 5 }, 'description'],
		['unknown field', { secret: 'whsec_abc' }, 'secret'],
	];
	test.each(invalidCreate)(
		'POST %s: 400 naming the field, nothing created',
		async (_label, overrides, field) => {
			const body: Record<string, unknown> = { url: receiver.url, ...overrides };
			for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
			expectValidationError(await h.api.post('/v1/webhooks', body), field);
		},
	);

	test.each([
		['url', { url: 'not a url' }],
		['filter_types', { filter_types: ['receivable.created', 'nope'] }],
		['disabled', { disabled: 1 }],
		['disabled', { disabled: null }],
	])('PATCH with a bad %s: 400, unchanged', async (field, body) => {
		const ep = await createEndpoint();
		expectValidationError(await h.api.patch(`/v1/webhooks/${ep.id}`, body), field);
		expect((await h.api.get(`/v1/webhooks/${ep.id}`)).body.data).toEqual(ep);
	});
});

describe('events (admin event log)', () => {
	async function typesFor(op: () => Promise<unknown>): Promise<string[]> {
		const before = (await h.admin.events()).length;
		await op();
		return (await h.admin.events()).slice(before).map((e: any) => e.type);
	}

	test('reads and failed requests emit nothing', async () => {
		const v = (await h.api.post('/v1/vendors', achVendor())).body.data;
		const types = await typesFor(async () => {
			await h.api.get('/v1/vendors');
			await h.api.get(`/v1/vendors/${v.id}`);
			await h.api.get('/v1/treasury/balance');
			await h.api.post('/v1/vendors', { name: 'x' });
			await h.api.patch(`/v1/vendors/${v.id}`, { email: 'bad' });
			await h.api.post('/v1/receivables', { invoice_number: 'x', amount: 0 });
		});
		expect(types).toEqual([]);
	});

	test('event shape: {id, type, created_at, data} with data as the API returned it', async () => {
		const created = (await h.api.post('/v1/vendors', cryptoVendor())).body.data;
		const events = await h.admin.events();
		const e = events[events.length - 1];
		expect(Object.keys(e).sort()).toEqual(['created_at', 'data', 'id', 'type']);
		expect(e.id).toMatch(/^evt_/);
		expect(e.type).toBe('vendor.created');
		expectDateTime(e.created_at);
		expect(e.data).toEqual(created);
	});
});

describe('delivery', () => {
	test('body, Standard Webhooks headers and a signature that verifies with the endpoint secret', async () => {
		const ep = await createEndpoint();
		const secret = await secretOf(ep.id);
		const vendor = (await h.api.post('/v1/vendors', achVendor())).body.data;
		const [req] = await receiver.waitFor(1);
		expect(req).toBeDefined();
		expect(req.method).toBe('POST');
		expect(req.url).toBe('/hook');
		expect(req.headers['content-type']).toMatch(/^application\/json/);
		const body = JSON.parse(req.body);
		expect(Object.keys(body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
		expect(body).toMatchObject({ type: 'vendor.created', data: vendor });
		expect(req.headers['webhook-id']).toBe(body.id);
		const ts = Number(req.headers['webhook-timestamp']);
		expect(req.headers['webhook-timestamp']).toMatch(/^\d+$/);
		expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(30);
		expect(req.headers['webhook-signature']).toMatch(
			/^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$/,
		);
		// the library verifies it (throws otherwise) and returns the parsed body
		expect(new Webhook(secret).verify(req.body, req.headers)).toEqual(body);
		// and by hand, from the definition in docs/api-decisions.md (content id.timestamp.body, key = base64 after whsec_)
		expect(req.headers['webhook-signature'].split(' ')).toContain(
			`v1,${hmac(secret, req.headers['webhook-id'], req.headers['webhook-timestamp'], req.body)}`,
		);
		// the signature is over the raw body: a changed body does not verify
		expect(() =>
			new Webhook(secret).verify(req.body.replace('vendor.created', 'vendor.updated'), req.headers),
		).toThrow();
		// nor with another endpoint's secret
		const other = await createEndpoint({ disabled: true });
		const otherSecret = await secretOf(other.id);
		expect(() => new Webhook(otherSecret).verify(req.body, req.headers)).toThrow();
		// no API key or secret in the delivery
		expect(JSON.stringify(req.headers)).not.toContain(h.sb.apiKey);
		expect(req.body).not.toContain(secret);
	});

	test('filter_types: only matching types; empty means all; disabled gets nothing', async () => {
		const all = await createEndpoint({ description: 'all' });
		const onlyUpdates = await createEndpoint({ filter_types: ['vendor.updated'] });
		const disabled = await createEndpoint({ disabled: true });
		const v = (await h.api.post('/v1/vendors', achVendor())).body.data;
		await h.api.patch(`/v1/vendors/${v.id}`, { name: 'Filtered' });
		await h.api.post('/v1/receivables', receivableBody());
		const deliveries = await eventually(
			() => h.admin.deliveries(),
			(d) => d.length >= 4,
		);
		await settle(150);
		expect(deliveriesFor(deliveries, all.id).map((d) => d.event_type)).toEqual([
			'vendor.created',
			'vendor.updated',
			'receivable.created',
		]);
		expect(deliveriesFor(deliveries, onlyUpdates.id).map((d) => d.event_type)).toEqual([
			'vendor.updated',
		]);
		expect(deliveriesFor(deliveries, disabled.id)).toEqual([]);
		// what the receiver got matches the log: 3 + 1 requests, nothing for the disabled one
		expect(receiver.received.map((r) => JSON.parse(r.body).type).sort()).toEqual([
			'receivable.created',
			'vendor.created',
			'vendor.updated',
			'vendor.updated',
		]);
	});

	test('re-enabling an endpoint: later events are delivered, earlier ones are not', async () => {
		const ep = await createEndpoint({ disabled: true });
		await h.api.post('/v1/vendors', achVendor());
		await sleep(100);
		expect(receiver.received).toHaveLength(0);
		await h.api.patch(`/v1/webhooks/${ep.id}`, { disabled: false });
		await h.api.post('/v1/vendors', achVendor());
		await receiver.waitFor(1);
		await settle(150);
		expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['vendor.created']);
	});

	test('a deleted endpoint gets nothing', async () => {
		const ep = await createEndpoint();
		expect((await h.api.delete(`/v1/webhooks/${ep.id}`)).status).toBe(204);
		await h.api.post('/v1/vendors', achVendor());
		await sleep(150);
		expect(receiver.received).toHaveLength(0);
	});

	test('a non-2xx answer is redelivered with the same webhook-id; log shows each attempt', async () => {
		const ep = await createEndpoint();
		const secret = await secretOf(ep.id);
		receiver.respond = (i) => (i < 2 ? 500 : 204);
		await h.api.post('/v1/vendors', achVendor());
		await receiver.waitFor(3, 3000);
		await settle(300);
		expect(receiver.received).toHaveLength(3);
		const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
		expect(ids.size).toBe(1);
		for (const r of receiver.received)
			expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();
		// backoff: the gaps are at least the configured delays
		const t = receiver.received.map((r) => r.receivedAt);
		expect(t[1] - t[0]).toBeGreaterThanOrEqual(RETRY_DELAYS[0] - 5);
		expect(t[2] - t[1]).toBeGreaterThanOrEqual(RETRY_DELAYS[1] - 5);

		const log = deliveriesFor(await h.admin.deliveries(), ep.id);
		expect(log.map((d) => [d.attempt, d.status])).toEqual([
			[1, 500],
			[2, 500],
			[3, 204],
		]);
		for (const d of log) {
			expect(d).toMatchObject({
				event_type: 'vendor.created',
				endpoint_id: ep.id,
				url: receiver.url,
			});
			expect(d.event_id).toBe([...ids][0]);
			expectDateTime(d.delivered_at);
		}
		expect(log[0].error).toBeTruthy();
		expect(log[2].error ?? null).toBeNull();
	});

	test('redelivery is bounded: 1 + one retry per configured delay', async () => {
		const ep = await createEndpoint();
		receiver.respond = () => 503;
		await h.api.post('/v1/vendors', achVendor());
		await receiver.waitFor(RETRY_DELAYS.length + 1, 3000);
		await settle(500);
		expect(receiver.received).toHaveLength(RETRY_DELAYS.length + 1);
		const log = deliveriesFor(await h.admin.deliveries(), ep.id);
		expect(log.map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
		expect(log.every((d) => d.status === 503)).toBe(true);
	});

	test('a receiver that is down is logged with an error and retried', async () => {
		const ep = await createEndpoint();
		const url = receiver.url;
		await receiver.close();
		await h.api.post('/v1/vendors', achVendor());
		const log = await eventually(
			async () => deliveriesFor(await h.admin.deliveries(), ep.id),
			(l) => l.length >= RETRY_DELAYS.length + 1,
			3000,
		);
		expect(log.map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
		for (const d of log) {
			expect(d.url).toBe(url);
			expect(d.error).toBeTruthy();
		}
		receiver = await startReceiver();
	});

	test('a non-loopback url is logged as not delivered, not retried', async () => {
		const ep = await createEndpoint({ url: 'https://example.com/hook' });
		await h.api.post('/v1/vendors', achVendor());
		const log = await eventually(
			async () => deliveriesFor(await h.admin.deliveries(), ep.id),
			(l) => l.length >= 1,
		);
		await sleep(400);
		const again = deliveriesFor(await h.admin.deliveries(), ep.id);
		expect(again).toHaveLength(1);
		expect(log[0].error).toBeTruthy();
		expect(log[0].status ?? null).toBeNull();
	});

	test("the delivery uses the endpoint's current url", async () => {
		const ep = await createEndpoint({ url: 'http://127.0.0.1:9/unused' });
		await h.api.patch(`/v1/webhooks/${ep.id}`, { url: receiver.url });
		await h.api.post('/v1/vendors', achVendor());
		expect(await receiver.waitFor(1)).toHaveLength(1);
	});
});

describe('delivery timeouts and redeliveries to a changed endpoint', () => {
	// a second sandbox with a short attempt timeout and slower retries, so a test can act between attempts
	let slow: Harness;
	let hanging: Receiver;
	beforeAll(async () => {
		slow = await startHarness({ deliveryRetryDelaysMs: [700, 700], deliveryTimeoutMs: 400 });
	});
	afterAll(async () => {
		await hanging?.close();
		await slow?.close();
	});

	test('a receiver that does not answer in time: logged with an error, retried, bounded', async () => {
		hanging = await startReceiver();
		hanging.respond = () => 0; // handled below: never answered
		const res = await slow.api.post('/v1/webhooks', { url: hanging.url });
		expect(res.status).toBe(201);
		await slow.api.post('/v1/vendors', achVendor());
		const log = await eventually(
			async () => deliveriesFor(await slow.admin.deliveries(), res.body.data.id),
			(l) => l.length >= 3,
			8000,
		);
		expect(log.map((d) => d.attempt)).toEqual([1, 2, 3]);
		for (const d of log) expect(d.error).toBeTruthy();
		await sleep(500);
		expect(deliveriesFor(await slow.admin.deliveries(), res.body.data.id)).toHaveLength(3);
	});

	test('disabling an endpoint between attempts drops the redelivery', async () => {
		const rx = await startReceiver();
		try {
			rx.respond = () => 500;
			const ep = (await slow.api.post('/v1/webhooks', { url: rx.url })).body.data;
			await slow.api.post('/v1/vendors', achVendor());
			await rx.waitFor(1);
			expect((await slow.api.patch(`/v1/webhooks/${ep.id}`, { disabled: true })).status).toBe(200);
			await sleep(1600);
			expect(rx.received).toHaveLength(1);
			expect(deliveriesFor(await slow.admin.deliveries(), ep.id)).toHaveLength(1);
		} finally {
			await rx.close();
		}
	});

	test("a redelivery goes to the endpoint's current url", async () => {
		const first = await startReceiver();
		const second = await startReceiver();
		try {
			first.respond = () => 500;
			const ep = (await slow.api.post('/v1/webhooks', { url: first.url })).body.data;
			await slow.api.post('/v1/vendors', achVendor());
			await first.waitFor(1);
			await slow.api.patch(`/v1/webhooks/${ep.id}`, { url: second.url });
			await second.waitFor(1, 4000);
			await sleep(100);
			expect(first.received).toHaveLength(1);
			expect(second.received).toHaveLength(1);
			expect(second.received[0].headers['webhook-id']).toBe(
				first.received[0].headers['webhook-id'],
			);
		} finally {
			await first.close();
			await second.close();
		}
	});
});

describe('Standard Webhooks test vector', () => {
	// the published test vector of the Standard Webhooks specification (not a real secret)
	const publishedKey = ['whsec', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'].join('_');
	const vector = {
		secret: publishedKey,
		id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
		timestamp: 1614265330,
		body: '{"test": 2432232314}',
		signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
	};

	// sandbox/events.ts signs every delivery with exactly this call:
	// new Webhook(secret).sign(event.id, new Date(timestamp * 1000), body)
	test('the signing call the sandbox makes produces the published vector', () => {
		expect(
			new Webhook(vector.secret).sign(vector.id, new Date(vector.timestamp * 1000), vector.body),
		).toBe(vector.signature);
		expect(`v1,${hmac(vector.secret, vector.id, String(vector.timestamp), vector.body)}`).toBe(
			vector.signature,
		);
	});
});

function deliveriesFor(log: any[], endpointId: string): any[] {
	return log.filter((d) => d.endpoint_id === endpointId);
}

function hmac(secret: string, id: string, timestamp: string, body: string): string {
	const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
	return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}
