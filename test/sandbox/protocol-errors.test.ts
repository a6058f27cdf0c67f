/**
 * Transport-level errors (docs/api-decisions.md). None of them may change state; the body is
 * checked before the resource exists (sandbox/API.md, order of checks).
 */
import { achVendor, expectError, expectValidationError, useHarness } from './support';

const h = useHarness({}, { resetEach: true });

const ID = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_VENDOR = `/v1/vendors/${ID}`;

const send = (method: string, path: string, body: string, contentType = 'application/json') =>
	h.api.request(method, path, { rawBody: body, headers: { 'content-type': contentType } });

test('answers are JSON; errors are {error:{code,message}} with nothing else at the top level', async () => {
	expect((await h.api.get('/v1/treasury/balance')).headers['content-type']).toMatch(
		/^application\/json/,
	);
	const res = await h.api.get('/v1/nope');
	expect(res.headers['content-type']).toMatch(/^application\/json/);
	expect(Object.keys(res.body)).toEqual(['error']);
	expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message']);
});

describe('INVALID_JSON', () => {
	test.each([
		['POST', '/v1/vendors', '{"name": "Acme", '],
		['POST', '/v1/vendors', 'name=Acme'],
		['POST', '/v1/vendors', '{"name": "Acme"} x'],
		['POST', '/v1/vendors', "{'name': 'Acme'}"],
		['PATCH', UNKNOWN_VENDOR, '{"name":'],
	])('%s %s %j: 400 INVALID_JSON, nothing created', async (method, path, body) => {
		expectError(
			await send(method, path, body, 'application/json; charset=utf-8'),
			400,
			'INVALID_JSON',
		);
		expect((await h.admin.getStats()).counts.vendors).toBe(0);
	});

	test.each(['[]', '"text"', '42', 'null'])(
		'JSON that is not an object (%s): 400 naming the body, not a crash',
		async (body) => {
			expectValidationError(await send('POST', '/v1/vendors', body), 'body');
			expect((await h.admin.getStats()).counts.vendors).toBe(0);
		},
	);
});

test.each([
	['GET', '/v1/nope', 404, 'NOT_FOUND'],
	['GET', '/v2/vendors', 404, 'NOT_FOUND'],
	['GET', '/v1/vendors/', 404, 'NOT_FOUND'],
	['GET', '/v1/treasury/deposit_instructions', 404, 'NOT_FOUND'],
	['POST', `/v1/receivables/${ID}/remind`, 404, 'NOT_FOUND'],
	['DELETE', '/v1/vendors', 405, 'METHOD_NOT_ALLOWED'],
	['PUT', `/v1/payables/${ID}`, 405, 'METHOD_NOT_ALLOWED'],
	['GET', `/v1/receivables/${ID}/send`, 405, 'METHOD_NOT_ALLOWED'],
	['POST', '/v1/treasury/transactions', 405, 'METHOD_NOT_ALLOWED'],
	['GET', '/v1/webhooks', 405, 'METHOD_NOT_ALLOWED'],
	['POST', '/v1/webhooks/ep_x/secret', 405, 'METHOD_NOT_ALLOWED'],
] as const)('%s %s: %i %s', async (method, path, status, code) => {
	const body = method === 'GET' || method === 'DELETE' ? {} : { body: {} };
	expectError(await h.api.request(method, path, body), status, code);
});

test('HEAD on an existing path: 405', async () => {
	expect((await h.api.request('HEAD', '/v1/vendors')).status).toBe(405);
});

describe('PAYLOAD_TOO_LARGE', () => {
	test('a body over 1 MiB: 413, nothing created', async () => {
		const body = JSON.stringify(achVendor({ name: 'x'.repeat(1024 * 1024 + 10) }));
		expectError(await send('POST', '/v1/vendors', body), 413, 'PAYLOAD_TOO_LARGE');
		expect((await h.admin.getStats()).counts.vendors).toBe(0);
	});

	test('a body just under 1 MiB (and application/json with a charset) is accepted', async () => {
		const base = JSON.stringify(achVendor());
		// pad with insignificant whitespace so the content stays valid
		const body = base.replace('{', '{' + ' '.repeat(1024 * 1024 - base.length - 16));
		expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
		expect(
			(await send('POST', '/v1/vendors', body, 'application/json; charset=utf-8')).status,
		).toBe(201);
	});
});

test.each([
	['POST', '/v1/vendors', 'text/plain'],
	['POST', '/v1/vendors', 'application/x-www-form-urlencoded'],
	['PATCH', UNKNOWN_VENDOR, 'text/plain'],
])('%s %s with a body sent as %s: 415, nothing created', async (method, path, type) => {
	const res = await send(method, path, JSON.stringify(achVendor()), type);
	expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
	expect((await h.admin.getStats()).counts.vendors).toBe(0);
});
