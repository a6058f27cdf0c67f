/**
 * Payables: POST /v1/payables and PATCH /v1/payables/{id}. Representation (no bank or wallet
 * details, ever), per-field validation, and the lifecycle pending_review ↔ ready → scheduled →
 * paid | failed with the admin route for the service-side moves.
 */
import { randomUUID } from 'crypto';

import {
	PAYABLE_FIELDS,
	achVendor,
	cryptoVendor,
	EVM_ADDRESS,
	expectDateTime,
	expectError,
	expectNoSecretFields,
	expectOnlyFields,
	expectUnset,
	expectValidationError,
	IBAN_BAD_CHECK,
	IBAN_VALID,
	payableBody,
	sleep,
	startHarness,
	UUID_RE,
	type Harness,
} from './support';

let h: Harness;

beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => {
	await h?.close();
});

async function create(overrides: Record<string, unknown> = {}) {
	const res = await h.api.post('/v1/payables', payableBody(overrides));
	expect(res.status).toBe(201);
	return res.body.data as Record<string, any>;
}

/** The payable as last emitted in an event (there is no GET route for payables). */
async function current(id: string): Promise<Record<string, any>> {
	const events = await h.admin.events();
	const mine = events.filter((e: any) => e.type.startsWith('payable.') && e.data?.id === id);
	expect(mine.length).toBeGreaterThan(0);
	return mine[mine.length - 1].data;
}

async function inState(status: 'pending_review' | 'ready' | 'scheduled' | 'paid' | 'failed') {
	const p = await create();
	if (status === 'pending_review') return p;
	const ready = await h.api.patch(`/v1/payables/${p.id}`, { status: 'ready' });
	expect(ready.status).toBe(200);
	if (status === 'ready') return ready.body.data;
	const scheduled = await h.raw.post(`/_admin/payables/${p.id}/status`, { status: 'scheduled' });
	expect(scheduled.status).toBe(200);
	if (status === 'scheduled') return scheduled.body.data;
	const end = await h.raw.post(`/_admin/payables/${p.id}/status`, { status });
	expect(end.status).toBe(200);
	return end.body.data;
}

