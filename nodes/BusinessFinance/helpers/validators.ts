/** Checks of single values: each returns the value to send, or a problem that says what to fix. */
import { UUID_PATTERN } from './constants';

/** One reason an item cannot be sent: the field as the editor names it, what is wrong, the fix. */
export interface Problem {
	field: string;
	message: string;
	fix?: string;
}

/** A checked value: the normalised value, or the problem with it. */
export type Validated<T> = { ok: true; value: T } | ({ ok: false } & Problem);

export const ok = <T>(value: T): Validated<T> => ({ ok: true, value });
export const fail = <T>(field: string, message: string, fix?: string): Validated<T> =>
	fix === undefined ? { ok: false, field, message } : { ok: false, field, message, fix };

/** The list a rule about several values returns when it is broken: its one problem. */
export const oneProblem = (field: string, message: string, fix: string): Problem[] => [
	{ field, message, fix },
];

/** A field as messages name it: its label in single quotes (values get double, `describe`). */
export function quoted(label: string): string {
	return `'${label}'`;
}

/** A value as messages quote it (long text cut). Never used for bank or wallet details. */
export function describe(value: unknown): string {
	if (typeof value === 'string')
		return `"${value.length > 60 ? `${value.slice(0, 57)}...` : value}"`;
	if (value === null) return 'null';
	if (value === undefined) return 'nothing';
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return `a value of type ${typeof value}`;
}

/** Whether `value` is one of `values`, exactly as the API writes it (lower case). */
export const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
	typeof value === 'string' && (values as readonly string[]).includes(value);

/** Whether the user actually set a value (empty text, null and undefined are "not set"). */
export function isSet(value: unknown): boolean {
	if (value === undefined || value === null) return false;
	if (typeof value === 'string') return value.trim() !== '';
	return true;
}

/** Required text, trimmed. A number (from an expression) is taken as its text. */
export function validateRequiredText(value: unknown, field: string): Validated<string> {
	const text = typeof value === 'number' ? String(value) : value;
	if (typeof text !== 'string' || text.trim() === '') {
		return fail(field, `${quoted(field)} is required`, `Enter a value for ${quoted(field)}`);
	}
	return ok(text.trim());
}

const UUID_RE = new RegExp(UUID_PATTERN);

/** Trims the value, checks it is a UUID and lower-cases it. */
export function validateUuid(value: unknown, field = 'ID'): Validated<string> {
	const trimmed = typeof value === 'string' ? value.trim() : value;
	const fix = `Check the value of ${quoted(field)}`;
	if (!isSet(trimmed)) return fail(field, `${quoted(field)} is required`, fix);
	if (typeof trimmed !== 'string' || !UUID_RE.test(trimmed)) {
		return fail(
			field,
			`${quoted(field)} must be a UUID such as 3f2b9c1e-8a4d-4c2e-9f1a-2b3c4d5e6f70, got ${describe(value)}`,
			fix,
		);
	}
	return ok(trimmed.toLowerCase());
}

// The "email" format of ajv-formats (full mode), which the service's JSON Schema validation
// uses: dot-atom local part, at least two domain labels, labels of at most 63 characters.
const EMAIL_RE =
	/^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Trims the value and checks it is an email address (`EMAIL_RE`, at most 254 characters). */
export function validateEmail(value: unknown, field = 'Email'): Validated<string> {
	const trimmed = typeof value === 'string' ? value.trim() : value;
	if (typeof trimmed !== 'string' || trimmed.length > 254 || !EMAIL_RE.test(trimmed)) {
		return fail(
			field,
			`${quoted(field)} must be an email address such as name@example.com, got ${describe(value)}`,
			`Check the value of ${quoted(field)}`,
		);
	}
	return ok(trimmed);
}

interface AmountRule {
	min: number;
	/** When true the amount must be greater than `min`, otherwise at least `min`. */
	exclusive?: boolean;
}

