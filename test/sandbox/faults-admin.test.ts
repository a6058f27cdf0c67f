/**
 * Fault injection (500, 503, connection reset, malformed JSON, latency; count, rate, path prefix
 * and method scoping; a faulted request is not processed; clearing) and the admin routes (reset,
 * the request log with the key masked, the demo seed, removing a vendor). A custom `apiKey` is covered through
 * the CLI's --api-key in cli.test.ts.
 */
import type { FaultKind } from '../../sandbox';
import type { HttpResponse } from '../helpers/http';
import { achVendor, expectError, expectRateHeaders, useHarness, vendorTotal } from './support';

const h = useHarness({}, { resetEach: true });
const remaining = (res: HttpResponse) => expectRateHeaders(res).remaining;

describe('faults', () => {
	const failsWith = (status: number, code: string) => async (post: Promise<HttpResponse>) => {
		const res = await post;
		expectError(res, status, code);
		expectRateHeaders(res);
	};
	const malformed = async (post: Promise<HttpResponse>) => {
		const res = await post;
		expect(res.status).toBe(200);
		expect(res.text).not.toBe('');
		expect(() => JSON.parse(res.text)).toThrow();
	};
	// the socket is destroyed without an answer
	const reset = (post: Promise<HttpResponse>) => expect(post).rejects.toThrow();

	test.each<[FaultKind, (post: Promise<HttpResponse>) => Promise<void>, number]>([
		['status500', failsWith(500, 'INTERNAL_ERROR'), 500],
		['status503', failsWith(503, 'SERVICE_UNAVAILABLE'), 503],
		['malformed', malformed, 200],
		['reset', reset, 0],
	])(
		'%s fires once on the matching request, which is not processed but is logged and counted',
		async (kind, answers, loggedStatus) => {
			await h.admin.addFault({ kind, pathPrefix: '/v1/vendors', method: 'POST' });
			const before = await h.api.get('/v1/vendors'); // another method: untouched
			expect(before.status).toBe(200);
			await answers(h.api.post('/v1/vendors', achVendor()));
			const after = await h.api.post('/v1/vendors', achVendor());
			expect(after.status).toBe(201);
			expect(remaining(after)).toBe(remaining(before) - 2);
			expect((await h.admin.getEvents()).map((e) => e.type)).toEqual(['vendor.created']);
			expect(await vendorTotal(h)).toBe(1);
			const posts = (await h.admin.getRequests()).filter((r) => r.method === 'POST');
			expect(posts.map((r) => [r.path, r.status])).toEqual([
				['/v1/vendors', loggedStatus],
				['/v1/vendors', 201],
			]);
		},
	);

	test('latency: the real answer, later; the request is processed; other paths not delayed', async () => {
		// a long delay, so the check on the other path holds on a loaded machine too
		await h.admin.addFault({
			kind: 'latency',
			latencyMs: 1000,
			pathPrefix: '/v1/vendors',
			method: 'POST',
		});
		expect((await h.api.get('/v1/treasury/balance')).durationMs).toBeLessThan(1000);
		const res = await h.api.post('/v1/vendors', achVendor());
		expect(res.durationMs).toBeGreaterThanOrEqual(990);
		expect(res.status).toBe(201);
		expect(await vendorTotal(h)).toBe(1);
	});

	test('count: exactly the next N requests under the path prefix', async () => {
		await h.admin.addFault({ kind: 'status500', count: 3, pathPrefix: '/v1/vendors' });
		const statuses = [];
		for (const path of ['vendors', 'treasury/balance', 'vendors', 'vendors', 'vendors', 'vendors'])
			statuses.push((await h.api.get(`/v1/${path}`)).status);
		expect(statuses).toEqual([500, 200, 500, 500, 200, 200]);
	});

	test('rate 1 fires on every match; several faults at once; DELETE clears them all', async () => {
		const added = await h.raw.post('/_admin/faults', {
			kind: 'status503',
			rate: 1,
			pathPrefix: '/v1/treasury',
		});
		expect(added.body.data.id).toEqual(expect.any(String));
		await h.admin.addFault({ kind: 'status500', count: 5, pathPrefix: '/v1/vendors' });
		for (let i = 0; i < 4; i++) expect((await h.api.get('/v1/treasury/balance')).status).toBe(503);
		expect((await h.api.get('/v1/vendors')).status).toBe(500);
		expect((await h.raw.delete('/_admin/faults')).body).toEqual({ data: { cleared: 2 } });
		expect((await h.api.get('/v1/treasury/balance')).status).toBe(200);
		expect((await h.api.get('/v1/vendors')).status).toBe(200);
	});

	test('rate 0.5: roughly half of many requests', async () => {
		await h.admin.addFault({ kind: 'status500', rate: 0.5, pathPrefix: '/v1/treasury/balance' });
		let failed = 0;
		for (let i = 0; i < 60; i++)
			if ((await h.api.get('/v1/treasury/balance')).status === 500) failed++;
		expect(failed).toBeGreaterThan(10);
		expect(failed).toBeLessThan(50);
	});

	test('a 401 does not consume a fault', async () => {
		await h.admin.addFault({ kind: 'status500', count: 1 });
		expectError(await h.raw.get('/v1/vendors'), 401, 'MISSING_API_KEY');
		expect((await h.api.get('/v1/vendors')).status).toBe(500);
	});
});

