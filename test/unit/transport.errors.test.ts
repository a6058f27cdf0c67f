// errors.ts: every answer of the service, and what is not one, as a NodeApiError users can act on.
import { inspect } from 'util';
import { NodeApiError } from 'n8n-workflow';

import { getApiErrorInfo } from '../../nodes/BusinessFinance/transport/errors';
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
		[500, 'INTERNAL_ERROR', /failed while handling the request/],
		[503, 'SERVICE_UNAVAILABLE', /temporarily unavailable/],
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
			/Base URL.*may or may not/,
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
			expect(serialised).not.toContain(KEY);
			expect(serialised).not.toContain(KEY.slice(4));
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
