/** Payables: create and update (pending_review ↔ ready; the service moves them on). */
import { invalidTransition, notFound, validationError } from '../errors';
import * as S from '../schemas';
import type { Payable, PaymentMethod } from '../types';
import { nowIso, uuid, UUID_RE } from '../util';
import { checkAmount, checkPaymentDetails, hasAnyDetail, type Details } from '../validation';
import { body, params, sendData, type Ctx, type Define } from './common';

interface CreateBody extends Details {
	invoice_number: string;
	amount: number;
	vendor_id?: string;
	vendor_name?: string;
	vendor_email?: string;
	due_date?: string;
	notes?: string;
	payment_method?: PaymentMethod;
}

interface UpdateBody {
	status?: 'pending_review' | 'ready';
	notes?: string;
	due_date?: string;
}

const FROZEN = ['scheduled', 'paid', 'failed', 'cancelled'];

export function findPayable(ctx: Ctx, id: string): Payable {
	const p = UUID_RE.test(id) ? ctx.store.payables.get(id) : undefined;
	if (!p) throw notFound(`No payable with id ${id}`);
	return p;
}

export function payableRoutes(define: Define, ctx: Ctx): void {
	const { store, events } = ctx;
	const json = (p: Payable) => store.payables.toJson(p);

	define('POST', '/v1/payables', S.payableCreate, (req, reply) => {
		const b = body<CreateBody>(req);
		checkAmount('amount', b.amount);
		const vendor = b.vendor_id === undefined ? undefined : store.vendors.get(b.vendor_id);
		if (b.vendor_id !== undefined && !vendor)
			throw validationError(`vendor_id: no vendor with id ${b.vendor_id}`);
		if (!vendor && b.vendor_name === undefined)
			throw validationError('vendor_id or vendor_name is required');
		const method = b.payment_method ?? vendor?.payment_method;
		if (hasAnyDetail(b)) {
			if (!method)
				throw validationError('payment_method is required when bank or wallet details are given');
			checkPaymentDetails(method, b, false);
		}
		const now = nowIso();
		const p: Payable = {
			id: uuid(),
			invoice_number: b.invoice_number,
			vendor_id: vendor?.id ?? null,
			vendor_name: b.vendor_name ?? vendor?.name ?? null,
			amount: b.amount,
			currency: 'USD',
			due_date: b.due_date ?? null,
			status: 'pending_review',
			notes: b.notes ?? null,
			payment_method: method ?? null,
			created_at: now,
			updated_at: now,
		};
		store.payables.insert([p]);
		events.emit('payable.created', JSON.parse(json(p)));
		return sendData(reply, 201, json(p));
	});

	define('PATCH', '/v1/payables/:id', S.payableUpdate, (req, reply) => {
		const p = findPayable(ctx, params(req).id);
		const b = body<UpdateBody>(req);
		if (FROZEN.includes(p.status)) {
			throw invalidTransition(
				`A ${p.status} payable cannot be changed (only pending_review and ready can)`,
			);
		}
		const becameReady = b.status === 'ready' && p.status !== 'ready';
		if (b.status !== undefined) p.status = b.status;
		if (b.notes !== undefined) p.notes = b.notes;
		if (b.due_date !== undefined) p.due_date = b.due_date;
		p.updated_at = nowIso();
		store.payables.changed(p);
		const data = json(p);
		events.emit('payable.updated', JSON.parse(data));
		if (becameReady) events.emit('payable.ready', JSON.parse(data));
		return sendData(reply, 200, data);
	});
}