describe('admin', () => {
	test('reset drops data, events, the request log and faults', async () => {
		await h.api.post('/v1/vendors', achVendor());
		await h.api.post('/v1/receivables', { invoice_number: 'X', amount: 1 });
		await h.admin.addFault({ kind: 'status500', rate: 1, pathPrefix: '/v1/treasury' });
		expect((await h.raw.post('/_admin/reset', {})).body).toEqual({ data: { seed: 'none' } });
		expect(await h.admin.getEvents()).toEqual([]);
		expect(await vendorTotal(h)).toBe(0);
		expect((await h.api.get('/v1/treasury/balance')).status).toBe(200);
		expect((await h.admin.getRequests()).map((r) => r.path)).toEqual([
			'/v1/vendors',
			'/v1/treasury/balance',
		]);
	});

	test('reset with demo seed: vendors of each method, transactions over 90 days, a balance', async () => {
		await h.admin.reset('demo');
		const vendors = (await h.api.get('/v1/vendors', { query: { limit: 100 } })).body.data;
		const methods = vendors.map((v: any) => v.payment_method);
		expect(new Set(methods)).toEqual(new Set(['ach', 'wire', 'crypto']));
		const txs = await h.api.get('/v1/treasury/transactions', { query: { limit: 100 } });
		expect(new Set(txs.body.data.map((t: any) => t.type)).size).toBe(3);
		const age = (Date.now() - Date.parse(txs.body.data[0].created_at)) / 86400_000;
		expect(age).toBeGreaterThan(60);
		expect(age).toBeLessThanOrEqual(91);
		const balance = await h.api.get('/v1/treasury/balance');
		expect(balance.body.data.balances.length).toBeGreaterThan(0);
	});

	test('removing a vendor: gone from the list and by id; an unknown id is 404', async () => {
		const kept = (await h.api.post('/v1/vendors', achVendor())).body.data;
		const removed = (await h.api.post('/v1/vendors', achVendor())).body.data;
		expect(await h.admin.removeVendor(removed.id)).toEqual({ total: 1 });
		const listed = (await h.api.get('/v1/vendors')).body.data.map((v: any) => v.id);
		expect(listed).toEqual([kept.id]);
		expectError(await h.api.get(`/v1/vendors/${removed.id}`), 404, 'NOT_FOUND');
		await expect(h.admin.removeVendor(removed.id)).rejects.toMatchObject({ status: 404 });
	});

	test('request log: method, path, query, body, status, headers with the key masked', async () => {
		await h.admin.clearRequests();
		await h.api.get('/v1/vendors', { query: { limit: 5, search: 'acme' } });
		await h.api.post('/v1/vendors', { name: 'Logged', payment_method: 'crypto' });
		await h.raw.get('/v1/vendors', { apiKey: h.sb.keys.expired });
		await h.raw.get('/_admin/events');
		const log = await h.admin.getRequests();
		expect(log).toHaveLength(3);
		expect(log[0]).toMatchObject({
			method: 'GET',
			path: '/v1/vendors',
			query: { limit: '5', search: 'acme' },
			status: 200,
		});
		expect(log[1]).toMatchObject({
			method: 'POST',
			body: { name: 'Logged', payment_method: 'crypto' },
			status: 400,
		});
		expect(log[2].status).toBe(401);
		expect(log[0].headers.authorization).toBe(`Bearer svc_…${h.sb.apiKey.slice(-4)}`);
		expect(JSON.stringify(log)).not.toContain(h.sb.apiKey);
		expect(JSON.stringify(log)).not.toContain(h.sb.keys.expired);
		expect((await h.raw.delete('/_admin/requests')).status).toBe(200);
		expect(await h.admin.getRequests()).toEqual([]);
	});

	test('bad admin bodies are 400, unknown admin routes 404; sb.admin rejects with the code', async () => {
		for (const [path, body] of [
			['/_admin/faults', { kind: 'explode' }],
			['/_admin/faults', {}],
			['/_admin/faults', { kind: 'status500', rate: 2 }],
			['/_admin/vendors/seed', { count: 'ten' }],
		] as const) {
			expectError(await h.raw.post(path, body), 400, 'VALIDATION_ERROR');
		}
		expectError(await h.raw.get('/_admin/nothing-here'), 404, 'NOT_FOUND');
		await expect(
			h.admin.setReceivableStatus('00000000-0000-4000-8000-000000000000', 'paid'),
		).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
	});
});
