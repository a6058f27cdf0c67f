/**
 * Transport unit tests: a fake `this` whose httpRequestWithAuthentication is scripted, and a fake
 * clock, so backoff timing, budgets and retry counts are asserted exactly and instantly.
 */
import { inspect } from 'util';
import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	CREDENTIAL_NAME,
	DEFAULT_RATE_LIMIT_WAIT_SECONDS,
} from '../../nodes/BusinessFinance/helpers/constants';
import { createTransport, type Transport } from '../../nodes/BusinessFinance/transport';
import { isLoopbackHost, normaliseBaseUrl } from '../../nodes/BusinessFinance/transport/credential';
import { ERROR_CODE_HINTS, getApiErrorInfo } from '../../nodes/BusinessFinance/transport/errors';
import { type Limiters, parseResetHeader } from '../../nodes/BusinessFinance/transport/limiter';
import { MAX_ATTEMPTS } from '../../nodes/BusinessFinance/transport/send';
import {
	apiError,
	FakeClock,
	FakeWindowServer,
	fakeContext,
	json,
	KEY,
	networkError,
	type RecordedCall,
	type ScriptedResponse,
} from './transport-fakes';

let fake: FakeClock;
let t: Transport;
let limiters: Limiters;

/** A transport of its own, as a freshly started n8n: it knows nothing of any key. */
function freshTransport(): void {
	limiters = new Map();
	t = createTransport({ clock: fake.clock, limiters });
}

beforeEach(() => {
	fake = new FakeClock();
	freshTransport();
});

/** Callers waiting on any key's limiter (none may be left behind). */
const waitingOnLimiters = () => [...limiters.values()].reduce((n, l) => n + l.waiting, 0);

const ok = () => json(200, { data: { id: 'x' } });

function call(ctx: ReturnType<typeof fakeContext>, ...args: Parameters<Transport['apiRequest']>) {
	return fake.run(t.apiRequest.call(ctx as never, ...args));
}

async function failure(promise: Promise<unknown>): Promise<NodeApiError & NodeOperationError> {
	try {
		await promise;
	} catch (error) {
		return error as NodeApiError & NodeOperationError;
	}
	throw new Error('expected the call to fail');
}

function sequence(...responses: Array<ScriptedResponse | Error>) {
	return (_: unknown, index: number) => {
		const r = responses[Math.min(index, responses.length - 1)];
		if (r instanceof Error) throw r;
		return r;
	};
}

describe('request basics', () => {
	it('sends through httpRequestWithAuthentication with the credential name, full response and raw body', async () => {
		const ctx = fakeContext(fake, () => json(200, { data: { id: 'v1' } }), {
			apiKey: KEY,
			baseUrl: 'http://localhost:4010/v1/',
		});
		const result = await call(
			ctx,
			'POST',
			'/v1/vendors',
			{ name: 'Acme' },
			{ a: 1, empty: '', none: undefined },
		);
		expect(result).toEqual({ data: { id: 'v1' } });
		expect(ctx.calls).toHaveLength(1);
		const { options, credentialType } = ctx.calls[0];
		expect(credentialType).toBe(CREDENTIAL_NAME);
		expect(options.url).toBe('http://localhost:4010/v1/vendors');
		expect(options.method).toBe('POST');
		expect(options.body).toEqual({ name: 'Acme' });
		expect(options.qs).toEqual({ a: 1 });
		expect(options.returnFullResponse).toBe(true);
		expect(options.ignoreHttpStatusErrors).toBe(true);
		expect(options.encoding).toBe('text');
		expect((options.headers as Record<string, string>)['Content-Type']).toBe('application/json');
		// The transport never puts the key in the request itself: the credential's authenticate does.
		expect(JSON.stringify(options)).not.toContain(KEY);
	});

	it('returns {} for an empty 2xx body (204)', async () => {
		const ctx = fakeContext(fake, () => ({ statusCode: 204, headers: {}, body: '' }));
		await expect(call(ctx, 'DELETE', '/v1/webhooks/ep_1')).resolves.toEqual({});
	});

	it('normalises the base URL: trailing slashes and /v1 are tolerated', () => {
		expect(normaliseBaseUrl('https://api.example.com/')).toBe('https://api.example.com');
		expect(normaliseBaseUrl('https://api.example.com/v1')).toBe('https://api.example.com');
		expect(normaliseBaseUrl(' https://api.example.com/v1/ ')).toBe('https://api.example.com');
		expect(normaliseBaseUrl('https://api.example.com/finance/v1//')).toBe(
			'https://api.example.com/finance',
		);
		expect(normaliseBaseUrl('api.example.com')).toBeUndefined();
		expect(normaliseBaseUrl('ftp://api.example.com')).toBeUndefined();
		expect(normaliseBaseUrl('')).toBeUndefined();
	});

	it('recognises loopback hosts', () => {
		for (const host of [
			'127.0.0.1',
			'127.1.2.3',
			'localhost',
			'LOCALHOST',
			'[::1]',
			'[::ffff:7f00:1]',
		]) {
			expect(isLoopbackHost(host)).toBe(true);
		}
		for (const host of [
			'10.0.0.1',
			'128.0.0.1',
			'example.com',
			'localhost.example.com',
			'127.0.0.1.nip.io',
			'[::2]',
			// Names are resolved through DNS: only the literal `localhost` is trusted.
			'api.localhost',
			'localhost.',
		]) {
			expect(isLoopbackHost(host)).toBe(false);
		}
	});
});

