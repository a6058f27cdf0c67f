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

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// ISO 8601 / RFC 3339: date, T or a space, hh:mm[:ss[.fraction]], then Z, ±hh[:mm] or no offset
// (read as UTC, as the API says its timestamps are, never as n8n's local time).
const STAMP_RE =
	/^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:[Zz]|([+-])(\d{2}):?(\d{2})?)?$/;

/** An instant to the last digit: whole seconds since the epoch, the fraction's digits (no trailing 0). */
interface Instant {
	seconds: number;
	fraction: string;
}

function parseStamp(stamp: string): Instant | undefined {
	const match = STAMP_RE.exec(stamp.trim());
	if (!match) return undefined;
	const [year, month, day, hours, minutes, seconds] = match.slice(1, 7).map((p) => Number(p ?? 0));
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years below 100 as 19xx
	if (date.getUTCMonth() !== month - 1 || hours > 23 || minutes > 59 || seconds > 60)
		return undefined;
	date.setUTCHours(hours, minutes, seconds);
	const [, , , , , , , fraction = '', offsetSign, offsetHours, offsetMinutes = '0'] = match;
	const offset = offsetSign
		? (offsetSign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes))
		: 0;
	return { seconds: date.getTime() / 1000 - offset * 60, fraction: fraction.replace(/0+$/, '') };
}

/** Whether a list element's timestamp can be placed before or after the cursor. */
export const isReadableStamp = (stamp: string): boolean => parseStamp(stamp) !== undefined;

/**
 * Timestamps compared as instants at any precision (`…05Z` before `…05.000417Z`, `…00.75912Z`
 * before `…00.759121Z`); text order only between stamps that are not ISO 8601 (read.ts skips
 * those before they reach the cursor).
 */
export function compareStamps(a: string, b: string): number {
	const ia = parseStamp(a);
	const ib = parseStamp(b);
	if (!ia || !ib) return compareText(a, b);
	if (ia.seconds !== ib.seconds) return Math.sign(ia.seconds - ib.seconds);
	const width = Math.max(ia.fraction.length, ib.fraction.length);
	return compareText(ia.fraction.padEnd(width, '0'), ib.fraction.padEnd(width, '0'));
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
