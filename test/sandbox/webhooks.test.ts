/**
 * Webhook endpoints (GET/PATCH of the spec, assumed POST/DELETE/secret) and what the trigger
 * relies on in a delivery: the event shape, the Standard Webhooks headers and a signature checked
 * with the `standardwebhooks` library and by hand, filter_types and disabled endpoints,
 * redelivery (same webhook-id, bounded) and the delivery log. How the trigger handles real
 * deliveries is tested in test/trigger/attack.test.ts and test/trigger/webhook.test.ts.
 */
import { createHmac, randomUUID } from 'crypto';
import type { IncomingHttpHeaders } from 'http';
import { Webhook } from 'standardwebhooks';

import { RESOURCE_FIELDS } from '../../nodes/BusinessFinance/helpers/resourceFields';
import type { DeliveryRecord } from '../../sandbox';
import { bodyOf, scriptedServer } from '../helpers/scripted-server';
import {
	achVendor,
	eventually,
	expectDateTime,
	expectError,
	expectOnlyFields,
	expectValidationError,
	receivableBody,
	sleep,
	useHarness,
	type Harness,
} from './support';

interface Receiver {
	url: string;
	received: Array<{ headers: Record<string, string>; body: string; at: number }>;
	/** The status for the n-th delivery (0-based); 0 = never answer. */
	status: (index: number) => number;
	close(): Promise<void>;
}

/** A loopback receiver (test/helpers/scripted-server.ts) that records every delivery. */
async function startReceiver(): Promise<Receiver> {
	const received: Receiver['received'] = [];
	const server = await scriptedServer((req, res, index) => {
		void bodyOf(req).then((body) => {
			received.push({ headers: flat(req.headers), body: body.toString('utf8'), at: Date.now() });
			const status = receiver.status(index);
			if (status !== 0) res.writeHead(status).end();
		});
	});
	const receiver: Receiver = {
		url: `${server.baseUrl}/hook`,
		received,
		status: () => 200,
		close: () => server.close(),
	};
	return receiver;
}

const flat = (headers: IncomingHttpHeaders): Record<string, string> =>
	Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));

const RETRY_DELAYS = [50, 100, 200];

const h = useHarness({ deliveryRetryDelaysMs: RETRY_DELAYS }, { resetEach: true });
let receiver: Receiver;
beforeEach(async () => {
	await receiver?.close();
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver?.close();
});

async function createEndpoint(body: Record<string, unknown> = {}, on: Harness = h) {
	const res = await on.api.post('/v1/webhooks', { url: receiver.url, ...body });
	expect(res.status).toBe(201);
	return res.body.data as Record<string, any>;
}

async function secretOf(id: string): Promise<string> {
	const res = await h.api.get(`/v1/webhooks/${id}/secret`);
	expect(res.status).toBe(200);
	return res.body.data.secret;
}

/** Waits until `rx` receives no new delivery for `quietMs`. */
async function settle(rx: Receiver = receiver, quietMs = 300): Promise<void> {
	let last = -1;
	while (last !== rx.received.length) {
		last = rx.received.length;
		await sleep(quietMs);
	}
}

async function deliveriesTo(endpointId: string, on: Harness = h): Promise<DeliveryRecord[]> {
	return (await on.admin.getDeliveries()).filter((d) => d.endpoint_id === endpointId);
}

/** Waits for `count` deliveries to reach `rx`; resolves to all it received. */
const arrivals = (count: number, rx: Receiver = receiver) =>
	eventually(
		async () => rx.received,
		(r) => r.length >= count,
	);

/** Waits for `count` attempts to `endpointId` in the delivery log; resolves to them. */
const logged = (endpointId: string, count: number, on: Harness = h) =>
	eventually(
		() => deliveriesTo(endpointId, on),
		(l) => l.length >= count,
	);

