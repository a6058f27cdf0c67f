/**
 * Authentication and per-key fixed-window rate limiting (docs/api-decisions.md, sandbox/API.md), over real HTTP against the in-process sandbox.
 */
import { createHttpClient, type HttpResponse } from '../helpers/http';
import { expectError, sleep, startHarness, type Harness } from './support';

let h: Harness;

beforeAll(async () => {
	h = await startHarness({ rateLimit: 100, rateWindowSeconds: 60 });
});
afterAll(async () => {
	await h?.close();
});
beforeEach(async () => {
	await h.admin.reset('none');
	await h.admin.rateLimit({ limit: 100, windowSeconds: 60, retryAfter: false });
});

function expectRateHeaders(res: HttpResponse): { limit: number; remaining: number; reset: number } {
	for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
		expect(res.headers[name]).toMatch(/^\d+$/);
	}
	return {
		limit: Number(res.headers['x-ratelimit-limit']),
		remaining: Number(res.headers['x-ratelimit-remaining']),
		reset: Number(res.headers['x-ratelimit-reset']),
	};
}

describe('authentication', () => {
	test('the working key is accepted', async () => {
		expect(h.sb.apiKey).toMatch(/^svc_/);
		expect(h.sb.keys.valid).toBe(h.sb.apiKey);
		const res = await h.api.get('/v1/vendors');
		expect(res.status).toBe(200);
	});

	test('no Authorization header: 401 MISSING_API_KEY', async () => {
		const res = await h.raw.get('/v1/vendors');
		expectError(res, 401, 'MISSING_API_KEY');
	});

	test('an unknown key: 401 INVALID_API_KEY', async () => {
		const unknownKey = ['svc', 'not_a_real_key_123456'].join('_');
		const res = await h.raw.get('/v1/vendors', { apiKey: unknownKey });
		expectError(res, 401, 'INVALID_API_KEY');
	});

	test('a key without the svc_ prefix: 401 INVALID_API_KEY', async () => {
		const res = await h.raw.get('/v1/vendors', { apiKey: h.sb.apiKey.replace(/^svc_/, 'sk_') });
		expectError(res, 401, 'INVALID_API_KEY');
	});

	test('the revoked key: 401 INVALID_API_KEY', async () => {
		expect(h.sb.keys.revoked).toBe('svc_sandbox_revoked_key');
		const res = await h.raw.get('/v1/vendors', { apiKey: h.sb.keys.revoked });
		expectError(res, 401, 'INVALID_API_KEY');
	});

	test('the expired key: 401 API_KEY_EXPIRED', async () => {
		expect(h.sb.keys.expired).toBe('svc_sandbox_expired_key');
		const res = await h.raw.get('/v1/vendors', { apiKey: h.sb.keys.expired });
		expectError(res, 401, 'API_KEY_EXPIRED');
	});

	test('a header that is not "Bearer <token>": 401 MISSING_API_KEY', async () => {
		for (const authorization of [h.sb.apiKey, `Basic ${h.sb.apiKey}`, 'Bearer', 'Bearer ', '']) {
			const res = await h.raw.get('/v1/vendors', { headers: { authorization } });
			expect({ authorization, status: res.status, code: res.body?.error?.code }).toEqual({
				authorization,
				status: 401,
				code: 'MISSING_API_KEY',
			});
		}
	});

	test('the Bearer scheme is case-insensitive', async () => {
		const res = await h.raw.get('/v1/vendors', {
			headers: { authorization: `bearer ${h.sb.apiKey}` },
		});
		expect(res.status).toBe(200);
	});

	test('error messages never echo the key', async () => {
		for (const apiKey of [h.sb.keys.expired, h.sb.keys.revoked, 'svc_wrong_value_abcdef']) {
			const res = await h.raw.get('/v1/vendors', { apiKey });
			expect(res.status).toBe(401);
			expect(res.text).not.toContain(apiKey);
		}
	});

	test('authentication is checked before routing, validation and body parsing', async () => {
		expectError(await h.raw.get('/v1/no-such-route'), 401, 'MISSING_API_KEY');
		expectError(await h.raw.get('/v1/vendors', { query: { limit: 1000 } }), 401, 'MISSING_API_KEY');
		expectError(
			await h.raw.post('/v1/receivables', undefined, {
				rawBody: '{"invoice_number":',
				headers: { 'content-type': 'application/json' },
			}),
			401,
			'MISSING_API_KEY',
		);
		expectError(
			await h.raw.post('/v1/receivables', { amount: -1 }, { apiKey: h.sb.keys.expired }),
			401,
			'API_KEY_EXPIRED',
		);
	});

	test('every endpoint requires the key', async () => {
		const id = '00000000-0000-4000-8000-000000000000';
		const calls: Array<[string, string]> = [
			['POST', '/v1/receivables'],
			['PATCH', `/v1/receivables/${id}`],
			['POST', `/v1/receivables/${id}/send`],
			['POST', '/v1/vendors'],
			['GET', '/v1/vendors'],
			['GET', `/v1/vendors/${id}`],
			['PATCH', `/v1/vendors/${id}`],
			['POST', '/v1/payables'],
			['PATCH', `/v1/payables/${id}`],
			['GET', '/v1/treasury/deposit-instructions'],
			['GET', '/v1/treasury/transactions'],
			['GET', '/v1/treasury/balance'],
			['POST', '/v1/webhooks'],
			['GET', '/v1/webhooks/ep_x'],
			['PATCH', '/v1/webhooks/ep_x'],
			['DELETE', '/v1/webhooks/ep_x'],
			['GET', '/v1/webhooks/ep_x/secret'],
		];
		for (const [method, path] of calls) {
			const res = await h.raw.request(
				method,
				path,
				method === 'POST' || method === 'PATCH' ? { body: {} } : {},
			);
			expect({ method, path, status: res.status, code: res.body?.error?.code }).toEqual({
				method,
				path,
				status: 401,
				code: 'MISSING_API_KEY',
			});
		}
	});

	test('401 answers carry the rate-limit headers too', async () => {
		expectRateHeaders(await h.raw.get('/v1/vendors'));
		expectRateHeaders(await h.raw.get('/v1/vendors', { apiKey: h.sb.keys.expired }));
	});

	test('unknown routes and wrong methods carry the rate-limit headers too', async () => {
		const route = await h.api.get('/v1/nope');
		expectError(route, 404, 'NOT_FOUND');
		expectRateHeaders(route);
		const method = await h.api.delete('/v1/vendors');
		expectError(method, 405, 'METHOD_NOT_ALLOWED');
		expectRateHeaders(method);
	});
});