/** Receivables are created for at least 0.01 (the API's minimum). */
export const RECEIVABLE_AMOUNT: AmountRule = { min: 0.01 };
/** Payables: any amount owed, so more than 0 (docs/api-decisions.md). */
export const PAYABLE_AMOUNT: AmountRule = { min: 0, exclusive: true };

const NUMERIC_STRING_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** The largest amount: the API states none; this keeps cents exact, and is the sandbox's. */
const MAX_AMOUNT = 1_000_000_000_000;

/** The value as a finite number: numbers, or numeric text as expressions give it. */
function parseAmount(value: unknown, field: string): Validated<number> {
	// An Amount field starts empty (null), and n8n does not flag an empty number as required
	if (value === null || value === undefined || value === '')
		return fail(field, `${quoted(field)} is required: enter an amount such as 125.50`);
	const numericText = typeof value === 'string' && NUMERIC_STRING_RE.test(value.trim());
	if (typeof value !== 'number' && !numericText) {
		return fail(field, `${quoted(field)} must be a number such as 125.50, got ${describe(value)}`);
	}
	// Number() ignores the spaces around numeric text, as trim() does
	const amount = Number(value);
	if (!Number.isFinite(amount)) {
		return fail(field, `${quoted(field)} must be a finite number, got ${describe(value)}`);
	}
	if (Math.abs(amount) > MAX_AMOUNT) {
		return fail(field, `${quoted(field)} is too large (at most ${MAX_AMOUNT})`);
	}
	return ok(amount);
}

/**
 * A money amount rounded to cents: a number or numeric text (no separators: `1,000` is
 * ambiguous), at most 2 decimals (rounding 10.005 would change what is billed; float noise such
 * as 0.1 + 0.2 is rounded), within `rule`.
 */
export function validateAmount(
	value: unknown,
	rule: AmountRule,
	field = 'Amount',
): Validated<number> {
	const parsed = parseAmount(value, field);
	if (!parsed.ok) return parsed;
	const scaled = parsed.value * 100;
	const cents = Math.round(scaled);
	// Float noise: at most a few units in the last place of the scaled value (and never less than
	// a millionth of a cent), far below the tenth of a cent that a third decimal would add.
	const noise = Math.max(1e-6, Math.abs(scaled) * 8 * Number.EPSILON);
	const decimals =
		typeof value === 'string' ? (/\.(\d*?)0*$/.exec(value.trim())?.[1].length ?? 0) : 0;
	if (decimals > 2 || Math.abs(scaled - cents) > noise) {
		return fail(
			field,
			`${quoted(field)} can have at most 2 decimal places, got ${describe(value)}`,
		);
	}
	const rounded = cents / 100;
	const tooSmall = rule.exclusive ? rounded <= rule.min : rounded < rule.min;
	if (tooSmall) {
		const bound = rule.exclusive ? `greater than ${rule.min}` : `at least ${rule.min}`;
		return fail(field, `${quoted(field)} must be ${bound}, got ${describe(value)}`);
	}
	return ok(rounded);
}

/** `limit` of a list: a whole number of at least 1 (it may be above the API's page size). */
export function validateLimit(value: unknown): Validated<number> {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		return fail(
			'Limit',
			"'Limit' must be a whole number of at least 1",
			"Set 'Limit', or turn on 'Return All'",
		);
	}
	return ok(value);
}

/** A duration in seconds: a finite number from 0 to `max`. */
export function validateSeconds(
	value: unknown,
	field: string,
	example: number,
	max: number,
): Validated<number> {
	if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max) {
		return ok(value);
	}
	return fail(
		field,
		`${quoted(field)} must be 0 to ${max} seconds`,
		`Set ${quoted(field)} to a number such as ${example}`,
	);
}

/** A flag: true or false, or their text from an expression (any case, spaces around). */
export function validateBoolean(value: unknown, field: string): Validated<boolean> {
	const flag = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (flag === true || flag === 'true') return ok(true);
	if (flag === false || flag === 'false') return ok(false);
	return fail(
		field,
		`${quoted(field)} must be true or false`,
		`Set ${quoted(field)} to on or off (or an expression giving true or false)`,
	);
}