/** `v1,<base64>` as docs/api-decisions.md defines it: HMAC-SHA256 of `id.timestamp.body`. */
function hmac(secret: string, id: string, timestamp: string, body: string): string {
	const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
	return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

describe('webhook endpoints', () => {
	test('create with the defaults, get, patch, secret, delete', async () => {
		const created = await h.api.post('/v1/webhooks', { url: receiver.url });
		expect(created.status).toBe(201);
		const ep = created.body.data;
		expectOnlyFields(ep, RESOURCE_FIELDS.webhookEndpoint);
		expect(ep).toMatchObject({ url: receiver.url, description: '', filter_types: [] });
		expect(ep).toMatchObject({ id: expect.stringMatching(/^ep_/), disabled: false });
		expectDateTime(ep.created_at);
		expect((await h.api.get(`/v1/webhooks/${ep.id}`)).body).toEqual({ data: ep });

		const changes = {
			url: 'http://localhost:9/other',
			description: 'Renamed',
			filter_types: ['vendor.created'],
			disabled: true,
		};
		const patched = await h.api.patch(`/v1/webhooks/${ep.id}`, changes);
		expect(patched.body.data).toEqual({ ...ep, ...changes, updated_at: expect.any(String) });
		const partial = await h.api.patch(`/v1/webhooks/${ep.id}`, { disabled: false });
		expect(partial.body.data).toMatchObject({ ...changes, disabled: false });

		const secret = await secretOf(ep.id);
		expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
		expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
		expect(await secretOf(ep.id)).toBe(secret);
		expect([created.text, patched.text, partial.text].join()).not.toContain('whsec_');

		const deleted = await h.api.delete(`/v1/webhooks/${ep.id}`);
		expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 204, text: '' });
		expectError(await h.api.get(`/v1/webhooks/${ep.id}`), 404, 'NOT_FOUND');
		expectError(await h.api.get(`/v1/webhooks/${ep.id}/secret`), 404, 'NOT_FOUND');
		expectError(await h.api.get(`/v1/webhooks/${randomUUID()}`), 404, 'NOT_FOUND');
	});

	test.each<[string, Record<string, unknown>, string]>([
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
	])('POST with %s: 400 naming the field', async (_label, overrides, field) => {
		const body = JSON.parse(JSON.stringify({ url: receiver.url, ...overrides })); // drops undefined
		expectValidationError(await h.api.post('/v1/webhooks', body), field);
	});

	test('PATCH refuses null and an empty body (other values as for POST); the endpoint is unchanged', async () => {
		const ep = await createEndpoint();
		const patch = (body: object) => h.api.patch(`/v1/webhooks/${ep.id}`, body);
		expectValidationError(await patch({ disabled: null }), 'disabled');
		expectValidationError(await patch({}), 'field');
		expect((await h.api.get(`/v1/webhooks/${ep.id}`)).body.data).toEqual(ep);
	});
});

