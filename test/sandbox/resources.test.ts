/**
 * What the node's own tests cannot show of the routes, e.g. the refusals of docs/api-decisions.md
 * the node's checks keep it from ever sending. The node against each route: test/node, test/e2e.
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