describe('POST /v1/payables', () => {
	test('201 with every field, pending_review, no bank details anywhere', async () => {
		const body = payableBody();
		const res = await h.api.post('/v1/payables', body);
		expect(res.status).toBe(201);
		expect(Object.keys(res.body)).toEqual(['data']);
		const p = res.body.data;
		expectOnlyFields(p, PAYABLE_FIELDS);
		expect(p.id).toMatch(UUID_RE);
		expect(p).toMatchObject({
			invoice_number: body.invoice_number,
			vendor_name: body.vendor_name,
			amount: body.amount,
			currency: 'USD',
			due_date: body.due_date,
			notes: body.notes,
			payment_method: 'ach',
			status: 'pending_review',
		});
		expectUnset(p, 'vendor_id');
		expectDateTime(p.created_at);
		expectDateTime(p.updated_at);
		expectNoSecretFields(res.body);
		for (const secret of [
			body.account_number,
			body.routing_number,
			body.account_name,
			body.bank_name,
			body.vendor_email,
		]) {
			expect(res.text).not.toContain(String(secret));
		}
	});

	test('wire and crypto details are accepted and never returned', async () => {
		const wire = payableBody({
			payment_method: 'wire',
			account_number: 'DE0532013000',
			routing_number: undefined,
			swift_code: 'DEUTDEFF500',
			iban: IBAN_VALID,
			bank_address: '1 Bank Street, Frankfurt',
		});
		delete wire.routing_number;
		const w = await h.api.post('/v1/payables', wire);
		expect(w.status).toBe(201);
		expect(w.body.data.payment_method).toBe('wire');
		expectNoSecretFields(w.body);
		for (const secret of ['DE0532013000', 'DEUTDEFF500', IBAN_VALID, '1 Bank Street'])
			expect(w.text).not.toContain(secret);

		const crypto: Record<string, unknown> = {
			invoice_number: 'BILL-CRYPTO-1',
			amount: 42,
			vendor_name: 'Chain Contractor',
			payment_method: 'crypto',
			wallet_address: EVM_ADDRESS,
			wallet_chain: 'base',
		};
		const c = await h.api.post('/v1/payables', crypto);
		expect(c.status).toBe(201);
		expect(c.body.data.payment_method).toBe('crypto');
		expect(c.text).not.toContain(EVM_ADDRESS);
		expect(c.text).not.toContain('wallet_');
	});

	test("with vendor_id of an existing vendor: vendor_name and payment_method default to the vendor's", async () => {
		const vendor = (await h.api.post('/v1/vendors', cryptoVendor())).body.data;
		const res = await h.api.post('/v1/payables', {
			invoice_number: 'BILL-V-1',
			amount: 10,
			vendor_id: vendor.id,
		});
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			vendor_id: vendor.id,
			vendor_name: vendor.name,
			payment_method: 'crypto',
			status: 'pending_review',
		});
	});

	test('minimal body with vendor_name only', async () => {
		const res = await h.api.post('/v1/payables', {
			invoice_number: 'BILL-MIN',
			amount: 0.01,
			vendor_name: 'Solo',
		});
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			invoice_number: 'BILL-MIN',
			amount: 0.01,
			vendor_name: 'Solo',
		});
		for (const f of ['vendor_id', 'due_date', 'notes', 'payment_method'])
			expectUnset(res.body.data, f);
	});

	test('neither vendor_id nor vendor_name: 400 naming vendor', async () => {
		const res = await h.api.post('/v1/payables', { invoice_number: 'BILL-X', amount: 10 });
		expectError(res, 400, 'VALIDATION_ERROR');
		expect(res.body.error.message).toMatch(/vendor_id|vendor_name/);
	});

	test('vendor_id of no vendor: 400 naming vendor_id, nothing created', async () => {
		await h.admin.reset('none');
		expectValidationError(
			await h.api.post('/v1/payables', {
				invoice_number: 'BILL-X',
				amount: 10,
				vendor_id: randomUUID(),
			}),
			'vendor_id',
		);
		expect((await h.admin.events()).filter((e: any) => e.type === 'payable.created')).toEqual([]);
	});

	const cases: Array<[string, Record<string, unknown>, string]> = [
		['invoice_number missing', { invoice_number: undefined }, 'invoice_number'],
		['amount missing', { amount: undefined }, 'amount'],
		['amount zero', { amount: 0 }, 'amount'],
		['amount negative', { amount: -0.01 }, 'amount'],
		['amount a string', { amount: '980.25' }, 'amount'],
		['amount three decimals', { amount: 1.234 }, 'amount'],
		['vendor_id not a uuid', { vendor_id: 'vnd_123' }, 'vendor_id'],
		['vendor_email not an email', { vendor_email: 'billing-at-initech' }, 'vendor_email'],
		['due_date bad', { due_date: '2026-12-32' }, 'due_date'],
		['payment_method unknown', { payment_method: 'check' }, 'payment_method'],
		['routing_number bad ABA check digit', { routing_number: '021000022' }, 'routing_number'],
		['routing_number not 9 digits', { routing_number: '02100002' }, 'routing_number'],
		[
			'iban bad mod-97',
			{ payment_method: 'wire', routing_number: undefined, iban: IBAN_BAD_CHECK },
			'iban',
		],
		[
			'swift_code wrong length',
			{ payment_method: 'wire', routing_number: undefined, swift_code: 'DEUTDEF' },
			'swift_code',
		],
		[
			'wallet details with ach',
			{ wallet_address: EVM_ADDRESS, wallet_chain: 'ethereum' },
			'wallet',
		],
		['notes not a string', { notes: 5 }, 'notes'],
		['an unknown field', { currency: 'EUR' }, 'currency'],
		['a read-only field', { status: 'ready' }, 'status'],
	];
	test.each(cases)(
		'%s: 400 VALIDATION_ERROR naming the field',
		async (_label, overrides, field) => {
			const body = payableBody(overrides);
			for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete body[k];
			expectValidationError(await h.api.post('/v1/payables', body), field);
		},
	);

	test('crypto: wallet address must match an EVM chain; chain must be known', async () => {
		const base = {
			invoice_number: 'BILL-C',
			amount: 1,
			vendor_name: 'C',
			payment_method: 'crypto',
		};
		expectValidationError(
			await h.api.post('/v1/payables', {
				...base,
				wallet_address: '0x1234',
				wallet_chain: 'ethereum',
			}),
			'wallet_address',
		);
		expectValidationError(
			await h.api.post('/v1/payables', {
				...base,
				wallet_address: EVM_ADDRESS,
				wallet_chain: 'dogecoin',
			}),
			'wallet_chain',
		);
	});

	test('details without a payment method: 400 naming payment_method', async () => {
		const body = payableBody();
		delete body.payment_method;
		expectValidationError(await h.api.post('/v1/payables', body), 'payment_method');
	});
});

