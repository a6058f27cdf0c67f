/**
 * Webhook endpoints (GET/PATCH of the spec, assumed POST/DELETE/secret) and what the trigger
 * relies on in a delivery; the trigger's side: test/trigger/attack.test.ts and webhook.test.ts.
 */
import type { IncomingHttpHeaders } from 'http';
import { Webhook } from 'standardwebhooks';

import { DOCUMENTED_FIELDS } from '../helpers/documented-fields';
import type { DeliveryRecord } from '../../sandbox';
import { pollUntil } from '../../scripts/poll';
import { bodyOf, scriptedServer } from '../helpers/scripted-server';
import {
	achVendor,
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

async function deliveriesTo(endpointId: string, on: Harness = h): Promise<DeliveryRecord[]> {
	return (await on.admin.getDeliveries()).filter((d) => d.endpoint_id === endpointId);
}

const arrivals = (count: number, rx: Receiver = receiver) =>
	pollUntil(
		`${count} deliveries`,
		async () => rx.received.length >= count && rx.received,
		5000,
		20,
	);

const logged = (endpointId: string, count: number, on: Harness = h) =>
	pollUntil(
		`${count} attempts in the delivery log`,
		async () => {
			const log = await deliveriesTo(endpointId, on);
			return log.length >= count && log;
		},
		5000,
		20,
	);

describe('webhook endpoints', () => {
	// Get, patch (partial), a stable secret and delete as the trigger uses them: test/trigger.
	test('create with the defaults; the secret: 24 bytes, in no other answer; delete', async () => {
		const created = await h.api.post('/v1/webhooks', { url: receiver.url });
		expect(created.status).toBe(201);
		const ep = created.body.data;
		expectOnlyFields(ep, DOCUMENTED_FIELDS.webhookEndpoint);
		expect(ep).toMatchObject({ url: receiver.url, description: '', filter_types: [] });
		expect(ep).toMatchObject({ id: expect.stringMatching(/^ep_/), disabled: false });
		expectDateTime(ep.created_at);
		const patched = await h.api.patch(`/v1/webhooks/${ep.id}`, { disabled: true });
		const secret = await secretOf(ep.id);
		expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
		expect([created.text, patched.text].join()).not.toContain('whsec_');
		const deleted = await h.api.delete(`/v1/webhooks/${ep.id}`);
		expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 204, text: '' });
		expectError(await h.api.get(`/v1/webhooks/${ep.id}/secret`), 404, 'NOT_FOUND');
	});

	// The schema's other rules are ajv's; these rows pin the fields the trigger sends.
	test.each<[string, Record<string, unknown>, string]>([
		['url missing', { url: undefined }, 'url'],
		['url relative', { url: '/hook' }, 'url'],
		['url not http', { url: 'ftp://127.0.0.1/hook' }, 'url'],
		['filter_types unknown type', { filter_types: ['vendor.deleted'] }, 'filter_types'],
		['filter_types wildcard', { filter_types: ['*'] }, 'filter_types'],
		['disabled null', { disabled: null }, 'disabled'],
		['unknown field', { secret: 'whsec_abc' }, 'secret'],
	])('POST with %s: 400 naming the field', async (_label, overrides, field) => {
		const body = JSON.parse(JSON.stringify({ url: receiver.url, ...overrides })); // drops undefined
		expectValidationError(await h.api.post('/v1/webhooks', body), field);
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
		// the reference implementation of docs/api-decisions.md's signature, over the raw body
		expect(new Webhook(secret).verify(req.body, req.headers)).toEqual(event);
		const other = await secretOf((await createEndpoint({ disabled: true })).id);
		expect(() => new Webhook(other).verify(req.body, req.headers)).toThrow();
		expect(JSON.stringify(req)).not.toContain(h.sb.apiKey);
	});

	test('filter_types (empty = all); disabled and deleted endpoints and refused requests get nothing; a non-loopback url is logged once, not delivered', async () => {
		const all = await createEndpoint();
		const remote = await createEndpoint({ url: 'https://example.com/hook' });
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
		await arrivals(6);
		await sleep(300); // and nothing more arrives

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
		const refused = (await deliveriesTo(remote.id)).map((d) => [d.attempt, d.status, d.error]);
		expect(refused).toEqual(Array(4).fill([1, undefined, expect.any(String)])); // none retried
	});

	test('a non-2xx answer, then a receiver that is down: one redelivery per delay, same webhook-id, each attempt logged', async () => {
		const ep = await createEndpoint();
		const secret = await secretOf(ep.id);
		receiver.status = () => 500;
		await h.api.post('/v1/vendors', achVendor());
		const [first, second] = await arrivals(2);
		await receiver.close(); // the later attempts fail on the network
		expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
		for (const r of [first, second]) new Webhook(secret).verify(r.body, r.headers);
		expect(second.at - first.at).toBeGreaterThanOrEqual(RETRY_DELAYS[0] - 5);

		await logged(ep.id, 4);
		await sleep(2 * RETRY_DELAYS[2]); // and no fifth attempt
		const log = await deliveriesTo(ep.id);
		expect(log.map((d) => [d.attempt, Boolean(d.error)])).toEqual(
			[1, 2, 3, 4].map((a) => [a, true]),
		);
		expect(new Set(log.map((d) => d.event_id))).toEqual(new Set([first.headers['webhook-id']]));
		expect(log[0]).toMatchObject({ event_type: 'vendor.created', url: receiver.url, status: 500 });
		expect(log[3].status).toBeUndefined(); // no answer at all
		for (const d of log) expectDateTime(d.delivered_at);
	});
});

describe('attempt timeout, and redeliveries to a changed endpoint', () => {
	// a short attempt timeout and slower retries, so a test can act between attempts
	const slow = useHarness({ deliveryRetryDelaysMs: [700, 700], deliveryTimeoutMs: 400 });

	test('a timed-out attempt is logged; the redelivery goes to the current url; disabling drops the next', async () => {
		receiver.status = () => 0; // never answers
		const second = await startReceiver();
		second.status = () => 500;
		try {
			const ep = await createEndpoint({}, slow);
			await slow.api.post('/v1/vendors', achVendor());
			const [first] = await logged(ep.id, 1, slow);
			expect(first).toMatchObject({ attempt: 1, error: expect.stringContaining('timed out') });
			await slow.api.patch(`/v1/webhooks/${ep.id}`, { url: second.url });
			const [redelivered] = await arrivals(1, second);
			expect(redelivered.headers['webhook-id']).toBe(first.event_id);
			await slow.api.patch(`/v1/webhooks/${ep.id}`, { disabled: true });
			await sleep(1200);
			expect([receiver.received.length, second.received.length]).toEqual([1, 1]);
			expect(await deliveriesTo(ep.id, slow)).toHaveLength(2);
		} finally {
			await second.close();
		}
	});
});
