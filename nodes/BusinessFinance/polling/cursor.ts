/**
 * The polling trigger's cursor over a list ordered by timestamp, then id: the newest timestamp
 * emitted and the ids emitted at it, so a later item at the same timestamp is still new
 * (docs/trigger.md, "The cursor"). Pure functions.
 */
import type { IDataObject } from 'n8n-workflow';

/** Ids kept at one timestamp before the lowest are folded into `floor` (about 40 bytes each). */
const MAX_TIE_IDS = 20;

export interface Position extends IDataObject {
	/** The newest timestamp emitted; '' before anything was (every item is then new). */
	at: string;
	/** Ids at `at` up to this one (as strings compare) count as seen. */
	floor?: string;
	/** Ids emitted at exactly `at`, ascending. */
	ids: string[];
}

/** One list element as the cursor sees it. */
export interface Row {
	stamp: string;
	id: string;
}

export const emptyPosition = (): Position => ({ at: '', ids: [] });

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** Timestamps compared as instants, then as text (microseconds a millisecond cannot tell). */
export function compareStamps(a: string, b: string): number {
	const ta = Date.parse(a);
	const tb = Date.parse(b);
	if (Number.isFinite(ta) && Number.isFinite(tb) && ta !== tb) return sign(ta - tb);
	return a < b ? -1 : a > b ? 1 : 0;
}

/** By timestamp, then id: the order of the lists the cursor walks. */
export const compareRows = (a: Row, b: Row): number =>
	compareStamps(a.stamp, b.stamp) || (a.id < b.id ? -1 : 1);

/** Whether the cursor has seen this row: older than `at`, or at `at` and remembered. */
export function isSeen(position: Position, row: Row): boolean {
	if (position.at === '') return false;
	const order = compareStamps(row.stamp, position.at);
	if (order !== 0) return order < 0;
	if (position.floor !== undefined && row.id <= position.floor) return true;
	return position.ids.includes(row.id);
}

/** The cursor after emitting `rows` (in list order), bounded to MAX_TIE_IDS ids. */
export function advance(position: Position, rows: Row[]): Position {
	let { at, floor } = position;
	let ids = [...position.ids];
	for (const row of rows) {
		const order = at === '' ? 1 : compareStamps(row.stamp, at);
		if (order > 0) {
			at = row.stamp;
			ids = [row.id];
			floor = undefined;
		} else if (order === 0 && !ids.includes(row.id)) {
			ids.push(row.id);
		}
	}
	ids.sort();
	if (ids.length > MAX_TIE_IDS) {
		const folded = ids.splice(0, ids.length - MAX_TIE_IDS);
		const highest = folded[folded.length - 1];
		floor = floor !== undefined && floor > highest ? floor : highest;
	}
	return floor === undefined ? { at, ids } : { at, floor, ids };
}

/** The UTC calendar date of a timestamp, as the transactions' `from` filter compares it. */
export function utcDay(stamp: string): string | undefined {
	const ms = Date.parse(stamp);
	return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : undefined;
}
