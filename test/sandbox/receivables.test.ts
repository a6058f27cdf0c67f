/**
 * Receivables: POST /v1/receivables, PATCH /v1/receivables/{id}, POST /v1/receivables/{id}/send.
 * Representation, per-field validation and the lifecycle in docs/api-decisions.md (draft → sent → paid, overdue,
 * cancelled) with the admin routes for the service-side moves.
 */
import { randomUUID } from 'crypto';

import {
	RECEIVABLE_FIELDS,
	expectDateTime,
	expectError,
	expectOnlyFields,
	expectUnset,
	expectValidationError,
	receivableBody,
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
	const res = await h.api.post('/v1/receivables', receivableBody(overrides));
	expect(res.status).toBe(201);
	return res.body.data as Record<string, any>;
}

/**
 * The receivable as last emitted in an event: there is no GET route for receivables, and every
 * successful change emits one, so this is its current state (failed requests emit nothing).
 */
async function current(id: string): Promise<Record<string, any>> {
	const events = await h.admin.events();
	const mine = events.filter((e: any) => e.type.startsWith('receivable.') && e.data?.id === id);
	expect(mine.length).toBeGreaterThan(0);
	return mine[mine.length - 1].data;
}

/** A receivable in the given state, reached through the documented routes. */
async function inState(status: 'draft' | 'sent' | 'paid' | 'overdue' | 'cancelled') {
	const r = await create();
	if (status === 'draft') return r;
	if (status === 'cancelled') {
		const res = await h.api.patch(`/v1/receivables/${r.id}`, { status: 'cancelled' });
		expect(res.status).toBe(200);
		return res.body.data;
	}
	const sent = await h.api.post(`/v1/receivables/${r.id}/send`);
	expect(sent.status).toBe(200);
	if (status === 'sent') return sent.body.data;
	const admin = await h.raw.post(`/_admin/receivables/${r.id}/status`, { status });
	expect(admin.status).toBe(200);
	expect(admin.body.data.status).toBe(status);
	return admin.body.data;
}