describe('refusals before sending', () => {
	it.each(['http://api.example.com', 'http://10.0.0.5:4010', 'http://127.0.0.1.nip.io'])(
		'refuses to send the key over plain http to %s',
		async (baseUrl) => {
			const ctx = fakeContext(fake, ok, { apiKey: KEY, baseUrl });
			const error = await failure(
				call(ctx, 'GET', '/v1/vendors', undefined, undefined, { itemIndex: 3 }),
			);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(/plain http:\/\//);
			expect(error.description).toMatch(/https:\/\//);
			expect(error.context.itemIndex).toBe(3);
			expect(ctx.calls).toHaveLength(0);
			expect(JSON.stringify(error)).not.toContain(KEY);
		},
	);

	it.each([
		'https://api.example.com',
		'http://localhost:4010',
		'http://[::1]:4010',
		'http://127.0.0.9:1',
	])('allows %s', async (baseUrl) => {
		const ctx = fakeContext(fake, ok, { apiKey: KEY, baseUrl });
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls).toHaveLength(1);
	});

	it('refuses a base URL that is not a URL', async () => {
		const ctx = fakeContext(fake, ok, { apiKey: KEY, baseUrl: 'not a url' });
		const error = await failure(call(ctx, 'GET', '/v1/vendors'));
		expect(error.message).toMatch(/Base URL/);
		expect(ctx.calls).toHaveLength(0);
	});

	it.each(['sk_live_abcdefgh', 'abcd', '', 'svc_', 'svcx_1234'])(
		'refuses the key %p without the svc_ prefix, without echoing it',
		async (apiKey) => {
			const ctx = fakeContext(fake, ok, { apiKey, baseUrl: 'http://127.0.0.1:4010' });
			const error = await failure(
				call(ctx, 'GET', '/v1/vendors', undefined, undefined, { itemIndex: 1 }),
			);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain('svc_');
			expect(error.description).toMatch(/Settings → API Keys/);
			expect(error.context.itemIndex).toBe(1);
			if (apiKey.length > 4)
				expect(JSON.stringify(error) + inspect(error)).not.toContain(apiKey.trim());
			expect(ctx.calls).toHaveLength(0);
		},
	);

	it.each([` ${KEY}`, `${KEY} `, `${KEY}\n`, `svc_dummy key_with_space`])(
		'refuses the key %p with whitespace (it would be sent as is), without echoing it',
		async (apiKey) => {
			const ctx = fakeContext(fake, ok, { apiKey, baseUrl: 'http://127.0.0.1:4010' });
			const error = await failure(call(ctx, 'GET', '/v1/vendors'));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(/contains a space or line break/);
			expect(JSON.stringify(error) + inspect(error)).not.toContain(apiKey.trim());
			expect(ctx.calls).toHaveLength(0);
		},
	);
});

describe('error mapping', () => {
	const cases: Array<[number, string]> = [
		[401, 'MISSING_API_KEY'],
		[401, 'INVALID_API_KEY'],
		[401, 'API_KEY_EXPIRED'],
		[400, 'VALIDATION_ERROR'],
		[400, 'INVALID_JSON'],
		[404, 'NOT_FOUND'],
		[405, 'METHOD_NOT_ALLOWED'],
		[409, 'INVALID_STATUS_TRANSITION'],
		[413, 'PAYLOAD_TOO_LARGE'],
		[415, 'UNSUPPORTED_MEDIA_TYPE'],
		[500, 'INTERNAL_ERROR'],
		[503, 'SERVICE_UNAVAILABLE'],
	];

	it.each(cases)(
		'HTTP %i %s becomes a NodeApiError with the code, the message and what to do',
		async (status, code) => {
			// POST so that 5xx is not retried and the mapping is seen on the first answer.
			const ctx = fakeContext(fake, () =>
				apiError(status, code, `the service says ${code.toLowerCase()}`),
			);
			const error = await failure(
				call(ctx, 'POST', '/v1/receivables', { amount: 1 }, undefined, { itemIndex: 2 }),
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(`${code}: the service says ${code.toLowerCase()}`);
			expect(error.description).toContain(ERROR_CODE_HINTS[code]);
			expect(error.httpCode).toBe(String(status));
			expect(error.context.itemIndex).toBe(2);
			expect(getApiErrorInfo(error)).toEqual({
				status,
				code,
				serviceMessage: `the service says ${code.toLowerCase()}`,
			});
			expect(ctx.calls).toHaveLength(1);
		},
	);

	it('has a hint for every code the service sends', () => {
		for (const [, code] of cases) expect(ERROR_CODE_HINTS[code].length).toBeGreaterThan(40);
		expect(ERROR_CODE_HINTS.RATE_LIMITED).toMatch(/Max Wait for Rate Limits/);
	});

	it('keeps the service message as is (VALIDATION_ERROR example)', async () => {
		const ctx = fakeContext(fake, () =>
			apiError(400, 'VALIDATION_ERROR', 'amount must be at least 0.01'),
		);
		const error = await failure(call(ctx, 'POST', '/v1/receivables', { amount: 0 }));
		expect(error.message).toBe('VALIDATION_ERROR: amount must be at least 0.01');
	});

	it('an unknown code and an unknown 4xx still give a clear error', async () => {
		const ctx = fakeContext(
			fake,
			sequence(apiError(418, 'TEAPOT', 'short and stout'), {
				statusCode: 422,
				headers: {},
				body: '',
			}),
		);
		const a = await failure(call(ctx, 'PATCH', '/v1/vendors/1', { name: 'x' }));
		expect(a.message).toBe('TEAPOT: short and stout');
		expect(a.httpCode).toBe('418');
		const b = await failure(call(ctx, 'PATCH', '/v1/vendors/1', { name: 'x' }));
		expect(b.message).toMatch(/HTTP 422/);
		expect(getApiErrorInfo(b)).toEqual({ status: 422 });
		expect(getApiErrorInfo(a)).toEqual({
			status: 418,
			code: 'TEAPOT',
			serviceMessage: 'short and stout',
		});
	});

	it('an HTML error page from a proxy gives a clear error with the status', async () => {
		const html =
			'<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>';
		const ctx = fakeContext(fake, () => ({
			statusCode: 502,
			headers: { 'content-type': 'text/html' },
			body: html,
		}));
		const error = await failure(call(ctx, 'POST', '/v1/payables', { amount: 1 }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toContain('HTTP 502');
		expect(error.message).toContain('HTML');
		expect(error.message).toContain('502 Bad Gateway');
		expect(error.description).toMatch(/Base URL/);
		expect(error.description).toMatch(/may or may not/);
		expect(error.httpCode).toBe('502');
	});

	it('a 400 with a plain-text body gives a clear error', async () => {
		const ctx = fakeContext(fake, () => ({ statusCode: 400, headers: {}, body: 'bad request' }));
		const error = await failure(call(ctx, 'GET', '/v1/vendors'));
		expect(error.message).toMatch(/HTTP 400 with a body that is not JSON/);
	});

	it('scrubs anything that looks like a key or a webhook secret from service messages', async () => {
		const ctx = fakeContext(fake, () =>
			apiError(
				400,
				'VALIDATION_ERROR',
				'bad secret whsec_dummyMfKQ9r8GKYqrV0Ta for key svc_dummy_someone_elses_key',
			),
		);
		const error = await failure(call(ctx, 'POST', '/v1/vendors', { name: 'x' }));
		expect(error.message).toBe(
			'VALIDATION_ERROR: bad secret whsec_[redacted] for key svc_[redacted]',
		);
	});

	it('never lets the key into the error, even when the service or the helper echoes it', async () => {
		const responses: Array<ScriptedResponse | Error> = [
			apiError(401, 'INVALID_API_KEY', `key ${KEY} is not valid`),
			networkError('ECONNREFUSED'),
			new Error(`unexpected failure with Authorization: Bearer ${KEY}`),
			{ statusCode: 500, headers: {}, body: `<html>Authorization: Bearer ${KEY}</html>` },
		];
		for (const response of responses) {
			freshTransport();
			const ctx = fakeContext(fake, () => {
				if (response instanceof Error) throw response;
				return response;
			});
			const error = await failure(call(ctx, 'POST', '/v1/vendors', { name: 'x' }));
			const serialised = [
				JSON.stringify(error),
				inspect(error, { depth: 10, showHidden: true }),
				error.message,
				String(error.description),
				JSON.stringify(error.context),
				JSON.stringify((error as unknown as { errorResponse?: unknown }).errorResponse ?? null),
				inspect((error as { cause?: unknown }).cause, { depth: 10 }),
			].join('\n');
			expect(serialised).not.toContain(KEY);
			expect(serialised).not.toContain(KEY.slice(4));
		}
	});
});

describe('retry policy by method', () => {
	it('POST is not retried on 503 and says the create may or may not have happened', async () => {
		const ctx = fakeContext(fake, () => apiError(503, 'SERVICE_UNAVAILABLE', 'down'));
		const error = await failure(call(ctx, 'POST', '/v1/receivables', { amount: 1 }));
		expect(ctx.calls).toHaveLength(1);
		expect(error.description).toMatch(/may or may not/);
		expect(error.description).toMatch(/check/i);
	});

	it('POST is not retried on a connection reset', async () => {
		const ctx = fakeContext(fake, sequence(networkError('ECONNRESET'), ok()));
		const error = await failure(call(ctx, 'POST', '/v1/receivables', { amount: 1 }));
		expect(ctx.calls).toHaveLength(1);
		expect(error.message).toMatch(/ECONNRESET/);
		expect(error.description).toMatch(/may or may not have been processed/);
	});

	it('POST on a refused connection says nothing was created', async () => {
		const ctx = fakeContext(fake, () => {
			throw networkError('ECONNREFUSED');
		});
		const error = await failure(call(ctx, 'POST', '/v1/receivables', { amount: 1 }));
		expect(ctx.calls).toHaveLength(1);
		expect(error.description).toMatch(/Nothing is listening/);
		expect(error.description).toMatch(/nothing was created/);
	});

	it('POST is not retried on a malformed 2xx body', async () => {
		const ctx = fakeContext(fake, () => ({ statusCode: 201, headers: {}, body: '{"data": {' }));
		const error = await failure(call(ctx, 'POST', '/v1/vendors', { name: 'x' }));
		expect(ctx.calls).toHaveLength(1);
		expect(error.description).toMatch(/probably processed/);
	});

	it('POST is retried on 429 and succeeds', async () => {
		const reset = String(Math.floor(fake.now / 1000) + 2);
		const ctx = fakeContext(
			fake,
			sequence(
				apiError(429, 'RATE_LIMITED', 'slow down', {
					'x-ratelimit-reset': reset,
					'x-ratelimit-remaining': '0',
				}),
				json(201, { data: { id: 'r1' } }),
			),
		);
		await expect(call(ctx, 'POST', '/v1/receivables', { amount: 1 })).resolves.toEqual({
			data: { id: 'r1' },
		});
		expect(ctx.calls).toHaveLength(2);
	});

	it('GET is retried on 503 with growing jittered backoff, then succeeds', async () => {
		const ctx = fakeContext(
			fake,
			sequence(
				apiError(503, 'SERVICE_UNAVAILABLE', 'x'),
				apiError(500, 'INTERNAL_ERROR', 'y'),
				ok(),
			),
		);
		await expect(call(ctx, 'GET', '/v1/treasury/balance')).resolves.toEqual({ data: { id: 'x' } });
		expect(ctx.calls).toHaveLength(3);
		// random 0.5: half plus a quarter of 500·2^n
		expect(fake.sleeps).toEqual([375, 750]);
	});

	it('GET is bounded: MAX_ATTEMPTS tries on a 503 that never ends', async () => {
		const ctx = fakeContext(fake, () => apiError(503, 'SERVICE_UNAVAILABLE', 'down'));
		const error = await failure(call(ctx, 'GET', '/v1/treasury/balance'));
		expect(ctx.calls).toHaveLength(MAX_ATTEMPTS);
		expect(error.message).toBe('SERVICE_UNAVAILABLE: down');
		expect(error.description).toMatch(new RegExp(`Tried ${MAX_ATTEMPTS} times`));
	});

	it('GET is retried on a connection reset and a malformed body', async () => {
		const ctx = fakeContext(
			fake,
			sequence(
				networkError('ECONNRESET'),
				{ statusCode: 200, headers: {}, body: 'not json' },
				ok(),
			),
		);
		await expect(call(ctx, 'GET', '/v1/vendors')).resolves.toEqual({ data: { id: 'x' } });
		expect(ctx.calls).toHaveLength(3);
	});

	it('GET gives up on a network error after MAX_ATTEMPTS with a clear message', async () => {
		const ctx = fakeContext(fake, () => {
			throw networkError('ETIMEDOUT');
		});
		const error = await failure(
			call(ctx, 'GET', '/v1/vendors', undefined, undefined, { itemIndex: 4 }),
		);
		expect(ctx.calls).toHaveLength(MAX_ATTEMPTS);
		expect(error.message).toBe('Could not reach the Business Finance service (ETIMEDOUT)');
		expect(error.description).toMatch(/did not answer in time/);
		expect(error.context.itemIndex).toBe(4);
	});

	it.each(['PATCH', 'DELETE'] as const)('%s is retried on 502', async (method) => {
		const ctx = fakeContext(fake, sequence({ statusCode: 502, headers: {}, body: '' }, ok()));
		await call(
			ctx,
			method,
			'/v1/webhooks/ep_1',
			method === 'PATCH' ? { disabled: true } : undefined,
		);
		expect(ctx.calls).toHaveLength(2);
	});

	it('a 4xx is never retried', async () => {
		const ctx = fakeContext(fake, () => apiError(404, 'NOT_FOUND', 'no such vendor'));
		await failure(call(ctx, 'GET', '/v1/vendors/x'));
		expect(ctx.calls).toHaveLength(1);
	});
});

describe('rate limits on 429', () => {
	const nowSeconds = () => Math.floor(fake.now / 1000);

	it('waits until X-RateLimit-Reset given in Unix seconds', async () => {
		const start = fake.now;
		const reset = nowSeconds() + 3;
		const ctx = fakeContext(
			fake,
			sequence(apiError(429, 'RATE_LIMITED', 'slow', { 'x-ratelimit-reset': String(reset) }), ok()),
		);
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls).toHaveLength(2);
		expect(ctx.calls[1].at).toBeGreaterThanOrEqual(reset * 1000);
		expect(ctx.calls[1].at - start).toBeLessThan(3_200);
	});

	it('waits until X-RateLimit-Reset given in Unix milliseconds', async () => {
		const start = fake.now;
		const reset = fake.now + 2_500;
		const ctx = fakeContext(
			fake,
			sequence(apiError(429, 'RATE_LIMITED', 'slow', { 'x-ratelimit-reset': String(reset) }), ok()),
		);
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls[1].at).toBeGreaterThanOrEqual(reset);
		expect(ctx.calls[1].at - start).toBeLessThan(2_700);
	});

	it('parses the reset header in seconds, milliseconds, small deltas and dates', () => {
		const now = 1_800_000_000_000;
		expect(parseResetHeader('1800000005', now)).toBe(1_800_000_005_000);
		expect(parseResetHeader('1800000005123', now)).toBe(1_800_000_005_123);
		expect(parseResetHeader('30', now)).toBe(now + 30_000);
		expect(parseResetHeader('Fri, 15 Jan 2027 08:00:10 GMT', now)).toBe(
			Date.parse('Fri, 15 Jan 2027 08:00:10 GMT'),
		);
		expect(parseResetHeader('garbage', now)).toBeUndefined();
		expect(parseResetHeader(undefined, now)).toBeUndefined();
	});

	it('honours Retry-After in seconds (before X-RateLimit-Reset)', async () => {
		const start = fake.now;
		const ctx = fakeContext(
			fake,
			sequence(
				apiError(429, 'RATE_LIMITED', 'slow', {
					'retry-after': '7',
					'x-ratelimit-reset': String(nowSeconds() + 1),
				}),
				ok(),
			),
		);
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls[1].at - start).toBeGreaterThanOrEqual(7_000);
		expect(ctx.calls[1].at - start).toBeLessThan(7_200);
	});

	it('honours Retry-After as an HTTP date', async () => {
		const start = fake.now;
		const date = new Date(fake.now + 4_000).toUTCString();
		const ctx = fakeContext(
			fake,
			sequence(apiError(429, 'RATE_LIMITED', 'slow', { 'Retry-After': date }), ok()),
		);
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls[1].at - start).toBeGreaterThanOrEqual(4_000);
		expect(ctx.calls[1].at - start).toBeLessThan(4_200);
	});

	it('corrects the reset for a service clock that is 10 minutes ahead (Date header)', async () => {
		const start = fake.now;
		const serverNow = fake.now + 600_000;
		const headers = {
			date: new Date(serverNow).toUTCString(),
			'x-ratelimit-reset': String(Math.ceil(serverNow / 1000) + 3),
			'x-ratelimit-remaining': '0',
		};
		const ctx = fakeContext(fake, sequence(apiError(429, 'RATE_LIMITED', 'slow', headers), ok()));
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls).toHaveLength(2);
		expect(ctx.calls[1].at - start).toBeGreaterThanOrEqual(3_000);
		expect(ctx.calls[1].at - start).toBeLessThan(4_200);
	});

	it('ignores a small clock difference', async () => {
		const start = fake.now;
		const headers = {
			date: new Date(fake.now + 2_000).toUTCString(),
			'x-ratelimit-reset': String(Math.floor(fake.now / 1000) + 3),
		};
		const ctx = fakeContext(fake, sequence(apiError(429, 'RATE_LIMITED', 'slow', headers), ok()));
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls[1].at - start).toBeGreaterThanOrEqual(3_000);
		expect(ctx.calls[1].at - start).toBeLessThan(3_200);
	});

	it('without any header uses jittered exponential backoff', async () => {
		const start = fake.now;
		const bare = apiError(429, 'RATE_LIMITED', 'slow');
		const ctx = fakeContext(fake, sequence(bare, bare, bare, ok()));
		fake.randomValue = 0.5;
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls).toHaveLength(4);
		const gaps = [1, 2, 3].map((i) => ctx.calls[i].at - ctx.calls[i - 1].at);
		// half plus jitter·half of 1s·2^n, with jitter 0.5: 750, 1500, 3000
		expect(gaps).toEqual([750, 1500, 3000]);
		expect(ctx.calls[3].at - start).toBe(5250);
	});

	it('jitter spreads the backoff between half and all of the exponential step', async () => {
		const bare = apiError(429, 'RATE_LIMITED', 'slow');
		for (const [random, expected] of [
			[0, 500],
			[1, 1000],
		] as const) {
			freshTransport();
			fake.randomValue = random;
			const ctx = fakeContext(fake, sequence(bare, ok()));
			await call(ctx, 'GET', '/v1/vendors');
			expect(ctx.calls[1].at - ctx.calls[0].at).toBe(expected);
		}
	});

	it('fails at once with a clear error when the reset is beyond the wait budget', async () => {
		const ctx = fakeContext(fake, () =>
			apiError(429, 'RATE_LIMITED', 'slow', { 'x-ratelimit-reset': String(nowSeconds() + 600) }),
		);
		const start = fake.now;
		const error = await failure(
			call(ctx, 'GET', '/v1/vendors', undefined, undefined, { itemIndex: 0 }),
		);
		expect(ctx.calls).toHaveLength(1);
		expect(fake.now - start).toBe(0);
		expect(error.message).toMatch(
			/RATE_LIMITED: still rate limited after waiting 0s \(wait budget 300s; the next window opens in 600\.1s\)/,
		);
		expect(error.description).toMatch(/Max Wait for Rate Limits/);
		expect(error.httpCode).toBe('429');
		expect(getApiErrorInfo(error)).toEqual({ status: 429, code: 'RATE_LIMITED' });
	});

	it('the default budget is 5 minutes and a larger budget lets the call wait longer', async () => {
		expect(DEFAULT_RATE_LIMIT_WAIT_SECONDS * 1000).toBe(300_000);
		const reset = nowSeconds() + 600;
		const ctx = fakeContext(
			fake,
			sequence(apiError(429, 'RATE_LIMITED', 'slow', { 'x-ratelimit-reset': String(reset) }), ok()),
		);
		await call(ctx, 'GET', '/v1/vendors', undefined, undefined, { waitBudgetMs: 700_000 });
		expect(ctx.calls[1].at).toBeGreaterThanOrEqual(reset * 1000);
	});

	it('stops when repeated 429s use up the budget, saying how long it waited', async () => {
		const ctx = fakeContext(fake, () =>
			apiError(429, 'RATE_LIMITED', 'slow', { 'retry-after': '4' }),
		);
		const start = fake.now;
		const error = await failure(
			call(ctx, 'GET', '/v1/vendors', undefined, undefined, { waitBudgetMs: 10_000 }),
		);
		// 4 s, 4 s, then the third 4 s would pass 10 s
		expect(ctx.calls).toHaveLength(3);
		expect(fake.now - start).toBe(8_000);
		expect(error.message).toMatch(/after waiting 8s \(wait budget 10s/);
	});

	it('a budget of 0 never waits', async () => {
		const ctx = fakeContext(fake, () =>
			apiError(429, 'RATE_LIMITED', 'slow', { 'retry-after': '1' }),
		);
		const error = await failure(
			call(ctx, 'GET', '/v1/vendors', undefined, undefined, { waitBudgetMs: 0 }),
		);
		expect(ctx.calls).toHaveLength(1);
		expect(error.message).toMatch(/wait budget 0s/);
	});
});

