/**
 * Fault injection (500, 503, connection reset, malformed JSON, latency; count, rate, path prefix
 * and method scoping; a faulted create is not processed; clearing) and the admin routes (reset,
 * seeding, request log with the key masked, event log, the demo seed, the typed `sb.admin`).
 */
import { createHttpClient } from '../helpers/http';
import { achVendor, expectError, startHarness, vendorTotal, type Harness } from './support';

let h: Harness;

beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => {
	await h?.close();
});
beforeEach(async () => {
	await h.admin.reset('none');
});

describe('fault kinds', () => {
	test('status500: 500 INTERNAL_ERROR, then normal', async () => {
		const res = await h.raw.post('/_admin/faults', { kind: 'status500' });
		expect(res.status).toBeLessThan(300);
		expect(typeof res.body.data.id).toBe('string');
		expectError(await h.api.get('/v1/treasury/balance'), 500, 'INTERNAL_ERROR');
		expect((await h.api.get('/v1/treasury/balance')).status).toBe(200);
	});

	test('status503: 503 SERVICE_UNAVAILABLE', async () => {
		await h.admin.addFault({ kind: 'status503' });
		const res = await h.api.get('/v1/treasury/balance');
		expectError(res, 503, 'SERVICE_UNAVAILABLE');
		expect(res.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
		expect((await h.api.get('/v1/treasury/balance')).status).toBe(200);
	});

	test('reset: the socket is destroyed without an answer', async () => {
		await h.admin.addFault({ kind: 'reset' });
		await expect(h.api.get('/v1/treasury/balance')).rejects.toThrow();
		expect((await h.api.get('/v1/treasury/balance')).status).toBe(200);
		const log = await h.admin.requests();
		expect(log.map((r: any) => r.status)).toEqual([0, 200]);
	});

	test('malformed: 200 with a body that is not JSON', async () => {
		await h.admin.addFault({ kind: 'malformed' });
		const res = await h.api.get('/v1/treasury/balance');
		expect(res.status).toBe(200);
		expect(res.text.length).toBeGreaterThan(0);
		expect(() => JSON.parse(res.text)).toThrow();
		expect(res.body).toBeUndefined();
		expect((await h.api.get('/v1/treasury/balance')).body.data).toHaveProperty('balances');
	});

	test('latency: the real answer, later; the request is processed; other paths not delayed', async () => {
		// a long delay, so the check on the other path holds on a loaded machine too
		await h.admin.addFault({
			kind: 'latency',
			latencyMs: 1000,
			pathPrefix: '/v1/vendors',
			method: 'POST',
		});
		const quick = await h.api.get('/v1/treasury/balance');
		expect(quick.durationMs).toBeLessThan(1000);
		const res = await h.api.post('/v1/vendors', achVendor());
		expect(res.durationMs).toBeGreaterThanOrEqual(990);
		expect(res.status).toBe(201);
		expect(await vendorTotal(h)).toBe(1);
	});
});

describe('fault scoping', () => {
	test('count: exactly the next N matching requests', async () => {
		await h.admin.addFault({ kind: 'status500', count: 3 });
		const statuses = [];
		for (let i = 0; i < 5; i++) statuses.push((await h.api.get('/v1/treasury/balance')).status);
		expect(statuses).toEqual([500, 500, 500, 200, 200]);
	});

	test('pathPrefix: other paths are untouched', async () => {
		await h.admin.addFault({ kind: 'status503', count: 2, pathPrefix: '/v1/vendors' });
		expect((await h.api.get('/v1/treasury/balance')).status).toBe(200);
		expect((await h.api.get('/v1/treasury/transactions')).status).toBe(200);
		expect((await h.api.get('/v1/vendors')).status).toBe(503);
		expect((await h.api.get('/v1/treasury/balance')).status).toBe(200);
		expect((await h.api.get('/v1/vendors', { query: { limit: 5 } })).status).toBe(503);
		expect((await h.api.get('/v1/vendors')).status).toBe(200);
	});

	test('method: only that method', async () => {
		await h.admin.addFault({
			kind: 'status500',
			count: 1,
			method: 'POST',
			pathPrefix: '/v1/vendors',
		});
		expect((await h.api.get('/v1/vendors')).status).toBe(200);
		expectError(await h.api.post('/v1/vendors', achVendor()), 500, 'INTERNAL_ERROR');
		expect((await h.api.post('/v1/vendors', achVendor())).status).toBe(201);
	});

	test('rate 1: every matching request until cleared', async () => {
		await h.admin.addFault({ kind: 'status503', rate: 1, pathPrefix: '/v1/treasury' });
		for (let i = 0; i < 6; i++) expect((await h.api.get('/v1/treasury/balance')).status).toBe(503);
		expect((await h.api.get('/v1/vendors')).status).toBe(200);
		const cleared = await h.raw.delete('/_admin/faults');
		expect(cleared.status).toBeLessThan(300);
		expect((await h.api.get('/v1/treasury/balance')).status).toBe(200);
	});

	test('rate 0.5: roughly half of many requests', async () => {
		await h.admin.addFault({ kind: 'status500', rate: 0.5, pathPrefix: '/v1/treasury/balance' });
		let failed = 0;
		for (let i = 0; i < 60; i++)
			if ((await h.api.get('/v1/treasury/balance')).status === 500) failed++;
		expect(failed).toBeGreaterThan(10);
		expect(failed).toBeLessThan(50);
	});

	test('several faults at once; clearing removes all', async () => {
		await h.admin.addFault({ kind: 'status500', count: 5, pathPrefix: '/v1/vendors' });
		await h.admin.addFault({ kind: 'malformed', count: 5, pathPrefix: '/v1/treasury' });
		expect((await h.api.get('/v1/vendors')).status).toBe(500);
		expect((await h.api.get('/v1/treasury/balance')).body).toBeUndefined();
		await h.admin.clearFaults();
		expect((await h.api.get('/v1/vendors')).status).toBe(200);
		expect((await h.api.get('/v1/treasury/balance')).body.data).toBeDefined();
	});

	test('reset clears faults', async () => {
		await h.admin.addFault({ kind: 'status500', rate: 1 });
		await h.admin.reset('none');
		expect((await h.api.get('/v1/vendors')).status).toBe(200);
	});

	test('a 401 does not consume a fault', async () => {
		await h.admin.addFault({ kind: 'status500', count: 1 });
		expectError(await h.raw.get('/v1/vendors'), 401, 'MISSING_API_KEY');
		expect((await h.api.get('/v1/vendors')).status).toBe(500);
	});

	test('bad fault definitions are 400', async () => {
		for (const body of [
			{ kind: 'explode' },
			{},
			{ kind: 'status500', rate: 2 },
			{ kind: 'status500', count: -1 },
		]) {
			expect({ body, status: (await h.raw.post('/_admin/faults', body)).status }).toEqual({
				body,
				status: 400,
			});
		}
	});
});

describe('a faulted request is not processed', () => {
	test.each([['status500'], ['status503'], ['malformed'], ['reset']])(
		'%s on a create: no vendor, no event; still logged and counted',
		async (kind) => {
			await h.admin.addFault({ kind, count: 1, pathPrefix: '/v1/vendors', method: 'POST' });
			const before = Number(
				(await h.api.get('/v1/treasury/balance')).headers['x-ratelimit-remaining'],
			);
			await h.api.post('/v1/vendors', achVendor()).catch(() => undefined);
			const after = await h.api.get('/v1/treasury/balance');
			expect(Number(after.headers['x-ratelimit-remaining'])).toBe(before - 2);
			expect(await vendorTotal(h)).toBe(0);
			expect(await h.admin.events()).toEqual([]);
			const log = await h.admin.requests();
			const post = log.find((r: any) => r.method === 'POST');
			expect(post).toMatchObject({ method: 'POST', path: '/v1/vendors' });
			expect(post.status).toBe({ status500: 500, status503: 503, malformed: 200, reset: 0 }[kind]);
		},
	);

	test('a faulted receivable send changes nothing', async () => {
		const r = (
			await h.api.post('/v1/receivables', {
				invoice_number: 'F-1',
				amount: 5,
				customer_email: 'a@b.example',
			})
		).body.data;
		await h.admin.addFault({
			kind: 'status503',
			count: 1,
			pathPrefix: `/v1/receivables/${r.id}/send`,
		});
		expect((await h.api.post(`/v1/receivables/${r.id}/send`)).status).toBe(503);
		expect((await h.admin.events()).map((e: any) => e.type)).toEqual(['receivable.created']);
		const sent = await h.api.post(`/v1/receivables/${r.id}/send`);
		expect(sent.body.data.status).toBe('sent');
	});
});

describe('admin', () => {
	test('reset drops data, events and the request log', async () => {
		await h.api.post('/v1/vendors', achVendor());
		await h.api.post('/v1/receivables', { invoice_number: 'X', amount: 1 });
		expect(await vendorTotal(h)).toBe(1);
		const res = await h.raw.post('/_admin/reset', {});
		expect(res.status).toBeLessThan(300);
		expect(await h.admin.events()).toEqual([]);
		expect(await h.admin.deliveries()).toEqual([]);
		expect(await vendorTotal(h)).toBe(0);
		expect((await h.admin.requests()).length).toBe(1);
	});

	test('reset with demo seed: vendors of each method, transactions over 90 days, a webhook endpoint', async () => {
		await h.admin.reset('demo');
		const vendors = (await h.api.get('/v1/vendors', { query: { limit: 100 } })).body.data;
		expect(new Set(vendors.map((v: any) => v.payment_method))).toEqual(
			new Set(['ach', 'wire', 'crypto']),
		);
		for (const v of vendors) {
			expect(v).not.toHaveProperty('account_number');
			expect(v).not.toHaveProperty('iban');
		}
		const txs = await h.api.get('/v1/treasury/transactions', { query: { limit: 100 } });
		expect(txs.body.meta.total).toBeGreaterThan(10);
		const first = Date.parse(txs.body.data[0].created_at);
		expect(Date.now() - first).toBeGreaterThan(60 * 86400_000);
		expect(Date.now() - first).toBeLessThanOrEqual(91 * 86400_000);
		expect(new Set(txs.body.data.map((t: any) => t.type)).size).toBeGreaterThan(1);
		const balance = await h.api.get('/v1/treasury/balance');
		expect(balance.body.data.balances.length).toBeGreaterThan(0);
		const events = await h.admin.events();
		expect(Array.isArray(events)).toBe(true);
	});

	test('request log: method, path, query, body, status, headers with the key masked', async () => {
		await h.admin.clearRequests();
		await h.api.get('/v1/vendors', { query: { limit: 5, search: 'acme' } });
		await h.api.post('/v1/vendors', { name: 'Logged', payment_method: 'crypto' });
		await h.raw.get('/v1/vendors', { apiKey: h.sb.keys.expired });
		await h.raw.get('/_admin/events');
		const log = await h.admin.requests();
		expect(log).toHaveLength(3);
		expect(log[0]).toMatchObject({
			method: 'GET',
			path: '/v1/vendors',
			query: { limit: '5', search: 'acme' },
			status: 200,
		});
		expect(log[1]).toMatchObject({
			method: 'POST',
			path: '/v1/vendors',
			body: { name: 'Logged', payment_method: 'crypto' },
			status: 400,
		});
		expect(log[2].status).toBe(401);
		expect(log[0].headers.authorization).toBe(`Bearer svc_…${h.sb.apiKey.slice(-4)}`);
		const text = JSON.stringify(log);
		expect(text).not.toContain(h.sb.apiKey);
		expect(text).not.toContain(h.sb.keys.expired);
		const cleared = await h.raw.delete('/_admin/requests');
		expect(cleared.status).toBeLessThan(300);
		expect(await h.admin.requests()).toEqual([]);
	});

	test('admin routes need no API key; unknown admin routes are 404', async () => {
		expect((await h.raw.get('/_admin/events')).status).toBe(200);
		expectError(await h.raw.get('/_admin/nothing-here'), 404, 'NOT_FOUND');
	});

	test('seed: {added, total}; bad count 400', async () => {
		const res = await h.raw.post('/_admin/vendors/seed', { count: 25 });
		expect(res.body).toEqual({ data: { added: 25, total: 25 } });
		expect((await h.raw.post('/_admin/vendors/seed', { count: -1 })).status).toBe(400);
		expect((await h.raw.post('/_admin/vendors/seed', { count: 'ten' })).status).toBe(400);
	});

	test('the typed sb.admin client drives the same routes', async () => {
		const admin = h.sb.admin;
		await admin.seedVendors(3);
		expect(await vendorTotal(h)).toBe(3);
		await admin.reset('none');
		expect(await vendorTotal(h)).toBe(0);
		await admin.addFault({ kind: 'status500', count: 1 });
		expect((await h.api.get('/v1/vendors')).status).toBe(500);
		await expect(
			admin.setPayableStatus('00000000-0000-4000-8000-000000000000', 'paid'),
		).rejects.toThrow();
	});

	test('the sandbox answers on its base URL and closes cleanly', async () => {
		const other = await startHarness();
		const url = other.sb.baseUrl;
		expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect((await other.api.get('/v1/vendors')).status).toBe(200);
		await other.close();
		await expect(
			createHttpClient(url, { apiKey: other.sb.apiKey }).get('/v1/vendors'),
		).rejects.toThrow();
	});

	test('a custom apiKey option is the working key', async () => {
		const customKey = ['svc', 'custom_test_key_9876'].join('_');
		const other = await startHarness({ apiKey: customKey });
		try {
			expect(other.sb.apiKey).toBe(customKey);
			expect((await other.api.get('/v1/vendors')).status).toBe(200);
			expectError(
				await other.raw.get('/v1/vendors', { apiKey: 'svc_sandbox_demo_key' }),
				401,
				'INVALID_API_KEY',
			);
		} finally {
			await other.close();
		}
	});
});
