/**
 * What the other suites do not show of the faults and the admin routes. A custom `apiKey` is
 * covered through the CLI's --api-key in cli.test.ts.
 */
import type { HttpResponse } from '../../scripts/http-client';
import { achVendor, expectError, expectRateHeaders, useHarness } from './support';

const h = useHarness({}, { resetEach: true });
const remaining = (res: HttpResponse) => expectRateHeaders(res).remaining;

// What each fault does to the node (its kinds, rate, method and path scoping, a faulted request
// not processed): test/faults/faults.test.ts.
test('a fault with a count hits exactly the next requests under its path; clearing says how many', async () => {
	await h.admin.addFault({ kind: 'status500', count: 2, pathPrefix: '/v1/vendors' });
	await h.admin.addFault({ kind: 'status500', count: 1, pathPrefix: '/v1/treasury' });
	const statuses = async () => (await h.api.get('/v1/vendors')).status;
	expect([await statuses(), await statuses(), await statuses()]).toEqual([500, 500, 200]);
	expect(await h.admin.clearFaults()).toEqual({ cleared: 1 });
	expect((await h.api.get('/v1/treasury/balance')).status).toBe(200);
});

test('a 401 does not consume a fault; the faulted request carries and counts in the rate limit', async () => {
	await h.admin.addFault({ kind: 'status500', count: 1 });
	expectError(await h.raw.get('/v1/vendors'), 401, 'MISSING_API_KEY');
	const faulted = await h.api.get('/v1/vendors');
	expectError(faulted, 500, 'INTERNAL_ERROR');
	const after = await h.api.get('/v1/vendors');
	expect(after.status).toBe(200);
	expect(remaining(after)).toBe(remaining(faulted) - 1);
});

// Reset dropping the data and the faults: every suite's beforeEach (test/node, test/faults).
test('reset drops the events and the request log', async () => {
	await h.api.post('/v1/vendors', achVendor());
	expect(await h.admin.reset('none')).toEqual({ seed: 'none' });
	expect(await h.admin.getEvents()).toEqual([]);
	expect(await h.admin.getRequests()).toEqual([]);
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

// The log's method, path, query, body and status, the working key masked, admin requests left
// out and clearing: what test/node and test/faults read from it.
test('the request log masks any key, not only the working one', async () => {
	await h.raw.get('/v1/vendors', { apiKey: h.sb.keys.expired });
	const log = await h.admin.getRequests();
	expect(log).toEqual([
		expect.objectContaining({ method: 'GET', path: '/v1/vendors', status: 401 }),
	]);
	expect(log[0].headers.authorization).toBe(`Bearer svc_…${h.sb.keys.expired.slice(-4)}`);
	expect(JSON.stringify(log)).not.toContain(h.sb.keys.expired);
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