describe('proactive waiting and per-key sharing', () => {
	const headers = (remaining: number, resetMs: number) => ({
		'x-ratelimit-limit': '100',
		'x-ratelimit-remaining': String(remaining),
		'x-ratelimit-reset': String(Math.ceil(resetMs / 1000)),
	});

	it('waits for the reset before the next request when X-RateLimit-Remaining reaches 0', async () => {
		const reset = fake.now + 5_000;
		const ctx = fakeContext(
			fake,
			sequence(
				json(200, { data: 1 }, headers(0, reset)),
				json(200, { data: 2 }, headers(99, reset + 60_000)),
			),
		);
		await call(ctx, 'GET', '/v1/vendors');
		expect(fake.now).toBeLessThan(reset);
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls).toHaveLength(2);
		expect(ctx.calls[1].at).toBeGreaterThanOrEqual(reset);
	});

	it('does not wait while requests remain', async () => {
		const reset = fake.now + 5_000;
		const ctx = fakeContext(fake, () => json(200, { data: 1 }, headers(50, reset)));
		for (let i = 0; i < 5; i++) await call(ctx, 'GET', '/v1/vendors');
		expect(fake.totalSlept).toBe(0);
	});

	it('the proactive wait counts against the budget', async () => {
		const reset = fake.now + 20_000;
		const ctx = fakeContext(fake, () => json(200, { data: 1 }, headers(0, reset)));
		await call(ctx, 'GET', '/v1/vendors');
		const error = await failure(
			call(ctx, 'GET', '/v1/vendors', undefined, undefined, { waitBudgetMs: 5_000 }),
		);
		expect(ctx.calls).toHaveLength(1);
		expect(error.message).toMatch(/RATE_LIMITED/);
	});

	it('shares the state between contexts (executions) using the same key, not across keys', async () => {
		const reset = fake.now + 5_000;
		const calls: RecordedCall[] = [];
		const responder = () => json(200, { data: 1 }, headers(0, reset));
		const a = fakeContext(fake, responder, undefined, calls);
		const b = fakeContext(fake, responder, undefined, calls);
		const other = fakeContext(
			fake,
			responder,
			{ apiKey: 'svc_dummy_another_key_987654321', baseUrl: 'http://127.0.0.1:4010' },
			calls,
		);
		await call(a, 'GET', '/v1/vendors');
		await call(other, 'GET', '/v1/vendors');
		expect(fake.now).toBeLessThan(reset); // the other key did not wait
		await call(b, 'GET', '/v1/vendors');
		expect(calls[2].at).toBeGreaterThanOrEqual(reset); // b waited for a's window
	});

	it('keys the shared state by a SHA-256 of the key, never the key', async () => {
		const ctx = fakeContext(fake, ok);
		await call(ctx, 'GET', '/v1/vendors');
		const keys = [...limiters.keys()];
		expect(keys).toHaveLength(1);
		expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
		expect(keys.join()).not.toContain(KEY.slice(4));
	});

	it.each(['seconds', 'ms'] as const)(
		'40 concurrent callers on one key (5 per 1 s window, reset in %s) queue instead of stampeding',
		async (unit) => {
			const server = new FakeWindowServer(fake, 5, 1_000, unit);
			const calls: RecordedCall[] = [];
			const contexts = Array.from({ length: 4 }, () =>
				fakeContext(fake, () => server.handle(ok), undefined, calls),
			);
			const start = fake.now;
			const all = Promise.all(
				Array.from({ length: 40 }, (_, i) =>
					t.apiRequest.call(contexts[i % 4] as never, 'GET', '/v1/vendors'),
				),
			);
			const results = await fake.run(all);
			expect(results).toHaveLength(40);
			expect(server.served).toBe(40);
			// At most one 429 per window; with a fresh state, none at all.
			expect(server.rateLimited).toBeLessThanOrEqual(1);
			expect(calls.length).toBe(40 + server.rateLimited);
			// 40 requests at 5 per second need 8 windows: done in about 7 s, not much more.
			expect(fake.now - start).toBeGreaterThanOrEqual(7_000);
			expect(fake.now - start).toBeLessThan(8_500);
		},
	);

	it('learns the window length so it loses little time to the whole-second reset (sandbox-like windows)', async () => {
		fake.now += 300; // windows start off the second boundary
		const server = new FakeWindowServer(fake, 5, 2_000, 'seconds', 'firstRequest');
		const ctx = fakeContext(fake, async () => {
			const answer = server.handle(ok); // counted on arrival
			await fake.clock.sleep(3); // then 3 ms on the way back
			return answer;
		});
		const start = fake.now;
		for (let i = 0; i < 60; i++) await call(ctx, 'GET', '/v1/vendors');
		const elapsed = fake.now - start;
		// 60 requests at 5 per 2 s: 12 windows, the last opens 22 s after the first.
		const floor = 11 * 2_000;
		expect(server.rateLimited).toBe(0);
		expect(server.served).toBe(60);
		expect(elapsed).toBeGreaterThanOrEqual(floor);
		expect(elapsed / floor).toBeLessThan(1.05);
	});

	it('without learning (ms resets are exact) it is equally close to the floor', async () => {
		fake.now += 300;
		const server = new FakeWindowServer(fake, 5, 2_000, 'ms', 'firstRequest');
		const ctx = fakeContext(fake, () => server.handle(ok));
		const start = fake.now;
		for (let i = 0; i < 30; i++) await call(ctx, 'GET', '/v1/vendors');
		expect(server.rateLimited).toBe(0);
		expect((fake.now - start) / (5 * 2_000)).toBeLessThan(1.05);
	});

	it('a service with clock-aligned windows costs at most one 429 while the learning is disproved', async () => {
		fake.now += 300;
		const server = new FakeWindowServer(fake, 5, 2_000, 'seconds', 'aligned');
		const ctx = fakeContext(fake, () => server.handle(ok));
		for (let i = 0; i < 80; i++) await call(ctx, 'GET', '/v1/vendors');
		expect(server.served).toBe(80);
		expect(server.rateLimited).toBeLessThanOrEqual(1);
	});

	it.each([
		['first request', 'firstRequest'],
		['the clock', 'aligned'],
	] as const)(
		'two processes on one key (windows start with %s): ≤ one 429 per window each, little time lost',
		async (_, mode) => {
			// Two n8n workers: two transports, each with its own per-key state, one service.
			fake.now += 300; // windows start off the second boundary
			const server = new FakeWindowServer(fake, 5, 2_000, 'seconds', mode);
			const respond = async () => {
				const answer = server.handle(ok); // counted on arrival
				await fake.clock.sleep(3); // then 3 ms on the way back
				return answer;
			};
			const workers = [t, createTransport({ clock: fake.clock })];
			const start = fake.now;
			const listing = async (worker: Transport) => {
				const ctx = fakeContext(fake, respond);
				for (let i = 0; i < 50; i++)
					await worker.apiRequest.call(ctx as never, 'GET', '/v1/vendors');
			};
			await fake.run(Promise.all(workers.map(listing)));
			const elapsed = fake.now - start;
			// 100 requests at 5 per 2 s: 20 windows, the last opens at least 38 s after the first
			// (aligned to the clock: after the first window's 1.7 s left).
			const windows = 20;
			const floor = (windows - 1) * 2_000 - (mode === 'aligned' ? 300 : 0);
			expect(server.served).toBe(100);
			expect(server.rateLimited).toBeLessThanOrEqual(windows * workers.length);
			expect(elapsed).toBeGreaterThanOrEqual(floor);
			// A worker that opened a window and knows its length waits for its end, not for the
			// whole-second reset (which cost up to a second per window: 1.21 × the floor here before it did).
			expect(elapsed / floor).toBeLessThan(mode === 'firstRequest' ? 1.05 : 1.1);
		},
	);

	it('after a 429 from another process, all waiting callers hold off until the reset', async () => {
		const server = new FakeWindowServer(fake, 3, 2_000, 'seconds', 'firstRequest');
		server.windowStart = fake.now - 700; // someone else opened this window 0.7 s ago...
		server.count = 3; // ...and used it up
		const calls: RecordedCall[] = [];
		const ctx = fakeContext(fake, () => server.handle(ok), undefined, calls);
		const results = await fake.run(
			Promise.all(
				Array.from({ length: 6 }, () => t.apiRequest.call(ctx as never, 'GET', '/v1/vendors')),
			),
		);
		expect(results).toHaveLength(6);
		expect(server.rateLimited).toBe(1);
	});
});

