/** Vendors: create, list (search, pages), get (assumed), update. Details are never returned. */
import { notFound, validationError } from '../errors';
import * as S from '../schemas';
import type { PaymentMethod, Vendor } from '../types';
import { nowIso, uuid, UUID_RE } from '../util';
import { checkPaymentDetails, last4, parsePagination, type Details } from '../validation';
import { body, pageBody, params, sendBody, sendData, type Ctx, type Define } from './common';

interface CreateBody extends Details {
	name: string;
	email?: string;
	payment_method: PaymentMethod;
}

interface UpdateBody {
	name?: string;
	email?: string;
	payment_method?: PaymentMethod;
}

function findVendor(ctx: Ctx, id: string): Vendor {
	const v = UUID_RE.test(id) ? ctx.store.vendors.get(id) : undefined;
	if (!v) throw notFound(`No vendor with id ${id}`);
	return v;
}

export function vendorRoutes(define: Define, ctx: Ctx): void {
	const { store, events } = ctx;
	const vendors = store.vendors;
	/** Lower-cased `name NUL email` per vendor, built on its first search, dropped on a change. */
	const searchKeys = new WeakMap<Vendor, string>();
	const searchKey = (v: Vendor): string => {
		let k = searchKeys.get(v);
		if (k === undefined) {
			k = `${v.name}\u0000${v.email ?? ''}`.toLowerCase();
			searchKeys.set(v, k);
		}
		return k;
	};

	define('POST', '/v1/vendors', S.vendorCreate, (req, reply) => {
		const b = body<CreateBody>(req);
		checkPaymentDetails(b.payment_method, b, true);
		const now = nowIso();
		const v: Vendor = {
			id: uuid(),
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
		events.emit('vendor.created', JSON.parse(vendors.toJson(v)));
		return sendData(reply, 201, vendors.toJson(v));
	});

	define('GET', '/v1/vendors', undefined, (req, reply) => {
		const q = req.query as Record<string, string>;
		const paging = parsePagination(q);
		const toJson = (v: Vendor) => vendors.toJson(v);
		if (q.search === undefined) {
			// Without a search a page is a slice of the ordered array; its answer is cached until
			// the next vendor change.
			const key = `${paging.page}:${paging.limit}`;
			return sendBody(
				reply,
				vendors.answer(key, () => pageBody(vendors.all(), paging, toJson)),
			);
		}
		if (q.search.trim() === '') throw validationError('search must not be empty');
		const needle = q.search.toLowerCase();
		const matches = vendors.all().filter((v) => searchKey(v).includes(needle));
		return sendBody(reply, pageBody(matches, paging, toJson));
	});

	define('GET', '/v1/vendors/:id', undefined, (req, reply) => {
		return sendData(reply, 200, vendors.toJson(findVendor(ctx, params(req).id)));
	});

	define('PATCH', '/v1/vendors/:id', S.vendorUpdate, (req, reply) => {
		const v = findVendor(ctx, params(req).id);
		const b = body<UpdateBody>(req);
		if (b.name !== undefined) v.name = b.name;
		if (b.email !== undefined) v.email = b.email;
		if (b.payment_method !== undefined) v.payment_method = b.payment_method;
		searchKeys.delete(v);
		v.updated_at = nowIso();
		vendors.changed(v);
		events.emit('vendor.updated', JSON.parse(vendors.toJson(v)));
		return sendData(reply, 200, vendors.toJson(v));
	});
}
