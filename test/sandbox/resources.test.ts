/**
 * What the node's own tests cannot show of the routes, e.g. the refusals of docs/api-decisions.md
 * the node's checks keep it from ever sending. The node against each route: test/node, test/e2e.
 * Then transport-level errors (docs/api-decisions.md): none of them may change state; the body is
 * checked before the resource exists (sandbox/API.md, order of checks).
 */
import { DOCUMENTED_FIELDS } from '../helpers/documented-fields';
import {
	achVendor,
	expectDateTime,
	expectError,
	expectOnlyFields,
	expectValidationError,
	receivableBody,
	useHarness,
} from './support';

const h = useHarness({}, { resetEach: true });

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_VENDOR = `/v1/vendors/${UNKNOWN_ID}`;
const payable = { invoice_number: 'BILL-1', amount: 980.25 };

test('each resource with exactly its documented fields; a vendor by id; a payable takes its vendor’s name', async () => {
	const v = (await h.api.post('/v1/vendors', achVendor())).body.data;
	expectOnlyFields(v, DOCUMENTED_FIELDS.vendor); // last4 only: no full numbers, swift_code or iban
	expect(v).toMatchObject({ account_number_last4: '6789', routing_number_last4: '0021' });
	expect((await h.api.get(`/v1/vendors/${v.id}`)).body.data).toEqual(v); // the assumed GET by id
	const r = (await h.api.post('/v1/receivables', receivableBody({ notes: undefined }))).body.data;
	expectOnlyFields(r, DOCUMENTED_FIELDS.receivable);
	expect(r).toMatchObject({ status: 'draft', currency: 'USD', notes: null, sent_at: null });
	expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
	expectDateTime((await h.api.post(`/v1/receivables/${r.id}/send`)).body.data.sent_at);
	const ofVendor = { vendor_id: v.id, account_number: '000987654321', routing_number: '011000015' };
	const p = (await h.api.post('/v1/payables', { ...payable, ...ofVendor })).body.data;
	expectOnlyFields(p, DOCUMENTED_FIELDS.payable); // so no bank details either
	expect(p).toMatchObject({ status: 'pending_review', vendor_name: v.name, currency: 'USD' });
	await h.admin.addTransactions([{ type: 'deposit', amount: 10, currency: 'USD' }]);
	const [t] = (await h.api.get('/v1/treasury/transactions')).body.data;
	expectOnlyFields(t, DOCUMENTED_FIELDS.transaction);
});

test('vendor search matches the email too, in any case', async () => {
	await h.api.post('/v1/vendors', achVendor({ name: 'One', email: 'one@smoke.example' }));
	await h.api.post('/v1/vendors', achVendor({ name: 'Two', email: 'Two@Smoke.example' }));
	const found = await h.api.get('/v1/vendors', { query: { search: 'two@SMOKE' } });
	expect(found.body.data.map((x: { name: string }) => x.name)).toEqual(['Two']);
});

// [method, path (PAID: a paid receivable's id), body, status, the field named or the code]
const noEmail = receivableBody({ customer_email: undefined, send_immediately: true });
type Refusal = [string, string, object | undefined, number, string];
test.each<Refusal>([
	['POST', '/v1/receivables', receivableBody({ amount: 0 }), 400, 'amount'],
	['POST', '/v1/receivables', noEmail, 400, 'customer_email'],
	['PATCH', '/v1/receivables/PAID', {}, 400, 'body'],
	['PATCH', `/v1/receivables/${UNKNOWN_ID}`, { notes: 'x' }, 404, 'NOT_FOUND'],
	['PATCH', '/v1/receivables/PAID', { status: 'cancelled' }, 409, 'INVALID_STATUS_TRANSITION'],
	['POST', '/v1/payables', { ...payable, vendor_id: UNKNOWN_ID }, 400, 'vendor_id'],
	['PATCH', `/v1/payables/${UNKNOWN_ID}`, { notes: 'x' }, 404, 'NOT_FOUND'],
	['GET', `/v1/vendors/${UNKNOWN_ID}`, undefined, 404, 'NOT_FOUND'],
	...['q', 'query', 'name'].map((name): Refusal => [
		'GET',
		`/v1/vendors?${name}=x`,
		undefined,
		400,
		name,
	]),
	['GET', '/v1/treasury/transactions?from=2026-01-02&to=2026-01-01', undefined, 400, 'from'],
])('%s %s %j: %i naming %s', async (method, path, body, status, named) => {
	const paid = (await h.api.post('/v1/receivables', receivableBody())).body.data.id;
	await h.admin.setReceivableStatus(paid, 'paid');
	const res = await h.api.request(method, path.replace('PAID', paid), { body });
	if (status === 400) expectValidationError(res, named);
	else expectError(res, status, named);
});

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
	['POST', `/v1/receivables/${UNKNOWN_ID}/remind`, 404, 'NOT_FOUND'],
	['DELETE', '/v1/vendors', 405, 'METHOD_NOT_ALLOWED'],
	['PUT', `/v1/payables/${UNKNOWN_ID}`, 405, 'METHOD_NOT_ALLOWED'],
	['GET', `/v1/receivables/${UNKNOWN_ID}/send`, 405, 'METHOD_NOT_ALLOWED'],
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