describe('pagination', () => {
	/** A list endpoint over `total` items, honouring page and limit like the sandbox. */
	function listServer(
		total: number,
		options: {
			hasMore?: (page: number, limit: number) => boolean;
			pageOverride?: (page: number) => number;
		} = {},
	) {
		const items = Array.from({ length: total }, (_, i) => ({
			id: `id-${String(i).padStart(5, '0')}`,
			n: i,
		}));
		return (opts: { qs?: Record<string, unknown> }) => {
			const page = Number(opts.qs?.page ?? 1);
			const limit = Number(opts.qs?.limit ?? 50);
			const served = options.pageOverride ? options.pageOverride(page) : page;
			const data = items.slice((served - 1) * limit, served * limit);
			const hasMore = options.hasMore ? options.hasMore(page, limit) : page * limit < total;
			return json(200, { data, meta: { page, limit, total, has_more: hasMore } });
		};
	}

	async function list(
		ctx: ReturnType<typeof fakeContext>,
		qs: IDataObject,
		options: { returnAll: boolean; limit?: number },
	) {
		return await fake.run(t.apiRequestAllItems.call(ctx as never, '/v1/vendors', qs, options));
	}

	it('an empty first page returns [] after one request', async () => {
		const ctx = fakeContext(fake, listServer(0) as never);
		expect(await list(ctx, {}, { returnAll: true })).toEqual([]);
		expect(ctx.calls).toHaveLength(1);
	});

	it.each([1, 99, 100, 101, 200, 250, 1000])(
		'listing %i items costs ceil(N/100) requests',
		async (n) => {
			const ctx = fakeContext(fake, listServer(n) as never);
			const items = await list(ctx, {}, { returnAll: true });
			expect(items).toHaveLength(n);
			expect(new Set(items.map((i) => i.id)).size).toBe(n);
			expect(ctx.calls).toHaveLength(Math.ceil(n / 100));
			expect(ctx.calls.every((c) => c.options.qs?.limit === 100)).toBe(true);
			expect(ctx.calls.map((c) => c.options.qs?.page)).toEqual(
				Array.from({ length: Math.ceil(n / 100) }, (_, i) => i + 1),
			);
		},
	);

	it('an exact multiple of 100 does not request an empty extra page', async () => {
		const ctx = fakeContext(fake, listServer(300) as never);
		expect(await list(ctx, {}, { returnAll: true })).toHaveLength(300);
		expect(ctx.calls).toHaveLength(3);
	});

	it('a limit below 100 uses the limit as the page size', async () => {
		const ctx = fakeContext(fake, listServer(500) as never);
		const items = await list(ctx, {}, { returnAll: false, limit: 30 });
		expect(items).toHaveLength(30);
		expect(ctx.calls).toHaveLength(1);
		expect(ctx.calls[0].options.qs).toEqual({ page: 1, limit: 30 });
	});

	it('a limit above 100 pages in 100s and stops as soon as it has enough', async () => {
		const ctx = fakeContext(fake, listServer(1000) as never);
		const items = await list(ctx, {}, { returnAll: false, limit: 250 });
		expect(items).toHaveLength(250);
		expect(items[249].n).toBe(249);
		expect(ctx.calls).toHaveLength(3);
		expect(ctx.calls.map((c) => c.options.qs?.limit)).toEqual([100, 100, 100]);
	});

	it('a limit larger than the list returns the whole list', async () => {
		const ctx = fakeContext(fake, listServer(120) as never);
		expect(await list(ctx, {}, { returnAll: false, limit: 500 })).toHaveLength(120);
		expect(ctx.calls).toHaveLength(2);
	});

	it('rejects a limit below 1 before sending', async () => {
		const ctx = fakeContext(fake, listServer(10) as never);
		await expect(list(ctx, {}, { returnAll: false, limit: 0 })).rejects.toThrow(/Limit must be/);
		expect(ctx.calls).toHaveLength(0);
	});

	it('passes filters through and never mutates the caller’s qs', async () => {
		const ctx = fakeContext(fake, listServer(150) as never);
		const qs = Object.freeze({ search: 'acme', page: 7, limit: 3 });
		await list(ctx, qs, { returnAll: true });
		expect(qs).toEqual({ search: 'acme', page: 7, limit: 3 });
		expect(ctx.calls.map((c) => c.options.qs)).toEqual([
			{ search: 'acme', page: 1, limit: 100 },
			{ search: 'acme', page: 2, limit: 100 },
		]);
	});

	it('stops with a clear error when has_more never turns false', async () => {
		// Fresh ids on every page, total 150, but has_more always true.
		let counter = 0;
		const ctx = fakeContext(fake, (() =>
			json(200, {
				data: Array.from({ length: 100 }, () => ({ id: `gen-${counter++}` })),
				meta: { page: 1, limit: 100, total: 150, has_more: true },
			})) as never);
		const error = await failure(list(ctx, {}, { returnAll: true }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/kept reporting more pages/);
		expect(ctx.calls.length).toBe(3); // ceil(150/100) + 1
	});

	it('a server without total and with endless has_more hits the hard page cap', async () => {
		let counter = 0;
		const ctx = fakeContext(fake, (() =>
			json(200, { data: [{ id: `gen-${counter++}` }], meta: { has_more: true } })) as never);
		const error = await failure(list(ctx, {}, { returnAll: true }));
		expect(error.message).toMatch(/kept reporting more pages/);
		expect(ctx.calls.length).toBe(10_000);
	}, 60_000);

	it('stops with a clear error when the server repeats a page', async () => {
		const ctx = fakeContext(
			fake,
			listServer(300, { pageOverride: (page) => (page >= 2 ? 1 : page) }) as never,
		);
		const error = await failure(list(ctx, {}, { returnAll: true }));
		expect(error.message).toMatch(/returned page 2 of \/v1\/vendors again/);
		expect(ctx.calls).toHaveLength(2);
	});

	it('stops when a page holds only items already seen, even if its first id is new', async () => {
		const pages = [
			[{ id: 'a' }, { id: 'b' }, { id: 'c' }],
			[{ id: 'b' }, { id: 'c' }],
		];
		const ctx = fakeContext(fake, ((_: unknown, i: number) =>
			json(200, { data: pages[Math.min(i, 1)], meta: { has_more: true, total: 9 } })) as never);
		const error = await failure(list(ctx, {}, { returnAll: true }));
		expect(error.message).toMatch(/again/);
	});

	it('an item that shifts onto the next page is returned once', async () => {
		const pages = [
			[{ id: 'a' }, { id: 'b' }, { id: 'c' }],
			[{ id: 'c' }, { id: 'd' }, { id: 'e' }],
			[{ id: 'f' }],
		];
		const ctx = fakeContext(fake, ((_: unknown, i: number) =>
			json(200, { data: pages[i], meta: { has_more: i < 2, total: 7 } })) as never);
		const items = await list(ctx, {}, { returnAll: true });
		expect(items.map((x) => x.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
	});

	it('a body without a data list is a clear error', async () => {
		const ctx = fakeContext(fake, (() => json(200, { items: [] })) as never);
		await expect(list(ctx, {}, { returnAll: true })).rejects.toThrow(/without a list in "data"/);
	});

	it('shares one wait budget across the pages', async () => {
		let i = 0;
		const server = listServer(300);
		const ctx = fakeContext(fake, ((opts: never) => {
			i += 1;
			if (i % 2 === 0) return apiError(429, 'RATE_LIMITED', 'slow', { 'retry-after': '3' });
			return server(opts);
		}) as never);
		const error = await failure(
			fake.run(
				t.apiRequestAllItems.call(
					ctx as never,
					'/v1/vendors',
					{},
					{ returnAll: true, waitBudgetMs: 5_000 },
				),
			),
		);
		expect(error.message).toMatch(/after waiting 3s \(wait budget 5s/);
	});
});

describe('redirects', () => {
	it('never follows a redirect and says where it pointed', async () => {
		const ctx = fakeContext(fake, () => ({
			statusCode: 301,
			headers: { location: 'http://evil.example.com/v1/vendors' },
			body: '',
		}));
		const error = await failure(call(ctx, 'GET', '/v1/vendors'));
		expect(ctx.calls).toHaveLength(1);
		expect(ctx.calls[0].options.disableFollowRedirect).toBe(true);
		expect(ctx.calls[0].options.sendCredentialsOnCrossOriginRedirect).toBe(false);
		expect(error.message).toMatch(
			/HTTP 301 \(a redirect to http:\/\/evil\.example\.com\/v1\/vendors\)/,
		);
		expect(error.description).toMatch(/Base URL/);
	});
});

describe('paths', () => {
	it.each([
		'/v1/vendors/../webhooks',
		'/v1/vendors/a b',
		'/v1/vendors/x?limit=1',
		'/v1/vendors/x#y',
		'/v2/vendors',
		'v1/vendors',
		'/v1/vendors/%2e%2e',
		'/v1/vendors/a%2Fb',
		'/v1//vendors',
	])('refuses the unsafe path %p before sending', async (path) => {
		const ctx = fakeContext(fake, ok);
		const error = await failure(call(ctx, 'GET', path, undefined, undefined, { itemIndex: 2 }));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/Invalid API path/);
		expect(error.context.itemIndex).toBe(2);
		expect(ctx.calls).toHaveLength(0);
	});

	it.each([
		'/v1/vendors',
		'/v1/receivables/3f1c2d4e-0000-4000-8000-000000000001/send',
		'/v1/webhooks/ep_abc123/secret',
		'/v1/treasury/deposit-instructions',
	])('accepts %p', async (path) => {
		const ctx = fakeContext(fake, ok);
		await call(ctx, 'GET', path);
		expect(ctx.calls).toHaveLength(1);
	});
});

describe('more edges', () => {
	it('stops waiting when the execution is cancelled, leaving no timer or waiter behind', async () => {
		const execution = new AbortController();
		const ctx = fakeContext(
			fake,
			() => apiError(429, 'RATE_LIMITED', 'slow', { 'retry-after': '30' }),
			undefined,
			[],
			execution.signal,
		);
		const started = fake.now;
		void fake.clock.sleep(3_000).then(() => execution.abort());
		const error = await failure(fake.run(t.apiRequest.call(ctx as never, 'GET', '/v1/vendors')));
		expect(error.message).toMatch(/cancelled while waiting/);
		expect(fake.now - started).toBe(3_000);
		expect(ctx.calls).toHaveLength(1);
		expect(fake.pendingTimers).toBe(0);
	});

	it('a request on its way is abandoned when the execution is cancelled', async () => {
		const execution = new AbortController();
		const ctx = fakeContext(
			fake,
			() => new Promise<never>(() => undefined),
			undefined,
			[],
			execution.signal,
		);
		void fake.clock.sleep(2_000).then(() => execution.abort());
		const error = await failure(
			fake.run(t.apiRequest.call(ctx as never, 'POST', '/v1/vendors', { name: 'x' })),
		);
		expect(error.message).toMatch(/cancelled while a request was on its way/);
		expect(error.description).toMatch(/may or may not/);
		expect(fake.pendingTimers).toBe(0);
	});

	it('a GET whose 2xx body is never JSON fails after MAX_ATTEMPTS', async () => {
		const ctx = fakeContext(fake, () => ({
			statusCode: 200,
			headers: {},
			body: '<html>login</html>',
		}));
		const error = await failure(call(ctx, 'GET', '/v1/vendors'));
		expect(ctx.calls).toHaveLength(MAX_ATTEMPTS);
		expect(error.message).toBe('The service answered HTTP 200 with a body that is not valid JSON');
		expect(error.description).toMatch(/Base URL/);
	});

	it('without rate-limit headers, parallel requests are not serialised', async () => {
		let inFlight = 0;
		let maxInFlight = 0;
		const ctx = fakeContext(fake, async () => {
			inFlight += 1;
			maxInFlight = Math.max(maxInFlight, inFlight);
			await fake.clock.sleep(10);
			inFlight -= 1;
			return { statusCode: 200, headers: {}, body: '{"data":{}}' };
		});
		await call(ctx, 'GET', '/v1/vendors'); // the first answer shows there is nothing to track
		await fake.run(
			Promise.all(
				Array.from({ length: 8 }, () => t.apiRequest.call(ctx as never, 'GET', '/v1/vendors')),
			),
		);
		expect(maxInFlight).toBe(8);
	});

	it('getApiErrorInfo is undefined for errors that are not API answers', async () => {
		expect(getApiErrorInfo(new Error('x'))).toBeUndefined();
		expect(getApiErrorInfo(undefined)).toBeUndefined();
		const ctx = fakeContext(fake, ok, { apiKey: 'bad', baseUrl: 'http://127.0.0.1:1' });
		expect(getApiErrorInfo(await failure(call(ctx, 'GET', '/v1/vendors')))).toBeUndefined();
		const down = fakeContext(fake, () => {
			throw networkError('ECONNREFUSED');
		});
		expect(getApiErrorInfo(await failure(call(down, 'POST', '/v1/vendors', {})))).toBeUndefined();
	});
});

describe('robustness of the per-key limiter', () => {
	it('a null body or a throwing helper never leaves the key locked', async () => {
		const ctx = fakeContext(fake, sequence(new TypeError('boom'), ok(), ok()));
		await failure(call(ctx, 'POST', '/v1/vendors', null as never));
		await expect(call(ctx, 'GET', '/v1/vendors')).resolves.toEqual({ data: { id: 'x' } });
		await expect(call(ctx, 'POST', '/v1/vendors', null as never)).resolves.toEqual({
			data: { id: 'x' },
		});
		expect(ctx.calls[2].options.body).toBeUndefined();
		expect(waitingOnLimiters()).toBe(0);
		expect(fake.pendingTimers).toBe(0);
	});
});
