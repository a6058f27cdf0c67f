/** The polling trigger's poll(): emits what is new since the cursor, moves it past exactly that. */
import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { BoundedMap } from '../helpers/boundedMap';
import { eventItemJson } from '../helpers/resourceFields';
import { apiPages } from '../transport';
import {
	advance,
	compareRows,
	compareStamps,
	emptyPosition,
	isSeen,
	type Position,
} from './cursor';
import { POLLED, type PolledEvent } from './description';
import {
	type ForwardRead,
	getPage,
	idOf,
	lastPageOf,
	type ListReader,
	locate,
	type Page,
	misordered,
	PAGE_SIZE,
	readableRows,
	readNew,
	rowOf,
} from './read';

/** Without n8n's own poll budget (n8n 1.x): under the 5 minutes n8n 2.x gives a poll. */
const DEFAULT_POLL_BUDGET_MS = 4 * 60_000;

/** The cursor as kept in the node's static data, under `cursor`. */
interface PollState extends IDataObject {
	/** The event and filter the cursor belongs to: another one starts afresh. */
	watching: string;
	position: Position;
	/** Estimated offset in the list of the first item at `position.at`: the page to read first. */
	offsetEstimate: number;
}

function stateAt(watching: string, position: Position, offsetEstimate = 0): PollState {
	return { watching, position, offsetEstimate };
}

type Settings = ReturnType<typeof readSettings>;

/** Polls of this process in progress, by workflow and node: an overlapping poll would repeat. */
const inFlight = new Set<string>();
/** Items skipped for an unreadable timestamp, by node and id: each is logged once per process. */
const skippedItems = new BoundedMap<string, true>(1_000);

function readSettings(ctx: IPollFunctions) {
	const event = ctx.getNodeParameter('event') as PolledEvent;
	const { filter } = POLLED[event];
	const transactionType = filter ? String(ctx.getNodeParameter(filter, '') ?? '') : '';
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const output: 'event' | 'data' = options.output === 'data' ? 'data' : 'event';
	const watching = [event, transactionType].filter(Boolean).join(':');
	return { event, transactionType, output, watching };
}

async function openReader(ctx: IPollFunctions, settings: Settings): Promise<ListReader> {
	const { path, stamp: stampField, record } = POLLED[settings.event];
	const withBudget = ctx as { getPollBudgetMs?: () => number };
	const budget =
		typeof withBudget.getPollBudgetMs === 'function'
			? withBudget.getPollBudgetMs()
			: DEFAULT_POLL_BUDGET_MS;
	const filters = settings.transactionType ? { type: settings.transactionType } : {};
	const limits = { waitBudgetMs: budget, deadlineMs: budget };
	const pages = await apiPages.call(ctx, path, filters, limits);
	const unreadable = (item: IDataObject) => {
		const key = `${ctx.getNode().id}:${idOf(item)}`;
		if (skippedItems.get(key)) return;
		skippedItems.set(key, true);
		const stamp = item[stampField];
		const said = stamp === undefined || stamp === null ? 'none' : JSON.stringify(stamp);
		ctx.logger?.warn?.(
			`Business Finance Polling Trigger: skipped ${record} "${idOf(item)}": its ${stampField} (${said}) is not an ISO 8601 timestamp, so it cannot be placed before or after what was emitted; it is never emitted. Report this to the service provider.`,
		);
	};
	return {
		pages,
		stampOf: (item) => (typeof item[stampField] === 'string' ? (item[stampField] as string) : ''),
		stampField,
		unreadable,
	};
}

/** One item per event: the webhook trigger's envelope, or the resource alone. */
function toItems(settings: Settings, resources: IDataObject[]): INodeExecutionData[] {
	const { stamp, changes } = POLLED[settings.event];
	return resources.map((data) => {
		const createdAt = String(data[stamp] ?? '');
		// the list gives no event id: one made of what the event is about, the same on every poll
		const id = [settings.event, idOf(data), ...(changes ? [createdAt] : [])].join(':');
		const event = { id, type: settings.event, created_at: createdAt, data };
		return { json: eventItemJson(settings.output, event) };
	});
}

/** The state this node keeps, when it belongs to these settings. */
function savedState(ctx: IPollFunctions, settings: Settings): PollState | undefined {
	const saved = ctx.getWorkflowStaticData('node').cursor as PollState | undefined;
	return saved && saved.watching === settings.watching && typeof saved.position === 'object'
		? saved
		: undefined;
}

export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	if (this.getMode() === 'manual') return await fetchTestEvent(this, settings);
	const key = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
	if (inFlight.has(key)) return null;
	inFlight.add(key);
	try {
		const state = savedState(this, settings);
		const reader = await openReader(this, settings);
		const { next, emitted } = state
			? await pollFrom(this, reader, state, settings)
			: { next: await firstPosition(this, reader, settings), emitted: [] };
		// written only when it changed: n8n saves static data that a poll marked changed
		if (next && JSON.stringify(next) !== JSON.stringify(state))
			this.getWorkflowStaticData('node').cursor = next;
		return emitted.length > 0 ? [toItems(settings, emitted)] : null;
	} finally {
		inFlight.delete(key);
	}
}

interface PollResult {
	next?: PollState;
	emitted: IDataObject[];
}

