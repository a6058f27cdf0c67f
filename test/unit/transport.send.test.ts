// send.ts on a fake clock, and on a scripted server where only real HTTP shows it. A 429 is the
// limiter's to decide (transport.limiter.test.ts).
import fc from 'fast-check';
import { NodeOperationError } from 'n8n-workflow';

import type { HttpMethod } from '../../nodes/BusinessFinance/transport/send';
import * as vendorCreate from '../../nodes/BusinessFinance/actions/vendors/create.operation';
import {
	apiError,
	call,
	failure,
	fake,
	fakeContext,
	freshClock,
	json,
	KEY,
	limiters,
	networkError,
	ok,
	type ScriptedResponse,
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

describe('the retry decision', () => {
	const down = (headers: Record<string, string> = {}) =>
		apiError(503, 'SERVICE_UNAVAILABLE', 'down', headers);
	const unreadable = (): ScriptedResponse => ({ statusCode: 200, headers: {}, body: 'not json' });
	const reset = (): ScriptedResponse => {
		throw networkError('ECONNRESET');
	};
	const redirect = (): ScriptedResponse => ({
		statusCode: 301,
		headers: { location: 'https://elsewhere.example.com/v1/vendors' },
		body: '',
	});

	// A POST is never retried (but on 429): the property below, and transport.errors.test.ts.
	it.each<[string, () => ScriptedResponse]>([
		['a 4xx', () => apiError(404, 'NOT_FOUND', 'no such vendor')],
		['a redirect', redirect],
	])('not retried, even for GET: %s', async (_, respond) => {
		const ctx = fakeContext(fake, respond);
		const error = await failure(call(ctx, 'GET', '/v1/vendors'));
		expect(ctx.calls).toHaveLength(1);
		expect(error.description).not.toMatch(/Tried/);
	});

	it.each([
		[3, 3_000],
		[3_600, 30_000],
	])("a 5xx's Retry-After of %i s: the retry follows %i ms later (at most 30 s)", async (s, ms) => {
		const ctx = fakeContext(fake, sequence(down({ 'retry-after': String(s) }), ok()));
		await call(ctx, 'GET', '/v1/vendors', undefined, undefined, { waitBudgetMs: HOUR_MS });
		expect(ctx.calls[1].at - ctx.calls[0].at).toBe(ms);
	});

	it('property: whatever fails, a call never outlasts its budget, tries at most 4 times, never repeats a POST', async () => {
		const answer = fc.oneof(
			fc
				.option(fc.nat(7_200), { nil: undefined })
				.map((s) => () => down(s === undefined ? {} : { 'retry-after': String(s) })),
			fc.constantFrom(unreadable, reset, redirect, () => apiError(404, 'NOT_FOUND', 'no')),
		);
		await fc.assert(
			fc.asyncProperty(
				fc.array(answer, { minLength: 1, maxLength: 6 }),
				fc.constantFrom(...METHODS),
				fc.nat(HOUR_MS),
				async (answers, method, waitBudgetMs) => {
					freshClock();
					const ctx = fakeContext(fake, (_, i) => answers[Math.min(i, answers.length - 1)]());
					const start = fake.now;
					const body = method === 'GET' ? undefined : {};
					await failure(call(ctx, method, '/v1/vendors', body, undefined, { waitBudgetMs }));
					expect(fake.now - start).toBeLessThanOrEqual(waitBudgetMs);
					expect(ctx.calls.length).toBeLessThanOrEqual(method === 'POST' ? 1 : 4);
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe('the request', () => {
	// The rest of the request shows over real HTTP (transport.credential.test.ts).
	it('asks n8n for the answer as text (the transport parses it), empty query values left out', async () => {
		const ctx = fakeContext(fake, ok);
		await call(ctx, 'GET', '/v1/vendors', undefined, { a: 1, empty: '', none: undefined });
		expect(ctx.calls[0].options).toMatchObject({ encoding: 'text', json: false });
		expect(ctx.calls[0].options.qs).toEqual({ a: 1 });
		expect(JSON.stringify(ctx.calls[0].options)).not.toContain(KEY); // the credential adds it
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
		expect(fake.now - start).toBe(375 + 750 + 1_500); // jittered backoffs from 0.5 s, doubling
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
			'a dropped connection known only by its message (a wrapped error)',
			() => {
				throw new Error('socket hang up');
			},
			'Could not reach the Business Finance service (ECONNRESET)',
			/was closed before the service answered/,
		],
		[
			'a 2xx body that is never JSON',
			() => ({ statusCode: 200, headers: {}, body: '<html>login</html>' }),
			'The service answered HTTP 200 with a body that is not valid JSON',
			/Base URL/,
		],
	])(
		'GET gives up after 4 attempts on %s, with a clear error',
		async (_, respond, message, description) => {
			const ctx = fakeContext(fake, respond);
			const error = await failure(
				call(ctx, 'GET', '/v1/vendors', undefined, undefined, { itemIndex: 4 }),
			);
			expect(ctx.calls).toHaveLength(4);
			expect(error.message).toBe(message);
			expect(error.description).toMatch(description);
			expect(error.context.itemIndex).toBe(4);
		},
	);
});

describe('the attempt and its deadline', () => {
	it('a request on its way is abandoned when the execution is cancelled', async () => {
		const execution = new AbortController();
		const hangs = () => new Promise<never>(() => undefined);
		const ctx = fakeContext(fake, hangs, {}, [], execution.signal);
		void fake.clock.sleep(2_000).then(() => execution.abort());
		const lost = vendorCreate.lostAnswer;
		const error = await failure(
			fake.run(t.apiRequest.call(ctx as never, 'POST', '/v1/vendors', {}, undefined, { lost })),
		);
		expect(error.message).toMatch(/cancelled while a request was on its way/);
		expect(error.description).toMatch(
			/abandoned\. Outcome unknown: .*vendor may have been created/,
		);
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