describe('rate limiting', () => {
	test('the 101st request in a window is 429 RATE_LIMITED (defaults 100 per 60 s)', async () => {
		let last: HttpResponse | undefined;
		for (let i = 1; i <= 100; i++) {
			last = await h.api.get('/v1/treasury/balance');
			expect({ i, status: last.status }).toEqual({ i, status: 200 });
		}
		expect(expectRateHeaders(last!)).toMatchObject({ limit: 100, remaining: 0 });
		const res = await h.api.get('/v1/treasury/balance');
		expectError(res, 429, 'RATE_LIMITED');
		expect(res.body.error.message.toLowerCase()).toContain('slow down');
		expect(expectRateHeaders(res)).toMatchObject({ limit: 100, remaining: 0 });
		expect(res.headers['retry-after']).toBeUndefined();
	});

	test('every response carries X-RateLimit-*; Remaining counts down; Reset is near-future Unix seconds', async () => {
		await h.admin.rateLimit({ limit: 5, windowSeconds: 30 });
		const responses = [
			await h.api.get('/v1/vendors'), // 200
			await h.api.get('/v1/vendors', { query: { limit: 0 } }), // 400
			await h.api.patch('/v1/vendors/00000000-0000-4000-8000-000000000000', { name: 'x' }), // 404
			await h.api.patch('/v1/payables/00000000-0000-4000-8000-000000000000', { notes: 'x' }), // 404
			await h.api.post('/v1/vendors', {}), // 400
		];
		expect(responses.map((r) => r.status)).toEqual([200, 400, 404, 404, 400]);
		const now = Math.floor(Date.now() / 1000);
		const seen = responses.map(expectRateHeaders);
		expect(seen.map((s) => s.limit)).toEqual([5, 5, 5, 5, 5]);
		expect(seen.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0]);
		for (const s of seen) {
			// integer seconds (not ms), at most one window ahead
			expect(s.reset).toBeGreaterThanOrEqual(now);
			expect(s.reset).toBeLessThanOrEqual(now + 31);
		}
		const limited = await h.api.get('/v1/vendors');
		expectError(limited, 429, 'RATE_LIMITED');
		expect(expectRateHeaders(limited).remaining).toBe(0);
		// one fixed window: the reset time does not move while it lasts
		expect(new Set([...seen, expectRateHeaders(limited)].map((s) => s.reset)).size).toBe(1);
	});

	test('after the window resets, requests succeed again', async () => {
		await h.admin.rateLimit({ limit: 2, windowSeconds: 1 });
		let res = await h.api.get('/v1/vendors');
		for (let i = 0; i < 10 && res.status !== 429; i++) res = await h.api.get('/v1/vendors');
		expectError(res, 429, 'RATE_LIMITED');
		const reset = expectRateHeaders(res).reset;
		const waitMs = reset * 1000 - Date.now() + 50;
		expect(waitMs).toBeLessThanOrEqual(2100);
		await sleep(Math.max(waitMs, 0));
		const again = await h.api.get('/v1/vendors');
		expect(again.status).toBe(200);
		const after = expectRateHeaders(again);
		expect(after.remaining).toBe(1);
		expect(after.reset).toBeGreaterThan(reset - 1);
	});

	test("the limit is per key: other keys do not use up the working key's window", async () => {
		await h.admin.rateLimit({ limit: 3, windowSeconds: 60 });
		for (let i = 0; i < 6; i++) {
			const res = await h.raw.get('/v1/vendors', { apiKey: 'svc_someone_else_entirely' });
			expectError(res, 401, 'INVALID_API_KEY');
		}
		const res = await h.api.get('/v1/vendors');
		expect(res.status).toBe(200);
		expect(expectRateHeaders(res)).toMatchObject({ limit: 3, remaining: 2 });
	});

	test('admin routes are not rate-limited', async () => {
		await h.admin.rateLimit({ limit: 1, windowSeconds: 60 });
		expect((await h.api.get('/v1/vendors')).status).toBe(200);
		expect((await h.api.get('/v1/vendors')).status).toBe(429);
		for (let i = 0; i < 5; i++) {
			expect((await h.raw.get('/_admin/events')).status).toBe(200);
		}
	});

	test('Retry-After only when enabled; then an integer number of seconds', async () => {
		await h.admin.rateLimit({ limit: 1, windowSeconds: 5, retryAfter: false });
		expect((await h.api.get('/v1/vendors')).headers['retry-after']).toBeUndefined();
		const off = await h.api.get('/v1/vendors');
		expectError(off, 429, 'RATE_LIMITED');
		expect(off.headers['retry-after']).toBeUndefined();

		await h.admin.rateLimit({ limit: 1, windowSeconds: 5, retryAfter: true });
		const first = await h.api.get('/v1/vendors');
		expect(first.status).toBe(200);
		expect(first.headers['retry-after']).toBeUndefined();
		const on = await h.api.get('/v1/vendors');
		expectError(on, 429, 'RATE_LIMITED');
		expect(on.headers['retry-after']).toMatch(/^\d+$/);
		const retryAfter = Number(on.headers['retry-after']);
		expect(retryAfter).toBeGreaterThanOrEqual(0);
		expect(retryAfter).toBeLessThanOrEqual(5);
	});

	test('startSandbox options set the limit, window and Retry-After', async () => {
		const other = await startHarness({ rateLimit: 2, rateWindowSeconds: 7, retryAfter: true });
		try {
			const client = createHttpClient(other.sb.baseUrl, { apiKey: other.sb.apiKey });
			const a = await client.get('/v1/vendors');
			expect(expectRateHeaders(a)).toMatchObject({ limit: 2, remaining: 1 });
			expect(expectRateHeaders(a).reset).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 8);
			await client.get('/v1/vendors');
			const c = await client.get('/v1/vendors');
			expectError(c, 429, 'RATE_LIMITED');
			expect(c.headers['retry-after']).toMatch(/^\d+$/);
		} finally {
			await other.close();
		}
	});

	test('reset clears the rate-limit counters', async () => {
		await h.admin.rateLimit({ limit: 1, windowSeconds: 60 });
		await h.api.get('/v1/vendors');
		expect((await h.api.get('/v1/vendors')).status).toBe(429);
		await h.admin.reset('none');
		expect((await h.api.get('/v1/vendors')).status).toBe(200);
	});
});