describe('PATCH /v1/payables/{id}', () => {
	test('notes and due_date: 200, rest unchanged, updated_at moves', async () => {
		const p = await create();
		await sleep(5);
		const res = await h.api.patch(`/v1/payables/${p.id}`, {
			notes: 'Approved by CFO',
			due_date: '2027-02-01',
		});
		expect(res.status).toBe(200);
		expectOnlyFields(res.body.data, PAYABLE_FIELDS);
		expect(res.body.data).toMatchObject({
			...p,
			notes: 'Approved by CFO',
			due_date: '2027-02-01',
			updated_at: expect.any(String),
		});
		expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(p.updated_at));
		expectNoSecretFields(res.body);
	});

	test('pending_review → ready → pending_review → ready', async () => {
		const p = await create();
		for (const status of ['ready', 'pending_review', 'ready']) {
			const res = await h.api.patch(`/v1/payables/${p.id}`, { status });
			expect({ status: res.status, value: res.body.data?.status }).toEqual({
				status: 200,
				value: status,
			});
		}
	});

	test('PATCH to the current status is accepted', async () => {
		const p = await inState('ready');
		const res = await h.api.patch(`/v1/payables/${p.id}`, { status: 'ready' });
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe('ready');
	});

	test.each([['scheduled'], ['paid'], ['failed']] as const)(
		'from %s: status, notes and due_date are all 409',
		async (state) => {
			const p = await inState(state);
			expect(p.status).toBe(state);
			for (const body of [
				{ status: 'ready' },
				{ status: 'pending_review' },
				{ notes: 'late edit' },
				{ due_date: '2027-01-01' },
			]) {
				expectError(
					await h.api.patch(`/v1/payables/${p.id}`, body),
					409,
					'INVALID_STATUS_TRANSITION',
				);
			}
			expect(await current(p.id)).toEqual(p);
		},
	);

	const invalid: Array<[string, Record<string, unknown>, string]> = [
		['status not writable', { status: 'paid' }, 'status'],
		['status unknown', { status: 'approved' }, 'status'],
		['due_date bad', { due_date: 'tomorrow' }, 'due_date'],
		['amount not patchable', { amount: 5 }, 'amount'],
		['null notes', { notes: null }, 'notes'],
	];
	test.each(invalid)('%s: 400 naming the field, unchanged', async (_label, body, field) => {
		const p = await create();
		expectValidationError(await h.api.patch(`/v1/payables/${p.id}`, body), field);
		expect(await current(p.id)).toEqual(p);
	});

	test('empty body: 400', async () => {
		const p = await create();
		expectError(await h.api.patch(`/v1/payables/${p.id}`, {}), 400, 'VALIDATION_ERROR');
	});

	test('unknown or malformed id: 404 NOT_FOUND', async () => {
		expectError(
			await h.api.patch(`/v1/payables/${randomUUID()}`, { notes: 'x' }),
			404,
			'NOT_FOUND',
		);
		expectError(await h.api.patch('/v1/payables/123', { notes: 'x' }), 404, 'NOT_FOUND');
	});

	test('GET /v1/payables/{id} is not a route of the spec: 405', async () => {
		const p = await create();
		expectError(await h.api.get(`/v1/payables/${p.id}`), 405, 'METHOD_NOT_ALLOWED');
	});
});

describe('service-side moves (admin)', () => {
	test('ready → scheduled → paid, and scheduled → failed', async () => {
		const paid = await inState('paid');
		expect(paid.status).toBe('paid');
		const failed = await inState('failed');
		expect(failed.status).toBe('failed');
	});

	test('scheduled only from ready; paid/failed only from scheduled (409 otherwise)', async () => {
		const p = await create();
		expectError(
			await h.raw.post(`/_admin/payables/${p.id}/status`, { status: 'scheduled' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
		expectError(
			await h.raw.post(`/_admin/payables/${p.id}/status`, { status: 'paid' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
		const r = await inState('ready');
		expectError(
			await h.raw.post(`/_admin/payables/${r.id}/status`, { status: 'failed' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
		const done = await inState('paid');
		expectError(
			await h.raw.post(`/_admin/payables/${done.id}/status`, { status: 'failed' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
	});

	test('admin payable route: bad status 400, unknown id 404', async () => {
		const p = await inState('ready');
		expect((await h.raw.post(`/_admin/payables/${p.id}/status`, { status: 'ready' })).status).toBe(
			400,
		);
		expectError(
			await h.raw.post(`/_admin/payables/${randomUUID()}/status`, { status: 'scheduled' }),
			404,
			'NOT_FOUND',
		);
	});
});

describe("payable created against a vendor never leaks the vendor's details", () => {
	test('no account or routing number of the vendor in the payable', async () => {
		const vendorBody = achVendor({ account_number: '55554444333322', routing_number: '121000358' });
		const vendor = (await h.api.post('/v1/vendors', vendorBody)).body.data;
		const res = await h.api.post('/v1/payables', {
			invoice_number: 'BILL-LEAK',
			amount: 5,
			vendor_id: vendor.id,
		});
		expect(res.status).toBe(201);
		expect(res.body.data.payment_method).toBe('ach');
		expect(res.text).not.toContain('55554444333322');
		expect(res.text).not.toContain('121000358');
		expectNoSecretFields(res.body);
	});
});
