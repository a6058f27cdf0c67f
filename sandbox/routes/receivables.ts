/** Receivables: create, update, send (lifecycle draft → sent → paid, overdue, cancelled). */
import { randomUUID } from 'crypto';
import { invalidTransition, validationError } from '../errors';
import * as S from '../schemas';
import type { Receivable } from '../types';
import { nowIso } from '../util';
import { checkAmount } from '../validation';
import { body, findIn, moveTo, params, publish, type Ctx, type Define } from './common';

/** From which states the PATCH status values may be reached. */
const PATCH_FROM = {
	cancelled: ['draft', 'sent', 'overdue'],
	draft: ['cancelled', 'sent'],
};
const SEND_FROM = ['draft', 'sent', 'overdue'];

/** `/send` takes no body: nothing, or an empty object. */
function checkNoBody(b: unknown): void {
	if (b === undefined || b === null) return;
	if (typeof b !== 'object' || Array.isArray(b))
		throw validationError('body must be empty or {} (send takes no body)');
	const fields = Object.keys(b);
	if (fields.length)
		throw validationError(`${fields[0]} is not an allowed field (send takes no body)`);
}

export function receivableRoutes(define: Define, ctx: Ctx): void {
	const { store, events } = ctx;
	const receivables = store.receivables;
	const find = (id: string) => findIn(receivables, id, 'receivable');

	define('POST', '/v1/receivables', S.receivableCreate, (req, reply) => {
		const b = body<S.BodyOf<typeof S.receivableCreate>>(req);
		checkAmount('amount', b.amount);
		if (b.send_immediately && b.customer_email === undefined) {
			throw validationError(
				'customer_email is required to send a receivable (send_immediately is true)',
			);
		}
		const now = nowIso();
		const r: Receivable = {
			id: randomUUID(),
			invoice_number: b.invoice_number,
			customer_id: b.customer_id ?? null,
			customer_name: b.customer_name ?? null,
			customer_email: b.customer_email ?? null,
			amount: b.amount,
			currency: 'USD',
			due_date: b.due_date ?? null,
			status: 'draft',
			notes: b.notes ?? null,
			sent_at: null,
			paid_at: null,
			created_at: now,
			updated_at: now,
		};
		receivables.insert([r]);
		if (!b.send_immediately) return publish(ctx, reply, 201, r, 'receivable.created');
		events.emit('receivable.created', { ...r });
		Object.assign(r, { status: 'sent', sent_at: now });
		return publish(ctx, reply, 201, r, 'receivable.sent');
	});

	define('PATCH', '/v1/receivables/:id', S.receivableUpdate, (req, reply) => {
		const r = find(params(req).id);
		const { status, ...changes } = body<S.BodyOf<typeof S.receivableUpdate>>(req);
		if (r.status === 'paid') throw invalidTransition('A paid receivable cannot be changed');
		if (status !== undefined) moveTo(r, status, PATCH_FROM);
		Object.assign(r, changes, { updated_at: nowIso() }); // notes, due_date (the schema's fields)
		const cancelled = status === 'cancelled' ? ['receivable.cancelled'] : [];
		return publish(ctx, reply, 200, r, 'receivable.updated', ...cancelled);
	});

	define('POST', '/v1/receivables/:id/send', undefined, (req, reply) => {
		checkNoBody(req.body);
		const r = find(params(req).id);
		if (!SEND_FROM.includes(r.status)) {
			throw invalidTransition(
				`Cannot send a ${r.status} receivable (allowed from: ${SEND_FROM.join(', ')})`,
			);
		}
		if (r.customer_email === null) {
			throw validationError(
				'customer_email is required to send a receivable; this receivable has none',
			);
		}
		const now = nowIso();
		Object.assign(r, { status: 'sent', sent_at: now, updated_at: now });
		return publish(ctx, reply, 200, r, 'receivable.sent');
	});
}
