/** Reading only what is new: from the page where the cursor was, forward (docs/trigger.md). */
import type { IDataObject } from 'n8n-workflow';

import { API_MAX_PAGE_SIZE } from '../helpers/constants';
import { LISTING, type apiPages, type Page } from '../transport';
import { realId } from '../transport/pagination';
import {
	compareRows,
	compareStamps,
	isReadableStamp,
	isSeen,
	type Position,
	type Row,
} from './cursor';

export const PAGE_SIZE = API_MAX_PAGE_SIZE;
/** Pages one poll reads forward at most; the rest is left to the next poll (10,000 items). */
const MAX_PAGES_PER_POLL = 100;

export type { Page };

/** A list as the poll reads it: its pages (the transport's walker, and all) and ordering timestamp. */
export interface ListReader {
	pages: Awaited<ReturnType<typeof apiPages>>;
	stampOf: (item: IDataObject) => string;
	/** The field `stampOf` reads, as messages name it. */
	stampField: string;
	/** Told of an element whose timestamp cannot be read: it is skipped, never emitted. */
	unreadable: (item: IDataObject) => void;
}

/**
 * The rows of `items` whose timestamp can be read, each with its index; the others are reported
 * and skipped: one without a time cannot be placed before or after the cursor, so emitting it
 * would repeat it every poll, and stopping at it would stop every later event.
 */
export function readableRows(reader: ListReader, items: IDataObject[], report = true) {
	const rows: Array<Row & { index: number }> = [];
	items.forEach((item, index) => {
		const row = rowOf(reader, item);
		if (isReadableStamp(row.stamp)) rows.push({ ...row, index });
		else if (report) reader.unreadable(item);
	});
	return rows;
}

export const idOf = (item: IDataObject): string => realId(item) ?? '';

export const rowOf = (reader: ListReader, item: IDataObject): Row => ({
	stamp: reader.stampOf(item),
	id: idOf(item),
});

/**
 * The refusal of `items` (in list order, after `before`: the previous page's last) when they are
 * not oldest first. Every read checks it, so a list in another order is refused before anything
 * is emitted: the cursor is the newest item only in a list ordered oldest first.
 */
export function misordered(reader: ListReader, items: IDataObject[], before?: string) {
	let previous = before;
	for (const { stamp } of readableRows(reader, items, false)) {
		if (previous !== undefined && compareStamps(stamp, previous) < 0)
			return reader.pages.walker.refuse(
				LISTING.unordered(reader.pages.walker.path, reader.stampField, previous, stamp),
			);
		previous = stamp;
	}
	return undefined;
}

/** One page of `limit` items, refused unless oldest first. */
export async function getPage(
	reader: ListReader,
	number: number,
	limit = PAGE_SIZE,
): Promise<Page> {
	const page = await reader.pages.walker.fetch(number, limit);
	const refusal = misordered(reader, page.items);
	if (refusal) throw refusal;
	return page;
}

/** The number of the last page of a list of `total` items (page 1 when it is empty). */
export const lastPageOf = (total: number): number => Math.max(1, Math.ceil(total / PAGE_SIZE));

/**
 * The last page whose first item is older than the cursor (or page 1): the guessed page first
 * (one request when the list did not move), else by halves (about log2(pages) requests).
 */
export async function locate(reader: ListReader, position: Position, guess: number): Promise<Page> {
	const older = (item: IDataObject | undefined) =>
		item !== undefined && compareStamps(reader.stampOf(item), position.at) < 0;
	let best: Page | undefined;
	let lo = 1;
	let hi = Number.POSITIVE_INFINITY;
	let number = Math.max(1, guess);
	for (;;) {
		const page = await getPage(reader, number);
		if (page.total !== undefined) hi = Math.min(hi, lastPageOf(page.total));
		// an empty page past the first is beyond the list: searched below it, like a newer page
		if (number === 1 || older(page.items[0])) {
			best = page;
			const last = page.items[page.items.length - 1];
			if (!page.hasMore || !older(last)) return page;
			lo = number + 1;
		} else hi = number - 1;
		if (lo > hi) return best ?? (await getPage(reader, 1));
		number = Number.isFinite(hi) ? Math.floor((lo + hi) / 2) : lo * 2;
	}
}

