/** Listing, guarded against a service that repeats pages, never stops, or sends no list of objects. */
import type { IDataObject } from 'n8n-workflow';

import { API_MAX_PAGE_SIZE } from '../helpers/constants';
import { isPlainObject } from '../helpers/resourceFields';
import { LISTING, listingError } from './errors';
import { type Call, send } from './send';

/** Hard cap on the pages of one listing, whatever the service says. */
const MAX_PAGES = 10_000;

type PageMeta = { has_more?: unknown; total?: unknown; limit?: unknown };

export const realId = ({ id }: IDataObject): string | undefined =>
	typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;

/** A page as the walker hands it out; `total` is `meta.total` when the service sent one. */
export interface Page {
	number: number;
	items: IDataObject[];
	total?: number;
	meta: PageMeta;
	hasMore: boolean;
}

/**
 * The one page walker: pages of one list, fetched by number (`fetch`) or walked forward from one
 * (`from`), every walked page checked by the guards here: a page of items already received (a
 * service that ignores `page`), more pages than its total allows, an empty page that says more
 * remain. Listings (listAll) and the polling trigger (polling/read.ts) both walk with it.
 */
export class PageWalker {
	constructor(
		private readonly call: Call,
		readonly path: string,
		private readonly filters: IDataObject,
		readonly pageSize: number,
	) {}

	async fetch(number: number, limit = this.pageSize): Promise<Page> {
		const query = { ...this.filters, page: number, limit };
		const { items, meta } = await getPage(this.call, this.path, query);
		const total = typeof meta.total === 'number' && meta.total >= 0 ? meta.total : undefined;
		return { number, items, total, meta, hasMore: hasMore(meta, number, limit, items.length) };
	}

	/** `start` and the pages after it, to the end of the list; a guard's refusal is thrown. */
	async *from(start: Page): AsyncGenerator<Page> {
		const seen = new Set<string>();
		const firstIds = new Set<string>();
		let maxPages = MAX_PAGES;
		let received = (start.number - 1) * this.pageSize; // as the service counts, repeats included
		for (let page = start; ; page = await this.fetch(page.number + 1)) {
			const ids = page.items.map((item) => realId(item) ?? JSON.stringify(item));
			if (ids.length > 0 && (firstIds.has(ids[0]) || ids.every((id) => seen.has(id))))
				throw this.refuse(LISTING.repeatedPage(this.path, page.number));
			if (page.items.length === 0 && saysMoreRemain(page.meta, received)) {
				const said = `has_more: ${String(page.meta.has_more)}, total: ${String(page.meta.total)}`;
				throw this.refuse(LISTING.endedEarly(this.path, page.number, said, received));
			}
			firstIds.add(ids[0]);
			for (const id of ids) seen.add(id);
			received += page.items.length;
			yield page;
			if (page.items.length === 0 || !page.hasMore) return;
			maxPages = pageCap(page.meta, this.pageSize, page.items.length, maxPages);
			if (page.number >= maxPages) throw this.refuse(LISTING.endless(page.number, maxPages));
		}
	}

	/** A refusal of the listing's, as an error the node shows. */
	refuse(texts: string[]) {
		return listingError(this.call, texts);
	}
}

/** One page: its `data` refused unless it is a list of objects (a skipped element would be lost). */
async function getPage(call: Call, path: string, query: IDataObject) {
	const { data, meta } = await send(call, 'GET', path, undefined, query);
	if (!Array.isArray(data)) throw listingError(call, LISTING.notAList(path));
	const bad = data.findIndex((element) => !isPlainObject(element));
	if (bad >= 0) throw listingError(call, LISTING.notObjects(path, bad, data[bad]));
	return { items: data as IDataObject[], meta: (isPlainObject(meta) ? meta : {}) as PageMeta };
}

/** Whether another page follows, judged by what the service did (it may use smaller pages). */
function hasMore(meta: PageMeta, page: number, pageSize: number, received: number): boolean {
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
function pageCap(meta: PageMeta, pageSize: number, received: number, cap: number): number {
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
	const filters: IDataObject = { ...(qs ?? {}) };
	delete filters.page;
	delete filters.limit;
	const walker = new PageWalker(call, path, filters, Math.min(API_MAX_PAGE_SIZE, limit));
	const items: IDataObject[] = [];
	const emitted = new Set<string>(); // an item moved onto the next page is taken once
	for await (const page of walker.from(await walker.fetch(1))) {
		for (const item of page.items) {
			const id = realId(item);
			if (items.length >= limit) break;
			if (id !== undefined && emitted.has(id)) continue;
			if (id !== undefined) emitted.add(id);
			items.push(shape(item));
		}
		if (items.length >= limit) break;
	}
	return items;
}
