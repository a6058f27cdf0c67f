/**
 * One call (send.ts): the request it builds, its retry decision as the pure function it is (a
 * 429 is not its to decide: the limiter's, transport.limiter.test.ts), then its retries, paths and
 * attempt deadline through a transport on a fake clock and, where only real HTTP shows it, against
 * a scripted server.
 */
import fc from 'fast-check';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../nodes/BusinessFinance/helpers/constants';
import {
	decideRetry,
	type Failure,
	type HttpMethod,
	MAX_ATTEMPTS,
	MAX_SERVER_RETRY_AFTER_MS,
} from '../../nodes/BusinessFinance/transport/send';
import {
	apiError,
	call,
	failure,
	fake,
	fakeContext,
	json,
	KEY,
	limiters,
	networkError,
	ok,
	sequence,
	t,
	useFakeTransport,
} from './transport-fakes';
import {
	getVendors,
	okHeaders,
	serve,
	server,
	timed,
	transportWithShiftableClock,
	useScriptedServer,
} from './transport-http';
import { answer } from '../helpers/scripted-server';

useFakeTransport();
useScriptedServer();

const HOUR_MS = 3_600_000;
const METHODS: HttpMethod[] = ['GET', 'POST', 'PATCH', 'DELETE'];

describe('decideRetry', () => {
	const retry = (waitMs: number) => ({ action: 'retry', waitMs });
	const fail = (reason: string) => ({ action: 'fail', reason });
	const network: Failure = { kind: 'network' };
	const asked = (retryAfterMs: number): Failure => ({ kind: 'serverError', retryAfterMs });
	it.each<[string, Failure, HttpMethod, number, number, object]>([
		['a 4xx or a redirect, even for GET', { kind: 'final' }, 'GET', 1, HOUR_MS, fail('final')],
		['a POST after a 5xx', { kind: 'serverError' }, 'POST', 1, HOUR_MS, fail('create')],
		['a POST, unreadable answer', { kind: 'unreadable' }, 'POST', 1, HOUR_MS, fail('create')],
		['a POST after a network failure', network, 'POST', 1, HOUR_MS, fail('create')],
		['a first failed GET: a jittered backoff', network, 'GET', 1, HOUR_MS, retry(375)],
		['a second failed PATCH: the backoff doubles', network, 'PATCH', 2, HOUR_MS, retry(750)],
		['a third failed DELETE', network, 'DELETE', 3, HOUR_MS, retry(1_500)],
		['MAX_ATTEMPTS failed GETs', network, 'GET', MAX_ATTEMPTS, HOUR_MS, fail('attempts')],
		["a 5xx's Retry-After", asked(3_000), 'GET', 1, HOUR_MS, retry(3_000)],
		[
			"a 5xx's Retry-After of an hour: capped",
			asked(HOUR_MS),
			'GET',
			1,
			HOUR_MS,
			retry(MAX_SERVER_RETRY_AFTER_MS),
		],
		['a Retry-After beyond the time left', asked(3_000), 'GET', 1, 2_999, fail('budget')],
		['no time left', { kind: 'unreadable' }, 'GET', 1, 0, fail('budget')],
	])('%s', (_, failure, method, attempt, leftMs, expected) => {
		expect(decideRetry(failure, method, attempt, leftMs, 0.5)).toEqual(expected);
	});

	it('property: a retry never waits longer than the time left, is bounded, and never repeats a POST', () => {
		const outcome = fc.oneof(
			fc.record({
				kind: fc.constant('serverError' as const),
				retryAfterMs: fc.option(fc.nat(10 * HOUR_MS), { nil: undefined }),
			}),
			fc.constantFrom<Failure>({ kind: 'unreadable' }, { kind: 'network' }, { kind: 'final' }),
		);
		fc.assert(
			fc.property(
				outcome,
				fc.constantFrom(...METHODS),
				fc.nat(20),
				fc.nat(10 * HOUR_MS),
				fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
				(o, method, attempt, leftMs, random) => {
					const decision = decideRetry(o, method, attempt, leftMs, random);
					if (decision.action === 'retry') {
						expect(decision.waitMs).toBeLessThanOrEqual(leftMs);
						expect(attempt).toBeLessThan(MAX_ATTEMPTS);
						expect(method).not.toBe('POST');
					}
				},
			),
		);
	});
});