/** What a forward read found: new items in list order, the rows read, and a failure, if any. */
export interface ForwardRead {
	fresh: IDataObject[];
	/** Every row read, with its offset in the list (for the next poll's starting point). */
	rows: Array<Row & { offset: number }>;
	/** The error that ended the read early (the items before it are complete). */
	error?: unknown;
	/** True when MAX_PAGES_PER_POLL ended the read before the end of the list. */
	truncated: boolean;
	/**
	 * The list moved under the read: an item read twice (one was inserted behind it), or a
	 * `meta.total` that dropped (one was removed before it, which moved an item onto a page
	 * already read). Either may have hidden an item: the read is made again.
	 */
	shifted: boolean;
	/**
	 * A `meta.total` dropped in some pass: an item not yet read moved onto a page already read.
	 * Unlike an insert behind the reading (a new item at a time already passed, which the cursor's
	 * ids still let through), it is older than what came after it: no cursor past those may be kept.
	 */
	removed?: boolean;
}

/** From `start` to the end (or the page cap): items neither seen nor in `taken` (added to it). */
async function readForward(
	reader: ListReader,
	position: Position,
	start: Page,
	taken = new Set<string>(),
): Promise<ForwardRead> {
	const result: ForwardRead = { fresh: [], rows: [], truncated: false, shifted: false };
	const read = new Set<string>();
	let before: Page | undefined;
	let count = 0;
	try {
		for await (const page of reader.pages.walker.from(start)) {
			// fewer items than a page ago: some were removed, as many moved onto the page just read
			if (before && shrank(before, page)) Object.assign(result, { shifted: true, removed: true });
			const refusal = misordered(reader, page.items, result.rows.at(-1)?.stamp);
			if (refusal) return { ...result, error: refusal };
			for (const { index, ...row } of readableRows(reader, page.items)) {
				result.rows.push({ ...row, offset: (page.number - 1) * PAGE_SIZE + index });
				if (row.id !== '' && read.has(row.id)) result.shifted = true;
				read.add(row.id);
				if (isSeen(position, row) || taken.has(row.id)) continue;
				if (row.id !== '') taken.add(row.id);
				result.fresh.push(page.items[index]);
			}
			before = page;
			if (++count >= MAX_PAGES_PER_POLL && page.hasMore) return { ...result, truncated: true };
		}
	} catch (error) {
		return { ...result, error };
	}
	return result;
}

const shrank = (before: Page, after: Page): boolean =>
	before.total !== undefined && after.total !== undefined && after.total < before.total;

/** Passes over the list a poll makes at most while items are inserted behind its reading. */
const MAX_PASSES = 3;

/** readForward, again from `start` while items were inserted behind it: every pass's new items. */
export async function readNew(
	reader: ListReader,
	position: Position,
	start: Page,
): Promise<ForwardRead> {
	const taken = new Set<string>();
	let result = await readForward(reader, position, start, taken);
	let removed = result.removed === true;
	for (let pass = 2; result.shifted && result.error === undefined && pass <= MAX_PASSES; pass++) {
		// A pass that fails ends the read with what the passes before found, sorted all the same.
		const again = await getPage(reader, start.number)
			.then(async (page) => await readForward(reader, position, page, taken))
			.catch((error: unknown): ForwardRead => ({ ...result, fresh: [], error }));
		result = { ...again, fresh: [...result.fresh, ...again.fresh] };
		removed ||= again.removed === true;
	}
	const order = (a: IDataObject, b: IDataObject) => compareRows(rowOf(reader, a), rowOf(reader, b));
	return { ...result, removed, fresh: result.fresh.sort(order) };
}
