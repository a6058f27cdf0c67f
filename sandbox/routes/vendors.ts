/** Vendors: create, list (search, pages), get (assumed), update. Details are never returned. */
import { randomUUID } from 'crypto';
import { validationError } from '../errors';
import * as S from '../schemas';
import type { Vendor } from '../types';
import { nowIso } from '../util';
import { checkPaymentDetails, last4, parsePagination } from '../validation';
import { body, findIn, params, publish, sendData, sendPage, type Ctx, type Define } from './common';

export function vendorRoutes(define: Define, ctx: Ctx): void {
	const vendors = ctx.store.vendors;
	const find = (id: string) => findIn(vendors, id, 'vendor');
	/** What a search looks in: name and email, lower-cased, NUL between so no match spans both. */
	const searchKey = (v: Vendor) => `${v.name}\u0000${v.email ?? ''}`.toLowerCase();

	define('POST', '/v1/vendors', S.vendorCreate, (req, reply) => {
		const b = body<S.BodyOf<typeof S.vendorCreate>>(req);
		checkPaymentDetails(b.payment_method, b, true);
		const now = nowIso();
		const v: Vendor = {
			id: randomUUID(),
			name: b.name,
			email: b.email ?? null,
			payment_method: b.payment_method,
			bank_name: b.bank_name ?? null,
			account_name: b.account_name ?? null,
			account_number_last4: last4(b.account_number),
			routing_number_last4: last4(b.routing_number),
			wallet_address: b.wallet_address ?? null,
			wallet_chain: b.wallet_chain ?? null,
			created_at: now,
			updated_at: now,
		};
		vendors.insert([v]);
		return publish(ctx, reply, 201, v, 'vendor.created');
	});

	define('GET', '/v1/vendors', undefined, (req, reply) => {
		const q = req.query as Record<string, string>;
		const paging = parsePagination(q);
		if (q.search === undefined) return sendPage(reply, vendors.all(), paging);
		if (q.search.trim() === '') throw validationError('search must not be empty');
		const needle = q.search.toLowerCase();
		const matches = vendors.all().filter((v) => searchKey(v).includes(needle));
		return sendPage(reply, matches, paging);
	});

	define('GET', '/v1/vendors/:id', undefined, (req, reply) =>
		sendData(reply, 200, find(params(req).id)),
	);

	define('PATCH', '/v1/vendors/:id', S.vendorUpdate, (req, reply) => {
		const v = find(params(req).id);
		// the schema allows only name, email, payment_method
		Object.assign(v, body<S.BodyOf<typeof S.vendorUpdate>>(req), { updated_at: nowIso() });
		return publish(ctx, reply, 200, v, 'vendor.updated');
	});
}