async function pollFrom(
	ctx: IPollFunctions,
	reader: ListReader,
	state: PollState,
	settings: Settings,
): Promise<PollResult> {
	if (POLLED[settings.event].changes) return await pollChanged(reader, state);
	const guess =
		state.offsetEstimate > 0 ? Math.floor((state.offsetEstimate - 1) / PAGE_SIZE) + 1 : 1;
	const start = await locate(reader, state.position, guess);
	const read = await readNew(reader, state.position, start);
	// An item was removed under a read that then failed: another moved onto a page already read,
	// older than what came after it. Emitting would move the cursor past it for good, so nothing
	// is emitted and the next poll reads it all again.
	if (read.error !== undefined && read.removed) throw read.error;
	if (read.fresh.length === 0) {
		if (read.error !== undefined) throw read.error;
		return { next: { ...state, offsetEstimate: nextOffset(read, state) }, emitted: [] };
	}
	if (read.error !== undefined) {
		// what was read is complete up to its last item: emit it, the next poll goes on from there
		const message = read.error instanceof Error ? read.error.message : String(read.error);
		ctx.logger?.warn?.(
			`Business Finance Polling Trigger: a page failed (${message}); emitting the ${read.fresh.length} new items before it`,
		);
	}
	const rows = read.fresh.map((item) => rowOf(reader, item));
	const next = stateAt(state.watching, advance(state.position, rows));
	return { next: { ...next, offsetEstimate: nextOffset(read, next) }, emitted: read.fresh };
}

/** The offset of the first item read at the cursor's timestamp, or past the last item read. */
function nextOffset(read: ForwardRead, state: PollState): number {
	const first = read.rows.find((row) => compareStamps(row.stamp, state.position.at) >= 0);
	if (first) return first.offset;
	const last = read.rows[read.rows.length - 1];
	return last ? last.offset + 1 : state.offsetEstimate;
}

/** Changed vendors: the whole list, emitted in updated_at order; all or nothing. */
async function pollChanged(reader: ListReader, state: PollState): Promise<PollResult> {
	const vendors = await reader.pages.all();
	const changed = readableRows(reader, vendors)
		.map((row) => ({ vendor: vendors[row.index], row }))
		.filter(({ vendor, row }) => compareStamps(row.stamp, String(vendor.created_at ?? '')) !== 0)
		.filter(({ row }) => !isSeen(state.position, row))
		.sort((a, b) => compareRows(a.row, b.row));
	if (changed.length === 0) return { emitted: [] };
	const rows = changed.map(({ row }) => row);
	const next = stateAt(state.watching, advance(state.position, rows));
	return { next, emitted: changed.map(({ vendor }) => vendor) };
}

/** The first poll (or after a change of Trigger On): the cursor at the newest item. */
async function firstPosition(
	ctx: IPollFunctions,
	reader: ListReader,
	settings: Settings,
): Promise<PollState> {
	if (POLLED[settings.event].changes) {
		const rows = readableRows(reader, await reader.pages.all()).sort(compareRows);
		return stateAt(settings.watching, advance(emptyPosition(), rows));
	}
	const first = await getPage(reader, 1);
	const last = await lastFilledPage(reader, first);
	const oldest = readableRows(reader, first.items, false)[0]?.stamp;
	const refusal = last === first ? undefined : misordered(reader, last.items, oldest);
	if (refusal) throw refusal;
	if (last.items.length === 0) return stateAt(settings.watching, emptyPosition()); // none yet
	// the newest readable item, never none: an empty cursor would make every item new
	const newest = readableRows(reader, last.items).sort(compareRows).at(-1);
	if (!newest) throw unplaceable(ctx, reader);
	const { stamp, id } = newest;
	const tieIndex = last.items.findIndex((item) => compareStamps(reader.stampOf(item), stamp) === 0);
	const offsetEstimate = (last.number - 1) * PAGE_SIZE + tieIndex;
	return stateAt(settings.watching, { at: stamp, floor: id, ids: [] }, offsetEstimate);
}

/**
 * The page `meta.total` points to, or when that one is empty (an item removed since page 1, a
 * total that counts more than the filter lets through, pages larger than asked for) the last page
 * with items, by halves between it and page 1: never "nothing yet" when page 1 had items.
 */
async function lastFilledPage(reader: ListReader, first: Page): Promise<Page> {
	const lastNumber = lastPageOf(first.total ?? first.items.length);
	if (lastNumber <= 1) return first;
	const last = await getPage(reader, lastNumber);
	if (last.items.length > 0 || first.items.length === 0) return last;
	let filled = first;
	let empty = lastNumber;
	while (empty - filled.number > 1) {
		const page = await getPage(reader, Math.floor((filled.number + empty) / 2));
		if (page.items.length > 0) filled = page;
		else empty = page.number;
	}
	return filled;
}

/** Activation refused: no item of the list's last page has a timestamp it can start from. */
function unplaceable(ctx: IPollFunctions, reader: ListReader): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`The service's newest items have no readable ${reader.stampField} (an ISO 8601 timestamp)`,
		{
			description: `The trigger starts after the newest item, found by its ${reader.stampField}; without one it would take every existing item as new. Nothing was emitted. Report this to the service provider; n8n tries again at the next poll.`,
		},
	);
}

/** Fetch Test Event: the newest existing item, the cursor untouched. */
async function fetchTestEvent(
	ctx: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[][] | null> {
	const reader = await openReader(ctx, settings);
	let newest: IDataObject | undefined;
	if (POLLED[settings.event].changes) {
		const vendors = await reader.pages.all();
		const row = readableRows(reader, vendors).sort(compareRows).at(-1);
		newest = row && vendors[row.index];
	} else {
		const first = await getPage(reader, 1, 1);
		const total = first.total ?? first.items.length;
		newest = (total > 1 ? await getPage(reader, total, 1) : first).items[0];
	}
	return newest ? [toItems(settings, [newest])] : null;
}
