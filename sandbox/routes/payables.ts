/** Payables: create and update (pending_review ↔ ready; the service moves them on). */
import { randomUUID } from 'crypto';
import { invalidTransition, validationError } from '../errors';
import * as S from '../schemas';
import type { Payable } from '../types';
import { nowIso } from '../util';
import { checkAmount, checkPaymentDetails, hasAnyDetail } from '../validation';
import { body, findIn, params, publish, type Ctx, type Define } from './common';

const FROZEN = ['scheduled', 'paid', 'failed', 'cancelled'];

export function payableRoutes(define: Define, ctx: Ctx): void {
	const { store } = ctx;

	define('POST', '/v1/payables', S.payableCreate, (req, reply) => {
		const b = body<S.BodyOf<typeof S.payableCreate>>(req);
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
			id: randomUUID(),
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
		return publish(ctx, reply, 201, p, 'payable.created');
	});

	define('PATCH', '/v1/payables/:id', S.payableUpdate, (req, reply) => {
		const p = findIn(store.payables, params(req).id, 'payable');
		const b = body<S.BodyOf<typeof S.payableUpdate>>(req);
		if (FROZEN.includes(p.status)) {
			throw invalidTransition(
				`A ${p.status} payable cannot be changed (only pending_review and ready can)`,
			);
		}
		const becameReady = b.status === 'ready' && p.status !== 'ready';
		Object.assign(p, b, { updated_at: nowIso() }); // the schema allows only status, notes, due_date
		const types = becameReady ? ['payable.updated', 'payable.ready'] : ['payable.updated'];
		return publish(ctx, reply, 200, p, ...types);
	});
}
