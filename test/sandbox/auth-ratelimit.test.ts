/**
 * Authentication and per-key fixed-window rate limiting (docs/api-decisions.md, sandbox/API.md).
 * The `startSandbox` rate-limit options are covered through the CLI flags in cli.test.ts.
 */
import { expectError, expectRateHeaders, useHarness } from './support';

const h = useHarness({}, { resetEach: true });
beforeEach(async () => {
	await h.admin.setRateLimit({ limit: 100, windowSeconds: 60, retryAfter: false });
});

describe('authentication', () => {
	test('the working key, with the Bearer scheme in any case', async () => {
		expect(h.sb.keys.valid).toBe(h.sb.apiKey);
		for (const scheme of ['Bearer', 'bearer']) {
			const authorization = `${scheme} ${h.sb.apiKey}`;
			expect((await h.raw.get('/v1/vendors', { headers: { authorization } })).status).toBe(200);
		}
	});

	test.each([
		[undefined, 'MISSING_API_KEY'],
		['', 'MISSING_API_KEY'],
		['svc_sandbox_demo_key', 'MISSING_API_KEY'],
		['Basic svc_sandbox_demo_key', 'MISSING_API_KEY'],
		['Bearer', 'MISSING_API_KEY'],
		['Bearer ', 'MISSING_API_KEY'],
		['Bearer svc_not_a_real_key_123456', 'INVALID_API_KEY'],
		['Bearer sk_sandbox_demo_key', 'INVALID_API_KEY'],
		['Bearer svc_sandbox_revoked_key', 'INVALID_API_KEY'],
		['Bearer svc_sandbox_expired_key', 'API_KEY_EXPIRED'],
	])(
		'Authorization %j: 401 %s with the rate-limit headers, the key not echoed',
		async (authorization, code) => {
			const res = await h.raw.get('/v1/vendors', {
				headers: authorization === undefined ? {} : { authorization },
			});
			expectError(res, 401, code);
			expectRateHeaders(res);
			const key = /\w+_\w+_\w+/.exec(authorization ?? '')?.[0];
			if (key) expect(res.text).not.toContain(key);
		},
	);

	test('a body is neither parsed nor validated before the key is checked', async () => {
		const broken = {
			rawBody: '{"invoice_number":',
			headers: { 'content-type': 'application/json' },
		};
		expectError(await h.raw.post('/v1/receivables', undefined, broken), 401, 'MISSING_API_KEY');
		const expired = { apiKey: h.sb.keys.expired };
		const invalid = await h.raw.post('/v1/receivables', { amount: -1 }, expired);
		expectError(invalid, 401, 'API_KEY_EXPIRED');
	});

	// Authentication is one hook in front of every route (sandbox/server.ts), before routing and
	// validation: a route of each resource and method, a route that does not exist and a query
	// out of bounds show that nothing escapes it.
	const id = '00000000-0000-4000-8000-000000000000';
	test.each([
		['POST', `/v1/receivables/${id}/send`],
		['GET', '/v1/vendors'],
		['PATCH', `/v1/payables/${id}`],
		['GET', '/v1/treasury/transactions'],
		['DELETE', '/v1/webhooks/ep_x'],
		['GET', '/v1/webhooks/ep_x/secret'],
		['GET', '/v1/no-such-route'],
		['GET', '/v1/vendors?limit=1000'],
	])('%s %s requires the key', async (method, path) => {
		const body = method === 'POST' || method === 'PATCH' ? { body: {} } : {};
		expectError(await h.raw.request(method, path, body), 401, 'MISSING_API_KEY');
	});
});

describe('rate limiting', () => {
	test('every response carries X-RateLimit-*; Remaining counts down; Reset is near-future Unix seconds; then 429 without Retry-After', async () => {
		await h.admin.setRateLimit({ limit: 5, windowSeconds: 30 });
		const responses = [
			await h.api.get('/v1/vendors'), // 200
			await h.api.get('/v1/vendors', { query: { limit: 0 } }), // 400
			await h.api.patch('/v1/vendors/00000000-0000-4000-8000-000000000000', { name: 'x' }), // 404
			await h.api.get('/v1/nope'), // 404, no such route
			await h.api.delete('/v1/vendors'), // 405
		];
		expect(responses.map((r) => r.status)).toEqual([200, 400, 404, 404, 405]);
		const now = Math.floor(Date.now() / 1000);
		const seen = responses.map(expectRateHeaders);
		expect(seen.map((s) => s.limit)).toEqual([5, 5, 5, 5, 5]);
		expect(seen.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0]);
		// the window's end, not its start (seconds, at most one window ahead: cli.test.ts)
		expect(Math.min(...seen.map((s) => s.reset))).toBeGreaterThanOrEqual(now);
		const limited = await h.api.get('/v1/vendors');
		expectError(limited, 429, 'RATE_LIMITED');
		expect(limited.body.error.message.toLowerCase()).toContain('slow down');
		expect(expectRateHeaders(limited)).toMatchObject({ limit: 5, remaining: 0 });
		expect(limited.headers['retry-after']).toBeUndefined();
		// one fixed window: the reset time does not move while it lasts
		expect(new Set([...seen, expectRateHeaders(limited)].map((s) => s.reset)).size).toBe(1);
	});

	// A new window after the reset: test/faults/faults.test.ts (the default budget waits for it).
	test("the limit is per key: other keys do not use up the working key's window", async () => {
		await h.admin.setRateLimit({ limit: 3, windowSeconds: 60 });
		for (let i = 0; i < 6; i++) {
			const res = await h.raw.get('/v1/vendors', { apiKey: 'svc_someone_else_entirely' });
			expectError(res, 401, 'INVALID_API_KEY');
		}
		const res = await h.api.get('/v1/vendors');
		expect(res.status).toBe(200);
		expect(expectRateHeaders(res)).toMatchObject({ limit: 3, remaining: 2 });
	});

	test('Retry-After when enabled: whole seconds on the 429 only; admin routes not limited; reset clears counters', async () => {
		await h.admin.setRateLimit({ limit: 1, windowSeconds: 5, retryAfter: true });
		const first = await h.api.get('/v1/vendors');
		expect(first.status).toBe(200);
		expect(first.headers['retry-after']).toBeUndefined();
		const limited = await h.api.get('/v1/vendors');
		expectError(limited, 429, 'RATE_LIMITED');
		expect(limited.headers['retry-after']).toMatch(/^[1-5]$/);
		for (let i = 0; i < 5; i++) expect((await h.raw.get('/_admin/events')).status).toBe(200);
		await h.admin.reset('none');
		expect((await h.api.get('/v1/vendors')).status).toBe(200);
	});
});
