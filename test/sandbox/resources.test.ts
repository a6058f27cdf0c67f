/**
 * One smoke test per resource: the sandbox answers each route the node calls with the documented
 * representation, and refuses what the node must never send (400 naming the field, 404, 409,
 * unknown query parameters). The node against each resource: test/node and the e2e suites.
 */
import { RESOURCE_FIELDS } from '../../nodes/BusinessFinance/helpers/resourceFields';
import type { NewTransaction } from '../../sandbox';
import {
	achVendor,
	expectDateTime,
	expectError,
	expectOnlyFields,
	expectPageMeta,
	expectValidationError,
	payableBody,
	receivableBody,
	useHarness,
} from './support';

const h = useHarness();

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

test('receivable: create in USD, update, send, and the refusals the node reports', async () => {
	const created = await h.api.post('/v1/receivables', receivableBody({ notes: undefined }));
	expect(created.status).toBe(201);
	const r = created.body.data;
	expectOnlyFields(r, RESOURCE_FIELDS.receivable);
	expect(r).toMatchObject({ status: 'draft', currency: 'USD', notes: null, sent_at: null });
	expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

	const updated = await h.api.patch(`/v1/receivables/${r.id}`, { notes: 'Net 15' });
	expect(updated.body.data).toMatchObject({ id: r.id, notes: 'Net 15' });
	const sent = await h.api.post(`/v1/receivables/${r.id}/send`);
	expect(sent.body.data.status).toBe('sent');
	expectDateTime(sent.body.data.sent_at);

	expectValidationError(
		await h.api.post('/v1/receivables', receivableBody({ amount: 0 })),
		'amount',
	);
	const noEmail = receivableBody({ customer_email: undefined, send_immediately: true });
	expectValidationError(await h.api.post('/v1/receivables', noEmail), 'customer_email');
	expectValidationError(await h.api.patch(`/v1/receivables/${r.id}`, {}), 'field');
	expectError(await h.api.patch(`/v1/receivables/${UNKNOWN_ID}`, { notes: 'x' }), 404, 'NOT_FOUND');
	await h.admin.setReceivableStatus(r.id, 'paid');
	expectError(
		await h.api.patch(`/v1/receivables/${r.id}`, { status: 'cancelled' }),
		409,
		'INVALID_STATUS_TRANSITION',
	);
});

test('payable: create for a vendor (its name by default, no bank details back), approve', async () => {
	const vendor = (await h.api.post('/v1/vendors', achVendor())).body.data;
	const created = await h.api.post(
		'/v1/payables',
		payableBody({ vendor_id: vendor.id, vendor_name: undefined, payment_method: undefined }),
	);
	expect(created.status).toBe(201);
	const p = created.body.data;
	expectOnlyFields(p, RESOURCE_FIELDS.payable); // so no bank details either
	expect(p).toMatchObject({ status: 'pending_review', vendor_name: vendor.name, currency: 'USD' });

	const ready = await h.api.patch(`/v1/payables/${p.id}`, { status: 'ready' });
	expect(ready.body.data.status).toBe('ready');
	expectValidationError(
		await h.api.post('/v1/payables', payableBody({ vendor_id: UNKNOWN_ID })),
		'vendor_id',
	);
	expectError(await h.api.patch(`/v1/payables/${UNKNOWN_ID}`, { notes: 'x' }), 404, 'NOT_FOUND');
});

test('vendor: create, read, update, search with paging; only `search` filters', async () => {
	const created = await h.api.post('/v1/vendors', achVendor({ name: 'Smoke Vendor One' }));
	expect(created.status).toBe(201);
	const v = created.body.data;
	expectOnlyFields(v, RESOURCE_FIELDS.vendor); // last4 only: no full numbers, swift_code or iban
	expect(v).toMatchObject({ account_number_last4: '6789', routing_number_last4: '0021' });

	expect((await h.api.get(`/v1/vendors/${v.id}`)).body.data).toEqual(v);
	const renamed = await h.api.patch(`/v1/vendors/${v.id}`, { name: 'Smoke Vendor Renamed' });
	expect(renamed.body.data).toMatchObject({ id: v.id, name: 'Smoke Vendor Renamed' });
	expectError(await h.api.get(`/v1/vendors/${UNKNOWN_ID}`), 404, 'NOT_FOUND');

	await h.api.post(
		'/v1/vendors',
		achVendor({ name: 'Smoke Vendor Two', email: 'Two@Smoke.example' }),
	);
	const page = await h.api.get('/v1/vendors', { query: { search: 'smoke vendor', limit: 1 } });
	expectPageMeta(page, { page: 1, limit: 1, total: 2, has_more: true });
	// by email too, any case; a page read after a change shows it
	const byEmail = await h.api.get('/v1/vendors', { query: { search: 'two@SMOKE' } });
	expect(byEmail.body.data.map((x: { name: string }) => x.name)).toEqual(['Smoke Vendor Two']);
	await h.api.patch(`/v1/vendors/${v.id}`, { name: 'Smoke Vendor Third Name' });
	const names = (await h.api.get('/v1/vendors')).body.data.map((x: { name: string }) => x.name);
	expect(names).toContain('Smoke Vendor Third Name');
	for (const name of ['q', 'query', 'name']) {
		expectValidationError(await h.api.get('/v1/vendors', { query: { [name]: 'x' } }), name);
	}
});

test('treasury: transactions filtered by inclusive UTC dates and type; balance; deposit instructions', async () => {
	const at = (date: string, type: NewTransaction['type'], reference: string) => ({
		type,
		amount: 10,
		currency: 'USD',
		created_at: date,
		reference,
	});
	await h.admin.addTransactions([
		at('2025-12-31T23:59:59.999Z', 'deposit', 'before'),
		at('2026-01-01T00:00:00.000Z', 'deposit', 'first'),
		at('2026-01-01T23:59:59.999Z', 'withdrawal', 'last'),
		at('2026-01-02T00:00:00.000Z', 'deposit', 'after'),
	]);
	const refs = async (query: Record<string, string>) => {
		const res = await h.api.get('/v1/treasury/transactions', { query });
		for (const t of res.body.data) expectOnlyFields(t, RESOURCE_FIELDS.transaction);
		return res.body.data.map((t: any) => t.reference);
	};
	expect(await refs({ from: '2026-01-01', to: '2026-01-01' })).toEqual(['first', 'last']);
	expect(await refs({ from: '2026-01-01', type: 'deposit' })).toEqual(['first', 'after']);
	expectValidationError(
		await h.api.get('/v1/treasury/transactions', {
			query: { from: '2026-01-02', to: '2026-01-01' },
		}),
		'from',
	);

	const balance = (await h.api.get('/v1/treasury/balance')).body.data;
	expect(balance.balances).toEqual([{ currency: 'USD', available: 20, pending: 0 }]);
	expectDateTime(balance.updated_at);
	const instructions = (await h.api.get('/v1/treasury/deposit-instructions')).body.data;
	expect(Object.keys(instructions).sort()).toEqual(['ach', 'crypto', 'swift', 'wire']);
});
