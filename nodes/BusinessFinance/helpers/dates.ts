/**
 * Calendar dates as the API takes them (`YYYY-MM-DD`), from whatever n8n gives: text, an ISO
 * date-time, a Luxon DateTime or a JS Date. Pure functions, no runtime dependencies.
 */
import { describe, fail, ok, oneProblem, quoted, type Problem, type Validated } from './validators';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
// YYYY-MM-DD, then T (or a space, as RFC 3339 allows) and hh:mm[:ss[.fraction]], then an
// optional Z or ±hh[:mm] offset.
const DATE_TIME_RE =
	/^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)?$/;
const DATE_FIX = 'Use a date such as 2026-03-31';

/** True for a real calendar date written as YYYY-MM-DD (2026-02-30 is not one). */
function isCalendarDate(value: string): boolean {
	const match = DATE_RE.exec(value);
	if (!match) return false;
	const [year, month, day] = match.slice(1).map(Number);
	if (year < 1 || month < 1 || month > 12 || day < 1) return false;
	const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
	const monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
	return day <= monthDays[month - 1];
}

type LuxonLike = { isValid?: boolean; toISODate: () => string | null };

function isLuxonLike(value: unknown): value is LuxonLike {
	const candidate = value as Partial<LuxonLike> | null;
	return typeof value === 'object' && typeof candidate?.toISODate === 'function';
}

/** The text of a date value; null for an invalid Date or DateTime, undefined for other types. */
function dateText(value: unknown): string | null | undefined {
	if (typeof value === 'string') return value.trim();
	if (value instanceof Date) {
		return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
	}
	if (isLuxonLike(value)) return value.isValid === false ? null : value.toISODate() || null;
	return undefined;
}

/** The date part of an ISO 8601 date-time whose time and offset are in range, or undefined. */
function dateOfDateTime(text: string): string | undefined {
	const match = DATE_TIME_RE.exec(text);
	if (!match) return undefined;
	const [hours, minutes, seconds, offsetHours, offsetMinutes] = match
		.slice(2)
		.map((part) => (part === undefined ? 0 : Number(part)));
	const inRange =
		hours <= 23 && minutes <= 59 && seconds <= 60 && offsetHours <= 23 && offsetMinutes <= 59;
	return inRange ? match[1] : undefined;
}

/**
 * A date as `YYYY-MM-DD`: an ISO 8601 date-time is cut as written (no time-zone conversion: what
 * the user sees is sent), a Luxon DateTime taken in its zone, a JS Date in UTC.
 */
export function normaliseDate(value: unknown, field = 'Date'): Validated<string> {
	const expected = `${quoted(field)} must be a date as YYYY-MM-DD (an ISO 8601 date-time is cut to its date)`;
	const text = dateText(value);
	const date = !text || DATE_RE.test(text) ? text : dateOfDateTime(text);
	if (!date) {
		const got =
			text === null ? 'an invalid date' : text === '' ? 'an empty value' : describe(value);
		return fail(field, `${expected}, got ${got}`, DATE_FIX);
	}
	if (!isCalendarDate(date)) {
		return fail(
			field,
			`${quoted(field)} ${describe(date)} is not a date in the calendar; use YYYY-MM-DD`,
			DATE_FIX,
		);
	}
	return ok(date);
}

/** A From–To filter of normalised dates: From must not be after To (the API refuses it). */
export function validateDateRange(from: string | undefined, to: string | undefined): Problem[] {
	if (from === undefined || to === undefined || from <= to) return [];
	return oneProblem(
		'From',
		`'From' (${from}) is after 'To' (${to})`,
		"Set 'From' to a date on or before 'To'",
	);
}