describe('the request', () => {
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
		expect(ctx.calls).toMatchObject([{ credentialType: CREDENTIAL_NAME }]);
		const { options } = ctx.calls[0];
		expect(options).toMatchObject({
			url: 'http://localhost:4010/v1/vendors',
			method: 'POST',
			body: { name: 'Acme' },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			encoding: 'text',
			headers: { 'Content-Type': 'application/json' },
		});
		expect(options.qs).toEqual({ a: 1 }); // empty values are left out
		// The transport never puts the key in the request itself: the credential's authenticate does.
		expect(JSON.stringify(options)).not.toContain(KEY);
	});

	it('returns {} for an empty 2xx body (204)', async () => {
		const ctx = fakeContext(fake, () => ({ statusCode: 204, headers: {}, body: '' }));
		await expect(call(ctx, 'DELETE', '/v1/webhooks/ep_1')).resolves.toEqual({});
	});

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

describe('retries through a transport', () => {
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

	it('PATCH is retried on an empty 502, a connection reset and a malformed body, waiting as decided', async () => {
		const ctx = fakeContext(
			fake,
			sequence(
				{ statusCode: 502, headers: {}, body: '' },
				networkError('ECONNRESET'),
				{ statusCode: 200, headers: {}, body: 'not json' },
				ok(),
			),
		);
		const start = fake.now;
		const patch = call(ctx, 'PATCH', '/v1/webhooks/ep_1', { disabled: true });
		await expect(patch).resolves.toEqual({ data: { id: 'x' } });
		expect(ctx.calls).toHaveLength(4);
		expect(fake.now - start).toBe(375 + 750 + 1_500); // the backoffs decideRetry's rows pin
	});

	it.each([
		[
			'a 503 that never ends',
			() => apiError(503, 'SERVICE_UNAVAILABLE', 'down'),
			'SERVICE_UNAVAILABLE: down',
			/Tried 4 times/,
		],
		[
			'a network error',
			() => {
				throw networkError('ETIMEDOUT');
			},
			'Could not reach the Business Finance service (ETIMEDOUT)',
			/did not answer in time/,
		],
		[
			'a 2xx body that is never JSON',
			() => ({ statusCode: 200, headers: {}, body: '<html>login</html>' }),
			'The service answered HTTP 200 with a body that is not valid JSON',
			/Base URL/,
		],
	])(
		'GET gives up after MAX_ATTEMPTS on %s, with a clear error',
		async (_, respond, message, description) => {
			const ctx = fakeContext(fake, respond);
			const error = await failure(
				call(ctx, 'GET', '/v1/vendors', undefined, undefined, { itemIndex: 4 }),
			);
			expect(ctx.calls).toHaveLength(MAX_ATTEMPTS);
			expect(error.message).toBe(message);
			expect(error.description).toMatch(description);
			expect(error.context.itemIndex).toBe(4);
		},
	);
});

describe('the attempt and its deadline', () => {
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

	it('an answer trickled a byte at a time ends at the total deadline, and its connection is closed', async () => {
		await serve((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json', ...okHeaders() });
			res.write('{"data":[');
			const trickle = setInterval(() => res.write(' '), 100);
			res.on('close', () => clearInterval(trickle)); // the server's close ends the answer too
		});
		const { t } = transportWithShiftableClock(1_000);
		const { ms, result } = await timed(failure(getVendors(t, { waitBudgetMs: 0 })));
		expect(result.message).toBe('Could not reach the Business Finance service (ETIMEDOUT)');
		expect(result.description).toMatch(/did not finish answering within 1s/);
		expect(ms).toBeGreaterThanOrEqual(950);
		expect(ms).toBeLessThan(2_500);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(server.open()).toBe(0);
	}, 10_000);

	it('the wait a 5xx asks for is charged to the budget: no retry that does not fit', async () => {
		await serve((_req, res) =>
			answer(
				res,
				503,
				{ error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } },
				{ ...okHeaders(), 'retry-after': '3' },
			),
		);
		const { t } = transportWithShiftableClock();
		const { ms, result } = await timed(failure(getVendors(t, { waitBudgetMs: 1_000 })));
		expect(result.message).toBe('SERVICE_UNAVAILABLE: down');
		expect(result.description).toMatch(
			/Not retried: the wait before the next try does not fit in the rate-limit wait budget/,
		);
		expect(ms).toBeLessThan(1_000);
		expect(server.hits).toHaveLength(1);
	});

	it('a null body or a throwing helper never leaves the key locked', async () => {
		const ctx = fakeContext(fake, sequence(new TypeError('boom'), ok(), ok()));
		await failure(call(ctx, 'POST', '/v1/vendors', null as never));
		await expect(call(ctx, 'GET', '/v1/vendors')).resolves.toEqual({ data: { id: 'x' } });
		await expect(call(ctx, 'POST', '/v1/vendors', null as never)).resolves.toEqual({
			data: { id: 'x' },
		});
		expect(ctx.calls[2].options.body).toBeUndefined();
		expect([...limiters.values()].map((limiter) => limiter.waiting)).toEqual([0]);
		expect(fake.pendingTimers).toBe(0);
	});
});
