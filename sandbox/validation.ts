/** Checks JSON Schema cannot express: bank and wallet details, amounts, query strings. */
import type { FastifySchemaValidationError } from 'fastify';
import { validationError } from './errors';
import { EVM_CHAINS } from './schemas';
import type { PaymentMethod } from './types';

/** ABA routing number: 9 digits, weights 3-7-1, sum divisible by 10. */
export function isAbaRoutingNumber(value: string): boolean {
	if (!/^\d{9}$/.test(value)) return false;
	const d = value.split('').map(Number);
	const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
	return sum % 10 === 0 && value !== '000000000';
}

/** IBAN: country letters, check digits, BBAN; mod-97 of the rearranged number is 1. */
export function isIban(value: string): boolean {
	const iban = value.replace(/ /g, '').toUpperCase();
	if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
	const rearranged = iban.slice(4) + iban.slice(0, 4);
	let rest = 0;
	for (const ch of rearranged) {
		const n = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
		for (const digit of n) rest = (rest * 10 + Number(digit)) % 97;
	}
	return rest === 1;
}

/** SWIFT/BIC: 4 letters bank, 2 letters country, 2 location, optional 3 branch. */
export const isSwift = (value: string): boolean =>
	/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value);

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
/** Addresses of the chains that are not EVM chains (those take `0x` + 40 hex characters). */
const WALLET_FORMATS = new Map([
	['solana', new RegExp(`^${BASE58}{32,44}$`)],
	['tron', new RegExp(`^T${BASE58}{33}$`)],
	['bitcoin', new RegExp(`^([13]${BASE58}{25,34}|bc1[02-9ac-hj-np-z]{11,71})$`)],
]);

export const isWalletAddress = (chain: string, address: string): boolean =>
	(EVM_CHAINS.includes(chain) ? /^0x[0-9a-fA-F]{40}$/ : WALLET_FORMATS.get(chain))?.test(address) ??
	false;

const ACH_FIELDS = ['bank_name', 'account_name', 'account_number', 'routing_number'] as const;
const WIRE_FIELDS = [...ACH_FIELDS, 'swift_code', 'iban', 'bank_address'] as const;
const WALLET_FIELDS = ['wallet_address', 'wallet_chain'] as const;
const DETAIL_FIELDS = [...WIRE_FIELDS, ...WALLET_FIELDS];
type DetailField = (typeof DETAIL_FIELDS)[number];
export type Details = Partial<Record<DetailField, string>>;

const FIELDS_BY_METHOD: Record<PaymentMethod, readonly DetailField[]> = {
	ach: ACH_FIELDS,
	wire: WIRE_FIELDS,
	crypto: WALLET_FIELDS,
};
/** Per method, the details a vendor needs: one of each group. */
const REQUIRED_BY_METHOD: Record<PaymentMethod, DetailField[][]> = {
	ach: [['account_number'], ['routing_number']],
	wire: [['account_number'], ['routing_number', 'swift_code', 'iban']],
	crypto: [['wallet_address'], ['wallet_chain']],
};

const FORMAT_CHECKS: Array<[DetailField, (value: string) => boolean, string]> = [
	['routing_number', isAbaRoutingNumber, 'a 9-digit ABA routing number with a valid check digit'],
	['swift_code', isSwift, 'a SWIFT/BIC code of 8 or 11 upper-case characters'],
	['iban', isIban, 'a valid IBAN (mod-97 check failed or bad format)'],
];

export const hasAnyDetail = (body: Details): boolean =>
	DETAIL_FIELDS.some((f) => body[f] !== undefined);