describe('delivery', () => {
	test('the event as logged, Standard Webhooks headers, a signature over the raw body', async () => {
		const ep = await createEndpoint();
		const secret = await secretOf(ep.id);
		const vendor = (await h.api.post('/v1/vendors', achVendor())).body.data;
		const [req] = await arrivals(1);
		expect(req.headers['content-type']).toMatch(/^application\/json/);
		const event = JSON.parse(req.body);
		expect(Object.keys(event).sort()).toEqual(['created_at', 'data', 'id', 'type']);
		expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'vendor.created' });
		expect(event.data).toEqual(vendor);
		expectDateTime(event.created_at);
		expect(await h.admin.getEvents()).toEqual([event]);

		expect(req.headers['webhook-id']).toBe(event.id);
		expect(req.headers['webhook-timestamp']).toMatch(/^\d+$/);
		expect(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
		expect(new Webhook(secret).verify(req.body, req.headers)).toEqual(event);
		const { 'webhook-id': id, 'webhook-timestamp': ts } = req.headers;
		expect(req.headers['webhook-signature'].split(' ')).toContain(
			`v1,${hmac(secret, id, ts, req.body)}`,
		);
		const changed = req.body.replace('vendor.created', 'vendor.updated');
		expect(() => new Webhook(secret).verify(changed, req.headers)).toThrow();
		const other = await secretOf((await createEndpoint({ disabled: true })).id);
		expect(() => new Webhook(other).verify(req.body, req.headers)).toThrow();
		expect(JSON.stringify(req)).not.toContain(h.sb.apiKey);
	});

	test('filter_types (empty = all); disabled and deleted endpoints and refused requests get nothing', async () => {
		const all = await createEndpoint();
		const onlyUpdates = await createEndpoint({ filter_types: ['vendor.updated'] });
		const disabled = await createEndpoint({ disabled: true });
		const deleted = await createEndpoint();
		await h.api.delete(`/v1/webhooks/${deleted.id}`);
		const v = (await h.api.post('/v1/vendors', achVendor())).body.data;
		await h.api.get(`/v1/vendors/${v.id}`);
		expect((await h.api.post('/v1/vendors', { name: 'x' })).status).toBe(400);
		expect((await h.api.patch(`/v1/vendors/${v.id}`, { email: 'bad' })).status).toBe(400);
		await h.api.patch(`/v1/vendors/${v.id}`, { name: 'Filtered' });
		await h.api.post('/v1/receivables', receivableBody());
		await arrivals(4);
		// re-enabled, an endpoint gets the later events only
		await h.api.patch(`/v1/webhooks/${disabled.id}`, { disabled: false });
		await h.api.post('/v1/receivables', receivableBody());
		await settle();

		const typesTo = async (ep: Record<string, any>) =>
			(await deliveriesTo(ep.id)).map((d) => d.event_type);
		expect(await typesTo(all)).toEqual([
			'vendor.created',
			'vendor.updated',
			'receivable.created',
			'receivable.created',
		]);
		expect(await typesTo(onlyUpdates)).toEqual(['vendor.updated']);
		expect(await typesTo(disabled)).toEqual(['receivable.created']);
		expect(await typesTo(deleted)).toEqual([]);
		expect(receiver.received).toHaveLength(6);
	});

	test('a non-2xx answer is redelivered after each delay with the same webhook-id; each attempt logged', async () => {
		const ep = await createEndpoint();
		const secret = await secretOf(ep.id);
		receiver.status = (i) => (i < 2 ? 500 : 204);
		await h.api.post('/v1/vendors', achVendor());
		await arrivals(3);
		await settle();
		const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
		expect({ deliveries: receiver.received.length, ids: ids.size }).toEqual({
			deliveries: 3,
			ids: 1,
		});
		for (const r of receiver.received) new Webhook(secret).verify(r.body, r.headers);
		const t = receiver.received.map((r) => r.at);
		expect(t[1] - t[0]).toBeGreaterThanOrEqual(RETRY_DELAYS[0] - 5);
		expect(t[2] - t[1]).toBeGreaterThanOrEqual(RETRY_DELAYS[1] - 5);

		const log = await deliveriesTo(ep.id);
		expect(log.map((d) => [d.attempt, d.status, Boolean(d.error)])).toEqual([
			[1, 500, true],
			[2, 500, true],
			[3, 204, false],
		]);
		for (const d of log) {
			expect(d).toMatchObject({
				event_id: [...ids][0],
				event_type: 'vendor.created',
				url: receiver.url,
			});
			expectDateTime(d.delivered_at);
		}
	});

	test('a receiver that is down: each attempt logged with an error, 1 + one retry per delay', async () => {
		const ep = await createEndpoint();
		await receiver.close();
		await h.api.post('/v1/vendors', achVendor());
		await logged(ep.id, 4);
		await sleep(2 * RETRY_DELAYS[2]);
		const log = await deliveriesTo(ep.id);
		expect(log.map((d) => [d.attempt, Boolean(d.error)])).toEqual(
			[1, 2, 3, 4].map((a) => [a, true]),
		);
		receiver = await startReceiver();
	});

	test('a non-loopback url is logged once as not delivered', async () => {
		const ep = await createEndpoint({ url: 'https://example.com/hook' });
		await h.api.post('/v1/vendors', achVendor());
		await logged(ep.id, 1);
		await sleep(2 * RETRY_DELAYS[2]);
		const log = await deliveriesTo(ep.id);
		expect(log).toEqual([expect.objectContaining({ attempt: 1, error: expect.any(String) })]);
		expect(log[0].status).toBeUndefined();
	});
});

describe('attempt timeout, and redeliveries to a changed endpoint', () => {
	// a short attempt timeout and slower retries, so a test can act between attempts
	const slow = useHarness({ deliveryRetryDelaysMs: [700, 700], deliveryTimeoutMs: 400 });

	test('an attempt that times out is logged with an error; disabling the endpoint drops the redelivery', async () => {
		receiver.status = () => 0; // never answers
		const ep = await createEndpoint({}, slow);
		await slow.api.post('/v1/vendors', achVendor());
		const [first] = await logged(ep.id, 1, slow);
		expect(first).toMatchObject({ attempt: 1, error: expect.stringContaining('timed out') });
		expect((await slow.api.patch(`/v1/webhooks/${ep.id}`, { disabled: true })).status).toBe(200);
		await sleep(1200);
		expect(receiver.received).toHaveLength(1);
		expect(await deliveriesTo(ep.id, slow)).toHaveLength(1);
	});

	test("a redelivery goes to the endpoint's current url", async () => {
		const second = await startReceiver();
		try {
			receiver.status = () => 500;
			const ep = await createEndpoint({}, slow);
			await slow.api.post('/v1/vendors', achVendor());
			await arrivals(1);
			await slow.api.patch(`/v1/webhooks/${ep.id}`, { url: second.url });
			await arrivals(1, second);
			await sleep(100);
			expect([receiver.received.length, second.received.length]).toEqual([1, 1]);
			const id = (r: Receiver) => r.received[0].headers['webhook-id'];
			expect(id(second)).toBe(id(receiver));
		} finally {
			await second.close();
		}
	});
});
