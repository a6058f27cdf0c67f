/** Listing, guarded against a service that repeats pages, never stops, or sends no list of objects. */
import type { IDataObject } from 'n8n-workflow';

import { API_MAX_PAGE_SIZE } from '../helpers/constants';
import { isPlainObject } from '../helpers/resourceFields';
import { LISTING, listingError } from './errors';
import { type Call, send } from './send';

/** Hard cap on the pages of one listing, whatever the service says. */
const MAX_PAGES = 10_000;

export type PageMeta = { has_more?: unknown; total?: unknown; limit?: unknown };

export const realId = ({ id }: IDataObject): string | undefined =>
	typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;

class Listing {
	readonly items: IDataObject[] = [];
	private readonly seen = new Set<string>();
	private readonly firstIds = new Set<string>();
	private readonly emitted = new Set<string>();

	constructor(
		readonly limit: number,
		private readonly shape: (item: IDataObject) => IDataObject,
	) {}

	get full(): boolean {
		return this.items.length >= this.limit;
	}

	/** Adds a page's items, one that moved onto it while paging once; false for a repeated page. */
	take(page: IDataObject[]): boolean {
		if (page.length === 0) return true;
		const ids = page.map((item) => realId(item) ?? JSON.stringify(item));
		if (this.firstIds.has(ids[0]) || ids.every((id) => this.seen.has(id))) return false;
		this.firstIds.add(ids[0]);
		for (const id of ids) this.seen.add(id);
		for (const item of page) {
			const id = realId(item);
			if (this.full) break;
			if (id !== undefined && this.emitted.has(id)) continue;
			if (id !== undefined) this.emitted.add(id);
			this.items.push(this.shape(item));
		}
		return true;
	}
}

/** One page: its `data` refused unless it is a list of objects (a skipped element would be lost). */
export async function getPage(call: Call, path: string, query: IDataObject) {
	const { data, meta } = await send(call, 'GET', path, undefined, query);
	if (!Array.isArray(data)) throw listingError(call, LISTING.notAList(path));
	const bad = data.findIndex((element) => !isPlainObject(element));
	if (bad >= 0) throw listingError(call, LISTING.notObjects(path, bad, data[bad]));
	return { items: data as IDataObject[], meta: (isPlainObject(meta) ? meta : {}) as PageMeta };
}

/** Whether another page follows, judged by what the service did (it may use smaller pages). */
export function hasMore(meta: PageMeta, page: number, pageSize: number, received: number): boolean {
	if (typeof meta.has_more === 'boolean') return meta.has_more;
	if (typeof meta.total !== 'number') return received >= pageSize;
	return page * effectivePageSize(meta, pageSize, received) < meta.total;
}

function effectivePageSize(meta: PageMeta, pageSize: number, received: number): number {
	return typeof meta.limit === 'number' && meta.limit > 0
		? meta.limit
		: Math.max(1, Math.min(pageSize, received));
}

/** Whether an empty page contradicts its answer (`has_more`, else `total`): a short success. */
function saysMoreRemain(meta: PageMeta, received: number): boolean {
	if (typeof meta.has_more === 'boolean') return meta.has_more;
	return typeof meta.total === 'number' && received < meta.total;
}

/** The page count past which the service loops: its total + 1 (at most MAX_PAGES), else `cap`. */
export function pageCap(meta: PageMeta, pageSize: number, received: number, cap: number): number {
	if (typeof meta.total !== 'number' || meta.total < 0) return cap;
	const pages = Math.ceil(meta.total / effectivePageSize(meta, pageSize, received));
	return Math.min(MAX_PAGES, pages + 1);
}

/** At most `limit` elements, each shaped as its page arrives (not all at the end of the listing). */
export async function listAll(
	call: Call,
	path: string,
	qs: IDataObject | undefined,
	limit: number,
	shape: (item: IDataObject) => IDataObject = (item) => item,
): Promise<IDataObject[]> {
	const pageSize = Math.min(API_MAX_PAGE_SIZE, limit);
	const filters: IDataObject = { ...(qs ?? {}) };
	delete filters.page;
	delete filters.limit;
	const listing = new Listing(limit, shape);
	let maxPages = MAX_PAGES;
	let received = 0; // elements of every page so far, repeats included, as the service counts
	for (let page = 1; !listing.full; page++) {
		if (page > maxPages) throw listingError(call, LISTING.endless(page - 1, maxPages));
		const { items, meta } = await getPage(call, path, { ...filters, page, limit: pageSize });
		if (!listing.take(items)) throw listingError(call, LISTING.repeatedPage(path, page));
		if (items.length === 0 && saysMoreRemain(meta, received)) {
			const said = `has_more: ${String(meta.has_more)}, total: ${String(meta.total)}`;
			throw listingError(call, LISTING.endedEarly(path, page, said, received));
		}
		received += items.length;
		if (items.length === 0 || !hasMore(meta, page, pageSize, items.length)) break;
		maxPages = pageCap(meta, pageSize, items.length, maxPages);
	}
	return listing.items;
}
