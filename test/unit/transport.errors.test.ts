// errors.ts: every answer of the service, and what is not one, as a NodeApiError users can act on.
import { inspect } from 'util';
import { NodeApiError } from 'n8n-workflow';

import {
	getApiErrorInfo,
	unknownOutcome,
	type LostAnswer,
} from '../../nodes/BusinessFinance/transport/errors';
import * as receivableCreate from '../../nodes/BusinessFinance/actions/receivables/create.operation';
import { ENDPOINT_LOST } from '../../nodes/BusinessFinance/trigger/endpoints';
import {
	RECEIVABLE_MAY_EXIST,
	RECEIVABLE_MAY_EXIST_FOR_MODEL,
	RETRY_ADVICE,
} from '../helpers/outcomes';
import { expectNowhereIn } from '../helpers/secrets';
import {
	apiError,
	call,
	failure,
	fake,
	fakeContext,
	KEY,
	networkError,
	ok,
	freshClock,
	type ScriptedResponse,
	useFakeTransport,
} from './transport-fakes';

useFakeTransport();

describe('error mapping', () => {
	it.each<[number, string, RegExp]>([
		[401, 'MISSING_API_KEY', /No API key reached the service/],
		[401, 'INVALID_API_KEY', /invalid or has been revoked. Create a new key/],
		[401, 'API_KEY_EXPIRED', /has expired. Create a new key/],
		[400, 'VALIDATION_ERROR', /Check the field named in the message/],
		[400, 'INVALID_JSON', /could not read the request body as JSON/],
		[404, 'NOT_FOUND', /Check the ID/],
		[405, 'METHOD_NOT_ALLOWED', /does not support this operation/],
		[409, 'INVALID_STATUS_TRANSITION', /Fetch its current status/],
		[413, 'PAYLOAD_TOO_LARGE', /Shorten long text fields/],
		[415, 'UNSUPPORTED_MEDIA_TYPE', /a problem in the node; please report it/],
	])(
		'HTTP %i %s becomes a NodeApiError with the code, the message and what to do',
		async (status, code, whatToDo) => {
			// POST so that 5xx is not retried and the mapping is seen on the first answer.
			const ctx = fakeContext(fake, () =>
				apiError(status, code, `the service says ${code.toLowerCase()}`),
			);
			const error = await failure(
				call(ctx, 'POST', '/v1/receivables', { amount: 1 }, undefined, { itemIndex: 2 }),
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(`${code}: the service says ${code.toLowerCase()}`);
			expect(error.description).toMatch(whatToDo);
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

	const page =
		'<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>';
	const HINT = /Check the node parameters/;
	it.each<[string, ScriptedResponse, string, RegExp, object]>([
		[
			'an unknown code',
			apiError(418, 'TEAPOT', 'short and stout'),
			'TEAPOT: short and stout',
			HINT,
			{ status: 418, code: 'TEAPOT', serviceMessage: 'short and stout' },
		],
		[
			'a code named like an object property',
			apiError(418, 'constructor', 'not ours'),
			'constructor: not ours',
			HINT,
			{ status: 418, code: 'constructor', serviceMessage: 'not ours' },
		],
		[
			'an empty 4xx',
			{ statusCode: 422, body: '' },
			'The service answered HTTP 422',
			HINT,
			{ status: 422 },
		],
		[
			'a plain-text 400',
			{ statusCode: 400, body: 'bad request' },
			'The service answered HTTP 400 with a body that is not JSON',
			HINT,
			{ status: 400 },
		],
		[
			"a proxy's HTML page",
			{ statusCode: 502, body: page },
			'The service answered HTTP 502 with an HTML page ("502 Bad Gateway")',
			/Base URL.*Outcome unknown/,
			{ status: 502 },
		],
	])('%s gives a clear error with the status', async (_, response, message, description, info) => {
		const ctx = fakeContext(fake, () => response);
		const error = await failure(call(ctx, 'POST', '/v1/payables', { amount: 1 }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(message);
		expect(error.description).toMatch(description);
		expect(getApiErrorInfo(error)).toEqual(info);
	});

	it('never lets the key into the error, even when the service or the helper echoes it', async () => {
		const responses: Array<ScriptedResponse | Error> = [
			apiError(401, 'INVALID_API_KEY', `key ${KEY} is not valid`),
			networkError('ECONNREFUSED'),
			new Error(`unexpected failure with Authorization: Bearer ${KEY}`),
			Object.assign(new Error('unexpected failure'), { description: `Bearer ${KEY} refused` }),
			{ statusCode: 500, headers: {}, body: `<html>Authorization: Bearer ${KEY}</html>` },
		];
		for (const response of responses) {
			freshClock(); // each echo on a key no answer has blocked yet
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
			expectNowhereIn(serialised, KEY, KEY.slice(4));
		}
	});

	it('fails at once with a clear error when the reset is beyond the wait budget', async () => {
		const ctx = fakeContext(fake, () =>
			apiError(429, 'RATE_LIMITED', 'slow', {
				'x-ratelimit-reset': String(Math.floor(fake.now / 1000) + 600),
			}),
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
		// what this key's limit is, only the service says (its headers may name another window)
		expect(error.description).toMatch(
			/^This run needs more requests than the service's rate limit for this API key allows in that time\. Raise the node option 'Max Wait for Rate Limits/,
		);
		expect(error.httpCode).toBe('429');
		expect(getApiErrorInfo(error)).toEqual({ status: 429, code: 'RATE_LIMITED' });
	});

	it('fails at once with a clear error when the reset is beyond the wait budget, naming the limit the service reported', async () => {
		const ctx = fakeContext(fake, () =>
			apiError(429, 'RATE_LIMITED', 'slow', {
				'x-ratelimit-limit': '7',
				'x-ratelimit-remaining': '0',
				'x-ratelimit-reset': String(Math.floor(fake.now / 1000) + 600),
			}),
		);
		const error = await failure(call(ctx, 'GET', '/v1/vendors'));
		expect(error.description).toMatch(
			/^This run needs more requests than the service's rate limit for this API key \(7 requests per window, as the service reports in X-RateLimit-Limit\) allows/,
		);
		expect(error.description).not.toMatch(/100/);
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

/** As axios rejects a response stream that ended early: the error holds the response. */
const cutAnswer = () =>
	Object.assign(new Error('stream has been aborted'), {
		code: 'ERR_BAD_RESPONSE',
		isAxiosError: true,
		response: { status: 201, headers: {}, data: '{"data": {"id": "rcv' },
	});
const coded = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('a create or send whose outcome is unknown', () => {
	const hang = () => new Promise<never>(() => undefined);
	const page = '<html><head><title>502 Bad Gateway</title></head></html>';
	it.each<[string, () => unknown]>([
		['500 INTERNAL_ERROR', () => apiError(500, 'INTERNAL_ERROR', 'boom')],
		['503 SERVICE_UNAVAILABLE', () => apiError(503, 'SERVICE_UNAVAILABLE', 'down')],
		['a 502 HTML page', () => ({ statusCode: 502, body: page })],
		['an empty 504', () => ({ statusCode: 504, body: '' })],
		['a dropped connection', () => Promise.reject(networkError('ECONNRESET'))],
		['a 201 whose body cannot be read', () => ({ statusCode: 201, body: '{"data": {"id' })],
		// what the HTTP layer throws for an answer that began and broke off
		['a 201 cut mid-body (an error carrying the response)', () => Promise.reject(cutAnswer())],
		[
			'a body that does not decompress',
			() => Promise.reject(coded('Z_DATA_ERROR', 'incorrect header check')),
		],
		[
			'a garbage status line',
			() => Promise.reject(coded('HPE_INVALID_CONSTANT', 'Parse Error: Expected HTTP/')),
		],
		[
			'an oversized header',
			() => Promise.reject(coded('HPE_HEADER_OVERFLOW', 'Parse Error: Header overflow')),
		],
		['no answer within the request timeout', hang],
	])(
		'%s: says the receivable may exist, how to check, and no advice to send again',
		async (_, answer) => {
			const ctx = fakeContext(fake, answer as never);
			const options = { lost: receivableCreate.lostAnswer };
			const error = await failure(call(ctx, 'POST', '/v1/receivables', {}, undefined, options));
			expect(ctx.calls).toHaveLength(1);
			expect(unknownOutcome(error)?.person).toMatch(RECEIVABLE_MAY_EXIST);
			expect(error.description).not.toMatch(RETRY_ADVICE);
			expect(unknownOutcome(error)?.person).toMatch(
				/^Outcome unknown: .*never retried automatically\.$/,
			);
			expect(error.description).toContain(unknownOutcome(error)?.person);
			expect(unknownOutcome(error)?.model).toMatch(RECEIVABLE_MAY_EXIST_FOR_MODEL);
		},
	);

	// the trigger's endpoint create gives its own text; a request sent once that gives none, a
	// generic one (each operation's own: test/faults/faults.test.ts)
	it.each<[string, LostAnswer, RegExp]>([
		['/v1/webhooks', ENDPOINT_LOST, /webhook endpoint may have been created/],
		[
			'/v1/anything',
			undefined as never,
			/the request may have taken effect\. Look in the dashboard/,
		],
	])('POST %s: says what may exist there and how to find it', async (path, lost, what) => {
		const ctx = fakeContext(fake, () => apiError(503, 'SERVICE_UNAVAILABLE', 'down'));
		const error = await failure(call(ctx, 'POST', path, {}, undefined, { lost }));
		expect(unknownOutcome(error)?.person).toMatch(what);
		expect(error.description).not.toMatch(RETRY_ADVICE);
	});

	it('a create refused by the service (4xx) or never sent has a known outcome', async () => {
		const refused = fakeContext(fake, () => apiError(400, 'VALIDATION_ERROR', 'amount'));
		expect(
			unknownOutcome(await failure(call(refused, 'POST', '/v1/receivables', {})))?.person,
		).toBeUndefined();
		const down = fakeContext(fake, () => Promise.reject(networkError('ECONNREFUSED')));
		const notSent = await failure(call(down, 'POST', '/v1/receivables', {}));
		expect(unknownOutcome(notSent)).toBeUndefined();
		expect(notSent.description).toMatch(/nothing was created; it is safe to run again/);
	});

	it('reads and updates keep their retry advice after their retries', async () => {
		const ctx = fakeContext(fake, () => apiError(503, 'SERVICE_UNAVAILABLE', 'down'));
		const error = await failure(call(ctx, 'PATCH', '/v1/vendors/v1', { name: 'x' }));
		expect(ctx.calls).toHaveLength(4);
		expect(error.description).toMatch(/temporarily unavailable\. Try again in a few minutes/);
		expect(unknownOutcome(error)?.person).toBeUndefined();
		const failing = fakeContext(fake, () => apiError(500, 'INTERNAL_ERROR', 'boom'));
		const read = await failure(call(failing, 'GET', '/v1/vendors'));
		expect(read.description).toMatch(/failed while handling the request\. Try again later/);
	});
});
