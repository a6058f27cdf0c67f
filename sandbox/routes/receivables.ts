/** Receivables: create, update, send (lifecycle draft → sent → paid, overdue, cancelled). */
import { invalidTransition, notFound, validationError } from '../errors';
import * as S from '../schemas';
import type { Receivable } from '../types';
import { nowIso, uuid, UUID_RE } from '../util';
import { checkAmount } from '../validation';
import { body, moveTo, params, sendData, type Ctx, type Define } from './common';

interface CreateBody {
	invoice_number: string;
	amount: number;
	customer_id?: string;
	customer_name?: string;
	customer_email?: string;
	due_date?: string;
	notes?: string;
	send_immediately?: boolean;
}

interface UpdateBody {
	status?: 'draft' | 'cancelled';
	notes?: string;
	due_date?: string;
}

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

export function findReceivable(ctx: Ctx, id: string): Receivable {
	const r = UUID_RE.test(id) ? ctx.store.receivables.get(id) : undefined;
	if (!r) throw notFound(`No receivable with id ${id}`);
	return r;
}

export function receivableRoutes(define: Define, ctx: Ctx): void {
	const { store, events } = ctx;
	const json = (r: Receivable) => store.receivables.toJson(r);

	define('POST', '/v1/receivables', S.receivableCreate, (req, reply) => {
		const b = body<CreateBody>(req);
		checkAmount('amount', b.amount);
		if (b.send_immediately && b.customer_email === undefined) {
			throw validationError(
				'customer_email is required to send a receivable (send_immediately is true)',
			);
		}
		const now = nowIso();
		const r: Receivable = {
			id: uuid(),
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
		store.receivables.insert([r]);
		events.emit('receivable.created', JSON.parse(json(r)));
		if (b.send_immediately) {
			r.status = 'sent';
			r.sent_at = now;
			store.receivables.changed(r);
			events.emit('receivable.sent', JSON.parse(json(r)));
		}
		return sendData(reply, 201, json(r));
	});

	define('PATCH', '/v1/receivables/:id', S.receivableUpdate, (req, reply) => {
		const r = findReceivable(ctx, params(req).id);
		const b = body<UpdateBody>(req);
		if (r.status === 'paid') throw invalidTransition('A paid receivable cannot be changed');
		if (b.status !== undefined) moveTo(r, b.status, PATCH_FROM);
		if (b.notes !== undefined) r.notes = b.notes;
		if (b.due_date !== undefined) r.due_date = b.due_date;
		r.updated_at = nowIso();
		store.receivables.changed(r);
		const data = json(r);
		events.emit('receivable.updated', JSON.parse(data));
		if (b.status === 'cancelled') events.emit('receivable.cancelled', JSON.parse(data));
		return sendData(reply, 200, data);
	});

	define('POST', '/v1/receivables/:id/send', undefined, (req, reply) => {
		checkNoBody(req.body);
		const r = findReceivable(ctx, params(req).id);
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
		r.status = 'sent';
		r.sent_at = now;
		r.updated_at = now;
		store.receivables.changed(r);
		events.emit('receivable.sent', JSON.parse(json(r)));
		return sendData(reply, 200, json(r));
	});
}
