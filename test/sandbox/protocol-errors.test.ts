/**
 * Transport-level errors (docs/api-decisions.md): INVALID_JSON, NOT_FOUND (route), METHOD_NOT_ALLOWED,
 * PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, and the error body shape. None of them may change
 * state.
 */
import { achVendor, expectError, startHarness, vendorTotal, type Harness } from './support';

let h: Harness;

beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => {
	await h?.close();
});
beforeEach(async () => {
	await h.admin.reset('none');
});

describe('error body shape', () => {
	test('errors are {error:{code,message}} JSON with nothing else at the top level', async () => {
		const res = await h.api.get('/v1/nope');
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(Object.keys(res.body)).toEqual(['error']);
		expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message']);
	});
});

describe('INVALID_JSON', () => {
	test.each([
		['truncated', '{"name": "Acme", '],
		['not JSON at all', 'name=Acme'],
		['trailing garbage', '{"name": "Acme"} x'],
		['single quotes', "{'name': 'Acme'}"],
	])('%s body with application/json: 400 INVALID_JSON, nothing created', async (_label, body) => {
		const res = await h.api.post('/v1/vendors', undefined, {
			rawBody: body,
			headers: { 'content-type': 'application/json' },
		});
		expectError(res, 400, 'INVALID_JSON');
		expect(await vendorTotal(h)).toBe(0);
	});

	test('PATCH with broken JSON: 400 INVALID_JSON', async () => {
		const created = await h.api.post('/v1/vendors', achVendor());
		expect(created.status).toBe(201);
		const res = await h.api.patch(`/v1/vendors/${created.body.data.id}`, undefined, {
			rawBody: '{"name":',
			headers: { 'content-type': 'application/json; charset=utf-8' },
		});
		expectError(res, 400, 'INVALID_JSON');
		const after = await h.api.get(`/v1/vendors/${created.body.data.id}`);
		expect(after.body.data.name).toBe(created.body.data.name);
	});

	test('a JSON body that is not an object is a validation error, not a crash', async () => {
		for (const body of ['[]', '"text"', '42', 'null']) {
			const res = await h.api.post('/v1/vendors', undefined, {
				rawBody: body,
				headers: { 'content-type': 'application/json' },
			});
			expect({ body, status: res.status, code: res.body?.error?.code }).toEqual({
				body,
				status: 400,
				code: 'VALIDATION_ERROR',
			});
			expect(res.body.error.message).toContain('body');
		}
		expect(await vendorTotal(h)).toBe(0);
	});
});

describe('NOT_FOUND for routes', () => {
	test.each([
		['GET', '/v1/nope'],
		['GET', '/v1/customers'],
		['POST', '/v1/invoices'],
		['GET', '/v2/vendors'],
		['GET', '/vendors'],
		['GET', '/v1/treasury/balances'],
		['GET', '/v1/treasury/deposit_instructions'],
		['POST', '/v1/receivables/00000000-0000-4000-8000-000000000000/remind'],
	])('%s %s: 404 NOT_FOUND', async (method, path) => {
		const res = await h.api.request(method, path, method === 'POST' ? { body: {} } : {});
		expectError(res, 404, 'NOT_FOUND');
	});
});

describe('path edges', () => {
	test('a trailing slash is not the route: 404', async () => {
		expectError(await h.api.get('/v1/vendors/'), 404, 'NOT_FOUND');
	});

	test('HEAD on an existing path: 405', async () => {
		const res = await h.api.request('HEAD', '/v1/vendors');
		expect(res.status).toBe(405);
	});
});

describe('METHOD_NOT_ALLOWED', () => {
	test.each([
		['DELETE', '/v1/vendors'],
		['PUT', '/v1/vendors/00000000-0000-4000-8000-000000000000'],
		['DELETE', '/v1/receivables/00000000-0000-4000-8000-000000000000'],
		['PUT', '/v1/payables/00000000-0000-4000-8000-000000000000'],
		['GET', '/v1/receivables/00000000-0000-4000-8000-000000000000/send'],
		['POST', '/v1/treasury/balance'],
		['POST', '/v1/treasury/transactions'],
		['DELETE', '/v1/treasury/deposit-instructions'],
		['PUT', '/v1/webhooks/ep_x'],
		['POST', '/v1/webhooks/ep_x/secret'],
	])('%s %s: 405 METHOD_NOT_ALLOWED', async (method, path) => {
		const res = await h.api.request(
			method,
			path,
			method === 'GET' || method === 'DELETE' ? {} : { body: {} },
		);
		expectError(res, 405, 'METHOD_NOT_ALLOWED');
	});
});

describe('PAYLOAD_TOO_LARGE', () => {
	test('a body over 1 MiB: 413, nothing created', async () => {
		const body = JSON.stringify(achVendor({ name: 'x'.repeat(1024 * 1024 + 10) }));
		const res = await h.api.post('/v1/vendors', undefined, {
			rawBody: body,
			headers: { 'content-type': 'application/json' },
		});
		expectError(res, 413, 'PAYLOAD_TOO_LARGE');
		expect(await vendorTotal(h)).toBe(0);
	});

	test('a body just under 1 MiB is not rejected for its size', async () => {
		const vendor = achVendor({ name: 'Big notes vendor' });
		const base = JSON.stringify(vendor);
		// pad with insignificant whitespace so the content stays valid
		const body = base.replace('{', '{' + ' '.repeat(1024 * 1024 - base.length - 16));
		expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
		const res = await h.api.post('/v1/vendors', undefined, {
			rawBody: body,
			headers: { 'content-type': 'application/json' },
		});
		expect(res.status).toBe(201);
	});
});

describe('UNSUPPORTED_MEDIA_TYPE', () => {
	test.each([
		['text/plain'],
		['application/x-www-form-urlencoded'],
		['multipart/form-data; boundary=x'],
		['application/xml'],
	])('a body sent as %s: 415, nothing created', async (type) => {
		const res = await h.api.post('/v1/vendors', undefined, {
			rawBody: JSON.stringify(achVendor()),
			headers: { 'content-type': type },
		});
		expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
		expect(await vendorTotal(h)).toBe(0);
	});

	test('a PATCH body without a JSON content type: 415', async () => {
		const created = await h.api.post('/v1/vendors', achVendor());
		const res = await h.api.patch(`/v1/vendors/${created.body.data.id}`, undefined, {
			rawBody: JSON.stringify({ name: 'Renamed' }),
			headers: { 'content-type': 'text/plain' },
		});
		expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
	});

	test('application/json with a charset is accepted', async () => {
		const res = await h.api.post('/v1/vendors', undefined, {
			rawBody: JSON.stringify(achVendor()),
			headers: { 'content-type': 'application/json; charset=utf-8' },
		});
		expect(res.status).toBe(201);
	});
});

describe('success answers are JSON', () => {
	test('content type of a success answer', async () => {
		const res = await h.api.get('/v1/treasury/balance');
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
	});
});