/** With `complete`, also the vendor's required set. */
export function checkPaymentDetails(method: PaymentMethod, body: Details, complete: boolean): void {
	for (const field of DETAIL_FIELDS) {
		if (body[field] !== undefined && !FIELDS_BY_METHOD[method].includes(field)) {
			throw validationError(`${field} does not apply to payment_method ${method}`);
		}
	}
	const { account_number, wallet_address, wallet_chain } = body;
	if (account_number !== undefined) {
		const [format, rule] =
			method === 'ach'
				? [/^\d{4,17}$/, '4 to 17 digits']
				: [/^[A-Za-z0-9]{4,34}$/, '4 to 34 letters or digits'];
		if (!format.test(account_number)) throw validationError(`account_number must be ${rule}`);
	}
	for (const [field, valid, what] of FORMAT_CHECKS) {
		const value = body[field];
		if (value !== undefined && !valid(value)) throw validationError(`${field} must be ${what}`);
	}
	if (
		wallet_address !== undefined &&
		wallet_chain !== undefined &&
		!isWalletAddress(wallet_chain, wallet_address)
	) {
		throw validationError(`wallet_address is not a valid ${wallet_chain} address`);
	}
	if (!complete) return;
	for (const group of REQUIRED_BY_METHOD[method]) {
		if (group.every((field) => body[field] === undefined)) {
			const names = group.join(', ').replace(/, (\w+)$/, ' or $1');
			throw validationError(`${names} is required for payment_method ${method}`);
		}
	}
}

/** Amounts: at most two decimals (JSON Schema covers the type and the bounds). */
export function checkAmount(field: string, value: number): void {
	const cents = value * 100;
	if (Math.abs(cents - Math.round(cents)) > 1e-6) {
		throw validationError(`${field} must have at most two decimal places`);
	}
}

export const last4 = (value: string | undefined): string | null =>
	value === undefined ? null : value.slice(-4);

// ---- query strings ----

export type Query = Record<string, string | string[] | undefined>;

/** Rejects unknown and repeated parameters (the routes then read single strings). */
export function checkQuery(query: Query, allowed: readonly string[]): void {
	for (const [name, value] of Object.entries(query)) {
		if (!allowed.includes(name)) {
			const takes = allowed.length ? `allowed: ${allowed.join(', ')}` : 'this endpoint takes none';
			throw validationError(`unknown query parameter: ${name} (${takes})`);
		}
		if (Array.isArray(value)) throw validationError(`${name} must be given once`);
	}
}

export function parsePagination(q: Record<string, string>): { page: number; limit: number } {
	return { page: intParam('page', q.page, 1), limit: intParam('limit', q.limit, 50, 100) };
}

function intParam(name: string, raw: string | undefined, fallback: number, max?: number): number {
	if (raw === undefined) return fallback;
	const n = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
	const range = max ? `from 1 to ${max}` : 'of at least 1';
	if (!Number.isSafeInteger(n) || n < 1 || n > (max ?? Infinity))
		throw validationError(`${name} must be an integer ${range}`);
	return n;
}

/** `YYYY-MM-DD` and a real calendar date (400 naming the parameter otherwise). */
export function parseDateParam(name: string, raw: string): string {
	const ms = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : NaN;
	if (isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw)
		throw validationError(`${name} must be a date in the form YYYY-MM-DD`);
	return raw;
}

// ---- JSON Schema (ajv) errors ----

/**
 * One message that names the field (docs/api-decisions.md): the missing or extra field, the
 * allowed values, or ajv's own words after the field (`amount must be >= 0.01`).
 */
export function formatAjvError(e: FastifySchemaValidationError): string {
	const path = e.instancePath.slice(1).replace(/\/(\d+)(?=\/|$)/g, '[$1]');
	const field = path.replace(/\//g, '.') || 'body';
	const inside = path ? `${field}.` : '';
	const p = e.params as Record<string, any>;
	if (e.keyword === 'required') return `${inside}${p.missingProperty} is required`;
	if (e.keyword === 'additionalProperties')
		return `${inside}${p.additionalProperty} is not an allowed field`;
	if (e.keyword === 'enum') return `${field} must be one of: ${p.allowedValues.join(', ')}`;
	return `${field} ${e.message ?? 'is invalid'}`;
}