describe('POST /v1/receivables', () => {
	test('201 with every field of the representation', async () => {
		const body = receivableBody();
		const res = await h.api.post('/v1/receivables', body);
		expect(res.status).toBe(201);
		const r = res.body.data;
		expect(Object.keys(res.body)).toEqual(['data']);
		expectOnlyFields(r, RECEIVABLE_FIELDS);
		expect(r.id).toMatch(UUID_RE);
		expect(r).toMatchObject({
			invoice_number: body.invoice_number,
			customer_id: body.customer_id,
			customer_name: body.customer_name,
			customer_email: body.customer_email,
			amount: body.amount,
			currency: 'USD',
			due_date: body.due_date,
			notes: body.notes,
			status: 'draft',
		});
		expect(typeof r.amount).toBe('number');
		expectUnset(r, 'sent_at');
		expectUnset(r, 'paid_at');
		expectDateTime(r.created_at);
		expectDateTime(r.updated_at);
		expect(Math.abs(Date.parse(r.created_at) - Date.now())).toBeLessThan(60_000);
	});

	test('only the required fields: invoice_number and amount', async () => {
		const res = await h.api.post('/v1/receivables', { invoice_number: 'INV-MIN-1', amount: 0.01 });
		expect(res.status).toBe(201);
		const r = res.body.data;
		expect(r).toMatchObject({
			invoice_number: 'INV-MIN-1',
			amount: 0.01,
			status: 'draft',
			currency: 'USD',
		});
		for (const f of [
			'customer_id',
			'customer_name',
			'customer_email',
			'due_date',
			'notes',
			'sent_at',
			'paid_at',
		]) {
			expectUnset(r, f);
		}
	});

	test('send_immediately: true gives sent with sent_at', async () => {
		const res = await h.api.post('/v1/receivables', receivableBody({ send_immediately: true }));
		expect(res.status).toBe(201);
		expect(res.body.data.status).toBe('sent');
		expectDateTime(res.body.data.sent_at);
		expect(res.body.data).not.toHaveProperty('send_immediately');
	});

	test('send_immediately: false gives draft', async () => {
		const res = await h.api.post('/v1/receivables', receivableBody({ send_immediately: false }));
		expect(res.status).toBe(201);
		expect(res.body.data.status).toBe('draft');
	});

	test('send_immediately without customer_email: 400 naming customer_email, nothing created', async () => {
		await h.admin.reset('none');
		const body = receivableBody({ send_immediately: true });
		delete body.customer_email;
		expectValidationError(await h.api.post('/v1/receivables', body), 'customer_email');
		const events = await h.admin.events();
		expect(events.filter((e) => e.type.startsWith('receivable.'))).toEqual([]);
	});

	describe('validation', () => {
		const cases: Array<[string, Record<string, unknown>, string]> = [
			['invoice_number missing', { invoice_number: undefined }, 'invoice_number'],
			['amount missing', { amount: undefined }, 'amount'],
			['invoice_number not a string', { invoice_number: 1234 }, 'invoice_number'],
			['amount as a string', { amount: '100.00' }, 'amount'],
			['amount null', { amount: null }, 'amount'],
			['amount below 0.01', { amount: 0.009 }, 'amount'],
			['amount zero', { amount: 0 }, 'amount'],
			['amount negative', { amount: -5 }, 'amount'],
			['customer_id not a uuid', { customer_id: 'cust_123' }, 'customer_id'],
			['customer_email not an email', { customer_email: 'not-an-email' }, 'customer_email'],
			['customer_name not a string', { customer_name: 42 }, 'customer_name'],
			['due_date not a date', { due_date: '31/12/2026' }, 'due_date'],
			['due_date impossible', { due_date: '2026-02-30' }, 'due_date'],
			['due_date a date-time', { due_date: '2026-12-31T00:00:00Z' }, 'due_date'],
			['notes not a string', { notes: ['a'] }, 'notes'],
			['send_immediately not a boolean', { send_immediately: 'yes' }, 'send_immediately'],
			['invoice_number blank', { invoice_number: '  ' }, 'invoice_number'],
			['invoice_number over 255 characters', { invoice_number: 'I'.repeat(256) }, 'invoice_number'],
			['customer_name over 255 characters', { customer_name: 'C'.repeat(256) }, 'customer_name'],
			['notes over 5000 characters', { notes: 'n'.repeat(5001) }, 'notes'],
			['amount with three decimals', { amount: 10.005 }, 'amount'],
			['amount over 1,000,000,000,000', { amount: 1_000_000_000_000.01 }, 'amount'],
			['customer_email null', { customer_email: null }, 'customer_email'],
			['an unknown field', { currency: 'EUR' }, 'currency'],
			['a read-only field', { status: 'sent' }, 'status'],
		];
		test.each(cases)(
			'%s: 400 VALIDATION_ERROR naming the field',
			async (_label, overrides, field) => {
				const body = receivableBody(overrides);
				for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete body[k];
				expectValidationError(await h.api.post('/v1/receivables', body), field);
			},
		);

		test('amount of exactly 0.01, and exactly 1,000,000,000,000, are accepted', async () => {
			expect((await h.api.post('/v1/receivables', receivableBody({ amount: 0.01 }))).status).toBe(
				201,
			);
			expect(
				(await h.api.post('/v1/receivables', receivableBody({ amount: 1_000_000_000_000 }))).status,
			).toBe(201);
		});

		test('255-character invoice_number and 5000-character notes are accepted', async () => {
			const res = await h.api.post(
				'/v1/receivables',
				receivableBody({ invoice_number: 'I'.repeat(255), notes: 'n'.repeat(5000) }),
			);
			expect(res.status).toBe(201);
			expect(res.body.data.notes).toHaveLength(5000);
		});

		test('no body at all: 400', async () => {
			const res = await h.api.request('POST', '/v1/receivables');
			expect(res.status).toBe(400);
			expect(['VALIDATION_ERROR', 'INVALID_JSON']).toContain(res.body.error.code);
		});

		test('an empty object names a required field', async () => {
			const res = await h.api.post('/v1/receivables', {});
			expectError(res, 400, 'VALIDATION_ERROR');
			expect(res.body.error.message).toMatch(/invoice_number|amount/);
		});
	});
});

describe('PATCH /v1/receivables/{id}', () => {
	test('notes and due_date: 200, other fields unchanged, updated_at moves', async () => {
		const r = await create();
		await sleep(5);
		const res = await h.api.patch(`/v1/receivables/${r.id}`, {
			notes: 'Updated',
			due_date: '2027-01-15',
		});
		expect(res.status).toBe(200);
		expectOnlyFields(res.body.data, RECEIVABLE_FIELDS);
		expect(res.body.data).toMatchObject({
			...r,
			notes: 'Updated',
			due_date: '2027-01-15',
			updated_at: expect.any(String),
		});
		expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(r.updated_at));
		expect(res.body.data.created_at).toBe(r.created_at);
	});

	test('an empty body: 400 (at least one field), nothing changes', async () => {
		const r = await create();
		expectError(await h.api.patch(`/v1/receivables/${r.id}`, {}), 400, 'VALIDATION_ERROR');
		expect(await current(r.id)).toEqual(r);
	});

	test('null is not accepted for a field', async () => {
		const r = await create();
		expectValidationError(await h.api.patch(`/v1/receivables/${r.id}`, { notes: null }), 'notes');
		expect(await current(r.id)).toEqual(r);
	});

	test('PATCH to the current status: 409', async () => {
		const r = await create();
		expectError(
			await h.api.patch(`/v1/receivables/${r.id}`, { status: 'draft' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
		const c = await inState('cancelled');
		expectError(
			await h.api.patch(`/v1/receivables/${c.id}`, { status: 'cancelled' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
	});

	test('unknown id: 404 NOT_FOUND', async () => {
		expectError(
			await h.api.patch(`/v1/receivables/${randomUUID()}`, { notes: 'x' }),
			404,
			'NOT_FOUND',
		);
	});

	test('an id that is not a uuid: 404 NOT_FOUND', async () => {
		expectError(await h.api.patch('/v1/receivables/not-a-uuid', { notes: 'x' }), 404, 'NOT_FOUND');
		expectError(await h.api.post('/v1/receivables/not-a-uuid/send'), 404, 'NOT_FOUND');
	});

	const invalid: Array<[string, Record<string, unknown>, string]> = [
		['status not writable (sent)', { status: 'sent' }, 'status'],
		['status not writable (paid)', { status: 'paid' }, 'status'],
		['status unknown', { status: 'archived' }, 'status'],
		['status wrong type', { status: 1 }, 'status'],
		['due_date bad', { due_date: '2026-13-01' }, 'due_date'],
		['notes wrong type', { notes: 12 }, 'notes'],
		['amount not patchable', { amount: 10 }, 'amount'],
		['customer_email not patchable', { customer_email: 'a@b.example' }, 'customer_email'],
	];
	test.each(invalid)('%s: 400 naming the field, no change', async (_label, body, field) => {
		const r = await create();
		expectValidationError(await h.api.patch(`/v1/receivables/${r.id}`, body), field);
		expect(await current(r.id)).toEqual(r);
	});
});

describe('POST /v1/receivables/{id}/send', () => {
	test('from draft: 200, sent, sent_at set', async () => {
		const r = await create();
		const res = await h.api.post(`/v1/receivables/${r.id}/send`);
		expect(res.status).toBe(200);
		expectOnlyFields(res.body.data, RECEIVABLE_FIELDS);
		expect(res.body.data.status).toBe('sent');
		expectDateTime(res.body.data.sent_at);
	});

	test('from sent (a reminder): 200, sent, sent_at renewed', async () => {
		const r = await inState('sent');
		await sleep(5);
		const res = await h.api.post(`/v1/receivables/${r.id}/send`);
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe('sent');
		expect(Date.parse(res.body.data.sent_at)).toBeGreaterThanOrEqual(Date.parse(r.sent_at));
	});

	test('from overdue: 200, sent', async () => {
		const r = await inState('overdue');
		expect(r.status).toBe('overdue');
		const res = await h.api.post(`/v1/receivables/${r.id}/send`);
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe('sent');
	});

	test.each([['paid'], ['cancelled']] as const)(
		'from %s: 409 INVALID_STATUS_TRANSITION, unchanged',
		async (state) => {
			const r = await inState(state);
			expectError(
				await h.api.post(`/v1/receivables/${r.id}/send`),
				409,
				'INVALID_STATUS_TRANSITION',
			);
			if (state === 'cancelled') {
				// cancelled can still be patched back to draft, proving the failed send changed nothing
				const back = await h.api.patch(`/v1/receivables/${r.id}`, { status: 'draft' });
				expect(back.status).toBe(200);
			}
		},
	);

	test('without customer_email: 400 naming customer_email, still draft', async () => {
		const r = await create({ customer_email: undefined });
		expectUnset(r, 'customer_email');
		expect(r.status).toBe('draft');
		expectValidationError(await h.api.post(`/v1/receivables/${r.id}/send`), 'customer_email');
		expect(await current(r.id)).toEqual(r);
	});

	test('unknown id: 404 NOT_FOUND', async () => {
		expectError(await h.api.post(`/v1/receivables/${randomUUID()}/send`), 404, 'NOT_FOUND');
	});

	test('an empty JSON object as body is accepted', async () => {
		const r = await create();
		const res = await h.api.post(`/v1/receivables/${r.id}/send`, {});
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe('sent');
	});

	test('no body but Content-Type: application/json is accepted (as some clients send it)', async () => {
		const r = await create();
		const res = await h.api.request('POST', `/v1/receivables/${r.id}/send`, {
			headers: { 'content-type': 'application/json' },
		});
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe('sent');
	});

	test('a body with fields is rejected (send takes no body)', async () => {
		const r = await create();
		const res = await h.api.post(`/v1/receivables/${r.id}/send`, { customer_email: 'x@y.example' });
		expectValidationError(res, 'customer_email');
		expect((await current(r.id)).status).toBe('draft');
	});
});

describe('lifecycle through PATCH status', () => {
	test.each([['draft'], ['sent'], ['overdue']] as const)('%s → cancelled: 200', async (state) => {
		const r = await inState(state);
		const res = await h.api.patch(`/v1/receivables/${r.id}`, { status: 'cancelled' });
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe('cancelled');
	});

	test.each([['cancelled'], ['sent']] as const)('%s → draft: 200', async (state) => {
		const r = await inState(state);
		const res = await h.api.patch(`/v1/receivables/${r.id}`, { status: 'draft' });
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe('draft');
	});

	test('overdue → draft: 409', async () => {
		const r = await inState('overdue');
		expectError(
			await h.api.patch(`/v1/receivables/${r.id}`, { status: 'draft' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
	});

	test.each([
		[{ status: 'cancelled' }],
		[{ status: 'draft' }],
		[{ notes: 'changed after payment' }],
		[{ due_date: '2027-06-01' }],
	])('paid is immutable: PATCH %j is 409 and changes nothing', async (body) => {
		const r = await inState('paid');
		expect(r.status).toBe('paid');
		expectDateTime(r.paid_at);
		expectError(
			await h.api.patch(`/v1/receivables/${r.id}`, body),
			409,
			'INVALID_STATUS_TRANSITION',
		);
		const events = await h.admin.events();
		const last = events.filter((e) => e.data?.id === r.id).pop();
		expect(last.type).toBe('receivable.paid');
		expect(last.data).toMatchObject({ status: 'paid', notes: r.notes, due_date: r.due_date });
	});

	test('draft → sent → paid, with sent_at and paid_at', async () => {
		const r = await create();
		const sent = (await h.api.post(`/v1/receivables/${r.id}/send`)).body.data;
		expect(sent.status).toBe('sent');
		const paid = await h.raw.post(`/_admin/receivables/${r.id}/status`, { status: 'paid' });
		expect(paid.status).toBe(200);
		expect(paid.body.data).toMatchObject({ id: r.id, status: 'paid', sent_at: sent.sent_at });
		expectDateTime(paid.body.data.paid_at);
	});

	test('admin: paid straight from draft and from overdue; overdue only from sent', async () => {
		const d = await create();
		const paid = await h.raw.post(`/_admin/receivables/${d.id}/status`, { status: 'paid' });
		expect(paid.status).toBe(200);
		expect(paid.body.data.status).toBe('paid');
		const o = await inState('overdue');
		expect(
			(await h.raw.post(`/_admin/receivables/${o.id}/status`, { status: 'paid' })).body.data.status,
		).toBe('paid');
		const d2 = await create();
		expectError(
			await h.raw.post(`/_admin/receivables/${d2.id}/status`, { status: 'overdue' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
		const c = await inState('cancelled');
		expectError(
			await h.raw.post(`/_admin/receivables/${c.id}/status`, { status: 'paid' }),
			409,
			'INVALID_STATUS_TRANSITION',
		);
	});

	test('admin status route: bad status 400, unknown id 404', async () => {
		const r = await create();
		const bad = await h.raw.post(`/_admin/receivables/${r.id}/status`, { status: 'sent' });
		expect(bad.status).toBe(400);
		const missing = await h.raw.post(`/_admin/receivables/${randomUUID()}/status`, {
			status: 'paid',
		});
		expectError(missing, 404, 'NOT_FOUND');
	});
});
