/**
 * Input validation for the Business Finance nodes.
 *
 * Pure functions, no runtime dependencies (the package may not have any): each check either
 * returns a normalised value or a message that says what to fix, so that bad input is refused
 * before a request is sent. The rules follow ../shared/spec/contract.md; where the contract leaves
 * room, the choice made here is written next to the function.
 *
 * Messages never repeat bank or wallet details back (they end up in execution logs); dates and
 * amounts are echoed because that is what the user needs to find the bad value.
 */

import { EVM_CHAINS, PAYMENT_METHODS, WALLET_CHAINS } from './constants';
import type { PaymentMethod, WalletChain } from './constants';

/** A checked value: the normalised value, or a message that says what to fix. */
export type Validated<T> = { ok: true; value: T } | { ok: false; message: string };

/** One problem with a request body field, named by its API (snake_case) field name. */
export interface FieldProblem {
	field: string;
	message: string;
}

const ok = <T>(value: T): Validated<T> => ({ ok: true, value });
const fail = <T>(message: string): Validated<T> => ({ ok: false, message });

function describe(value: unknown): string {
	if (typeof value === 'string')
		return `"${value.length > 60 ? `${value.slice(0, 57)}...` : value}"`;
	if (value === null) return 'null';
	if (value === undefined) return 'nothing';
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return `a value of type ${typeof value}`;
}

// ---------------------------------------------------------------------------------------------
// Identifiers and emails
// ---------------------------------------------------------------------------------------------

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its canonical 8-4-4-4-12 hex form (any version, any case). */
export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID_RE.test(value);
}

/** Trims the value and checks it is a UUID. */
export function validateUuid(value: unknown, field = 'ID'): Validated<string> {
	const trimmed = typeof value === 'string' ? value.trim() : value;
	if (trimmed === '' || trimmed === undefined || trimmed === null) {
		return fail(`${field} is required`);
	}
	if (!isUuid(trimmed)) {
		return fail(
			`${field} must be a UUID such as 3f2b9c1e-8a4d-4c2e-9f1a-2b3c4d5e6f70, got ${describe(value)}`,
		);
	}
	return ok(trimmed.toLowerCase());
}

// The "email" format of ajv-formats (full mode), which the service's JSON Schema validation
// uses: dot-atom local part, at least two domain labels, labels of at most 63 characters.
const EMAIL_RE =
	/^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** A pragmatic email check: `local@domain.tld`, no spaces, at most 254 characters. */
export function isEmail(value: unknown): value is string {
	return typeof value === 'string' && value.length <= 254 && EMAIL_RE.test(value);
}

/** Trims the value and checks it is an email address. */
export function validateEmail(value: unknown, field = 'Email'): Validated<string> {
	const trimmed = typeof value === 'string' ? value.trim() : value;
	if (!isEmail(trimmed)) {
		return fail(
			`${field} must be an email address such as name@example.com, got ${describe(value)}`,
		);
	}
	return ok(trimmed);
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
// YYYY-MM-DD, then T (or a space, as RFC 3339 allows) and hh:mm[:ss[.fraction]], then an
// optional Z or ±hh[:mm] offset.
const DATE_TIME_RE =
	/^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)?$/;

function isLeapYear(year: number): boolean {
	return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** True for a real calendar date written as YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
	const match = DATE_RE.exec(value);
	if (!match) return false;
	const year = Number(match[1]);
	const month = Number(match[2]);
	const day = Number(match[3]);
	if (year < 1 || month < 1 || month > 12 || day < 1) return false;
	const monthDays = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
	return day <= monthDays[month - 1];
}

interface LuxonLike {
	isValid?: boolean;
	toISODate: () => string | null;
}

function isLuxonLike(value: unknown): value is LuxonLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { toISODate?: unknown }).toISODate === 'function'
	);
}

/**
 * Normalises a date to `YYYY-MM-DD`.
 *
 * Accepts `YYYY-MM-DD`; an ISO 8601 date-time (`2026-03-01T10:00:00Z`, with or without seconds,
 * fraction or offset), which is cut to the date as written (no time-zone conversion, so what the
 * user sees is what is sent); a Luxon DateTime (n8n's dateTime parameters and `$now`/`$today`),
 * taken in its own zone; a JS Date, taken in UTC. The date must exist in the calendar.
 */
export function normaliseDate(value: unknown, field = 'Date'): Validated<string> {
	const expected = `${field} must be a date as YYYY-MM-DD (an ISO 8601 date-time is cut to its date)`;
	let text: string;
	if (typeof value === 'string') {
		text = value.trim();
	} else if (value instanceof Date) {
		if (Number.isNaN(value.getTime())) return fail(`${expected}, got an invalid date`);
		text = value.toISOString().slice(0, 10);
	} else if (isLuxonLike(value)) {
		const iso = value.isValid === false ? null : value.toISODate();
		if (!iso) return fail(`${expected}, got an invalid date`);
		text = iso;
	} else {
		return fail(`${expected}, got ${describe(value)}`);
	}
	if (text === '') return fail(`${expected}, got an empty value`);

	let date = text;
	if (!DATE_RE.test(text)) {
		const match = DATE_TIME_RE.exec(text);
		const [hours, minutes, seconds, offsetHours, offsetMinutes] = match
			? match.slice(2).map((part) => (part === undefined ? 0 : Number(part)))
			: [];
		if (
			!match ||
			hours > 23 ||
			minutes > 59 ||
			seconds > 60 ||
			offsetHours > 23 ||
			offsetMinutes > 59
		) {
			return fail(`${expected}, got ${describe(value)}`);
		}
		date = match[1];
	}
	if (!isCalendarDate(date)) {
		return fail(`${field} ${describe(date)} is not a date in the calendar; use YYYY-MM-DD`);
	}
	return ok(date);
}

// ---------------------------------------------------------------------------------------------
// Amounts
// ---------------------------------------------------------------------------------------------

export interface AmountRule {
	/** The bound: receivables `{ min: 0.01 }`, payables `{ min: 0, exclusive: true }`. */
	min: number;
	/** When true the amount must be greater than `min`, otherwise at least `min`. */
	exclusive?: boolean;
	/** Name used in messages. */
	field?: string;
}

const NUMERIC_STRING_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/**
 * The largest amount accepted: one trillion. The spec gives no maximum; this keeps amounts exact
 * in cents as JS numbers with room to spare, and is the sandbox's bound too.
 */
export const MAX_AMOUNT = 1_000_000_000_000;

/**
 * Checks a money amount and returns it as a number rounded to cents.
 *
 * - Finite numbers, or numeric strings as expressions give them (`"12.50"`, surrounding spaces
 *   allowed; no thousands separators, no exponent, since `1,000` is ambiguous across locales).
 * - At most 2 decimal places: the currency is USD (contract: receivables are created in USD), and
 *   silently rounding 10.005 would change what is billed. Floating-point noise such as
 *   `0.1 + 0.2` (0.30000000000000004) is within a millionth of a cent and is rounded, not refused.
 * - The bound from `rule` (receivables at least 0.01, payables more than 0).
 */
export function validateAmount(value: unknown, rule: AmountRule): Validated<number> {
	const field = rule.field ?? 'Amount';
	let amount: number;
	if (typeof value === 'number') {
		amount = value;
	} else if (typeof value === 'string' && NUMERIC_STRING_RE.test(value.trim())) {
		amount = Number(value.trim());
	} else {
		return fail(`${field} must be a number such as 125.50, got ${describe(value)}`);
	}
	if (!Number.isFinite(amount)) {
		return fail(`${field} must be a finite number, got ${describe(value)}`);
	}
	if (Math.abs(amount) > MAX_AMOUNT) {
		return fail(`${field} is too large (at most ${MAX_AMOUNT})`);
	}
	const scaled = amount * 100;
	const cents = Math.round(scaled);
	// Float noise: at most a few units in the last place of the scaled value (and never less than
	// a millionth of a cent), far below the tenth of a cent that a third decimal would add.
	const noise = Math.max(1e-6, Math.abs(scaled) * 8 * Number.EPSILON);
	const decimals =
		typeof value === 'string' ? (/\.(\d*?)0*$/.exec(value.trim())?.[1].length ?? 0) : 0;
	if (decimals > 2 || Math.abs(scaled - cents) > noise) {
		return fail(`${field} can have at most 2 decimal places, got ${describe(value)}`);
	}
	const rounded = cents / 100;
	const tooSmall = rule.exclusive ? rounded <= rule.min : rounded < rule.min;
	if (tooSmall) {
		const bound = rule.exclusive ? `greater than ${rule.min}` : `at least ${rule.min}`;
		return fail(`${field} must be ${bound}, got ${describe(value)}`);
	}
	return ok(rounded);
}

// ---------------------------------------------------------------------------------------------
// Bank details
// ---------------------------------------------------------------------------------------------

/** Removes spaces and hyphens that people type into bank numbers. */
function compact(value: string): string {
	return value.replace(/[\s-]+/g, '');
}

/**
 * ABA routing number: 9 digits whose weighted sum 3·d1 + 7·d2 + d3 + 3·d4 + 7·d5 + d6 + 3·d7 +
 * 7·d8 + d9 is a multiple of 10 and not 0 (000000000 is refused). Surrounding spaces are ignored.
 */
export function isValidAbaRouting(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const digits = value.trim();
	if (!/^\d{9}$/.test(digits)) return false;
	const weights = [3, 7, 1];
	let sum = 0;
	for (let i = 0; i < 9; i++) sum += Number(digits[i]) * weights[i % 3];
	return sum !== 0 && sum % 10 === 0;
}

/**
 * BBAN structure per country from the SWIFT IBAN registry (plus the countries that use IBANs
 * outside it): `n` digits, `a` upper-case letters, `c` letters or digits. The IBAN length is 4 plus
 * the sum of the counts.
 */
const IBAN_FORMATS: Record<string, string> = Object.fromEntries(
	(
		'AD8n12c AE3n16n AL8n16c AO21n AT16n AX14n AZ4a20c BA16n BE12n BF2c22n BG4a6n8c BH4a14c ' +
		'BI23n BJ2c22n BL10n11c2n BR23n1a1c BY4a4n16c CF23n CG23n CH5n12c CI1a23n CM23n CR18n CV21n ' +
		'CY8n16c CZ20n DE18n DJ23n DK14n DO4a20n DZ22n EE16n EG25n ES20n FI14n FK2a12n FO14n ' +
		'FR10n11c2n GA23n GB4a14n GE2c16n GF10n11c2n GI4a15c GL14n GP10n11c2n GQ23n GR7n16c GT24c ' +
		'GW2a19n HN4a20n HR17n HU24n IE4c14n IL19n IQ4a15n IR22n IS22n IT1a10n12c JO4a4n18c KM23n ' +
		'KW4a22c KZ3n13c LB4n20c LC4a24c LI5n12c LT16n LU3n13c LV4a13c LY21n MA24n MC10n11c2n ' +
		'MD2c18c ME18n MF10n11c2n MG23n MK3n10c2n ML2c22n MN16n MQ10n11c2n MR23n MT4a5n18c ' +
		'MU4a19n3a MZ21n NC10n11c2n NE2a22n NI4a20n NL4a10n NO11n OM3n16c PF10n11c2n PK4c16n PL24n ' +
		'PM10n11c2n PS4c21n PT21n QA4a21c RE10n11c2n RO4a16c RS18n RU14n15c SA2n18c SC4a20n3a SD14n ' +
		'SE20n SI15n SK20n SM1a10n12c SN2a22n SO19n ST21n SV4a20n TD23n TF10n11c2n TG2a22n TL19n ' +
		'TN20n TR5n17c UA6n19c VA18n VG4c16n WF10n11c2n XK16n YE4a4n18c YT10n11c2n ' +
		''
	)
		.trim()
		.split(' ')
		.map((entry) => [entry.slice(0, 2), entry.slice(2)]),
);

const BBAN_PART: Record<string, string> = {
	n: '[0-9]',
	a: '[A-Z]',
	c: '[A-Z0-9]',
};
const bbanPatterns = new Map<string, RegExp>();

function bbanPattern(country: string): RegExp | undefined {
	const format = IBAN_FORMATS[country];
	if (!format) return undefined;
	let pattern = bbanPatterns.get(country);
	if (!pattern) {
		const body = format.replace(/(\d+)([nac])/g, (_m, count: string, kind: string) => {
			return `${BBAN_PART[kind]}{${count}}`;
		});
		pattern = new RegExp(`^${body}$`);
		bbanPatterns.set(country, pattern);
	}
	return pattern;
}

/** Removes spaces (and hyphens) and upper-cases: the electronic form of an IBAN. */
export function normaliseIban(value: string): string {
	return compact(value).toUpperCase();
}

/** ISO 7064 MOD 97-10 of an upper-case alphanumeric string, letters as 10..35, digit by digit. */
function mod97(text: string): number {
	let remainder = 0;
	for (const char of text) {
		const code = char.charCodeAt(0);
		if (code >= 48 && code <= 57) {
			remainder = (remainder * 10 + (code - 48)) % 97;
		} else {
			remainder = (remainder * 100 + (code - 55)) % 97;
		}
	}
	return remainder;
}

/**
 * IBAN: accepted with spaces or in lower case (compare `normaliseIban`). Valid when the country
 * is known, the length and BBAN structure match the country's format, the check digits are
 * 02–98 and the MOD 97-10 check over BBAN + country + check digits gives 1. National check
 * digits inside the BBAN (some countries have them) are not checked.
 */
export function isValidIban(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const iban = normaliseIban(value);
	if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
	const pattern = bbanPattern(iban.slice(0, 2));
	if (!pattern || !pattern.test(iban.slice(4))) return false;
	const checkDigits = Number(iban.slice(2, 4));
	if (checkDigits < 2 || checkDigits > 98) return false;
	return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

/** ISO 3166-1 alpha-2 codes (and XK, used by banks for Kosovo), for the SWIFT country part. */
const COUNTRY_CODES = new Set(
	(
		'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ ' +
		'BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM ' +
		'DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS ' +
		'GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN ' +
		'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
		'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
		'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
		'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI ' +
		'VN VU WF WS XK YE YT ZA ZM ZW ' +
		''
	)
		.trim()
		.split(' '),
);

/** Removes spaces and upper-cases a SWIFT/BIC code. */
export function normaliseSwift(value: string): string {
	return value.replace(/\s+/g, '').toUpperCase();
}

/**
 * SWIFT/BIC: `AAAA BB CC (DDD)`, 8 or 11 characters: 4 letters (institution), 2 letters that are
 * a country code, 2 letters or digits (location), optionally 3 letters or digits (branch).
 * Spaces and lower case are accepted and normalised.
 */
export function isValidSwift(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const swift = normaliseSwift(value);
	return (
		/^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(swift) && COUNTRY_CODES.has(swift.slice(4, 6))
	);
}

// ---------------------------------------------------------------------------------------------
// Wallet addresses
// ---------------------------------------------------------------------------------------------

/*
 * Wallet address rules, by `wallet_chain` (the sandbox checks exactly the same rules):
 *
 *   ethereum, base, polygon,    `0x` followed by 40 hex characters, any case (the EIP-55 mixed-
 *   arbitrum, optimism (EVM)    case checksum is not checked: it needs Keccak-256)
 *                               /^0x[0-9a-fA-F]{40}$/
 *   solana                      base58 (alphabet 1-9 A-H J-N P-Z a-k m-z), 32 to 44 characters
 *                               /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
 *   tron                        base58, `T` followed by 33 characters (34 in all)
 *                               /^T[1-9A-HJ-NP-Za-km-z]{33}$/
 *   bitcoin                     legacy/P2SH: base58 starting with `1` or `3`, 26 to 35 characters
 *                               /^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/
 *                               or bech32/bech32m: `bc1` + 11 to 71 bech32 characters
 *                               (qpzry9x8gf2tvdw0s3jn54khce6mua7l), all lower case or all upper case
 *                               /^bc1[02-9ac-hj-np-z]{11,71}$/ on the lower-cased address
 *                               (normaliseMethodDetails sends an upper-case one in lower case)
 *
 * Surrounding spaces are trimmed before the check; nothing else is changed. The chain name is
 * matched exactly (lower case), as the API expects it.
 */
const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const WALLET_RULES: Record<WalletChain, (address: string) => boolean> = {
	ethereum: (a) => /^0x[0-9a-fA-F]{40}$/.test(a),
	base: (a) => /^0x[0-9a-fA-F]{40}$/.test(a),
	polygon: (a) => /^0x[0-9a-fA-F]{40}$/.test(a),
	arbitrum: (a) => /^0x[0-9a-fA-F]{40}$/.test(a),
	optimism: (a) => /^0x[0-9a-fA-F]{40}$/.test(a),
	solana: (a) => new RegExp(`^${BASE58}{32,44}$`).test(a),
	tron: (a) => new RegExp(`^T${BASE58}{33}$`).test(a),
	bitcoin: (a) =>
		new RegExp(`^[13]${BASE58}{25,34}$`).test(a) ||
		((a === a.toLowerCase() || a === a.toUpperCase()) &&
			/^bc1[02-9ac-hj-np-z]{11,71}$/.test(a.toLowerCase())),
};

const WALLET_HINTS: Record<WalletChain, string> = {
	ethereum: '0x followed by 40 hex characters',
	base: '0x followed by 40 hex characters',
	polygon: '0x followed by 40 hex characters',
	arbitrum: '0x followed by 40 hex characters',
	optimism: '0x followed by 40 hex characters',
	solana: '32 to 44 base58 characters',
	tron: 'T followed by 33 base58 characters',
	bitcoin:
		'a base58 address starting with 1 or 3 (26-35 characters) or a bech32 address starting with bc1',
};

export function isWalletChain(value: unknown): value is WalletChain {
	return typeof value === 'string' && (WALLET_CHAINS as readonly string[]).includes(value);
}

export function isEvmChain(value: unknown): boolean {
	return typeof value === 'string' && (EVM_CHAINS as readonly string[]).includes(value);
}

/** True when `address` has the structure of an address on `chain` (rules above). */
export function isValidWalletAddress(chain: unknown, address: unknown): boolean {
	if (!isWalletChain(chain) || typeof address !== 'string') return false;
	return WALLET_RULES[chain](address.trim());
}

// ---------------------------------------------------------------------------------------------
// Payment method details (vendors and payables)
// ---------------------------------------------------------------------------------------------

/** The method detail fields of a vendor or payable body, by API field name. */
export interface MethodDetails {
	bank_name?: unknown;
	account_name?: unknown;
	account_number?: unknown;
	routing_number?: unknown;
	swift_code?: unknown;
	iban?: unknown;
	bank_address?: unknown;
	wallet_address?: unknown;
	wallet_chain?: unknown;
	[field: string]: unknown;
}

export interface MethodDetailsOptions {
	/**
	 * `vendor` (default): `payment_method` is required and its details must be complete.
	 * `payable`: see `validateMethodDetails`.
	 */
	context?: 'vendor' | 'payable';
	/**
	 * Payables only: whether the payable names an existing vendor (`vendor_id`). Details given
	 * without a `payment_method` then use the vendor's method, which is not known here. When
	 * false, such details are refused (no method to check them against). When undefined, not
	 * checked.
	 */
	hasVendorId?: boolean;
}

export function isPaymentMethod(value: unknown): value is PaymentMethod {
	return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
}

const METHOD_FIELDS: Record<PaymentMethod, readonly string[]> = {
	ach: ['account_number', 'routing_number'],
	wire: ['account_number', 'routing_number', 'swift_code', 'iban'],
	crypto: ['wallet_address', 'wallet_chain'],
};

/** Every detail field, and the ones that apply to each method (the sandbox applies the same). */
export const DETAIL_FIELDS = [
	'bank_name',
	'account_name',
	'account_number',
	'routing_number',
	'swift_code',
	'iban',
	'bank_address',
	'wallet_address',
	'wallet_chain',
] as const;

export const FIELDS_BY_METHOD: Record<PaymentMethod, readonly string[]> = {
	ach: ['bank_name', 'account_name', 'account_number', 'routing_number'],
	wire: [
		'bank_name',
		'account_name',
		'account_number',
		'routing_number',
		'swift_code',
		'iban',
		'bank_address',
	],
	crypto: ['wallet_address', 'wallet_chain'],
};

/** Account numbers: ach 4 to 17 digits (US accounts); wire 4 to 34 letters or digits. */
export function isValidAccountNumber(method: PaymentMethod, value: unknown): boolean {
	if (typeof value !== 'string') return false;
	return method === 'ach' ? /^\d{4,17}$/.test(value) : /^[A-Za-z0-9]{4,34}$/.test(value);
}

function present(value: unknown): boolean {
	return (
		value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '')
	);
}

/**
 * Checks a payment method and its details against the contract's rules and returns every
 * problem found (an empty list when the body can be sent), with API field names:
 *
 * - `ach`: `account_number` and `routing_number` (a valid ABA routing number);
 * - `wire`: `account_number`, plus at least one of `routing_number` (ABA), `swift_code`
 *   (SWIFT/BIC) or `iban` (IBAN with MOD 97-10);
 * - `crypto`: `wallet_address` and `wallet_chain` (one of the contract's chains), the address
 *   valid for the chain.
 *
 * Whatever the method, every detail field that is present must be well-formed, and a
 * `wallet_chain` must be a known chain. With a known method, a detail field that does not apply
 * to it is refused (`FIELDS_BY_METHOD`: an `iban` on an `ach` vendor, a `wallet_address` on a
 * `wire` payable), and `account_number` must be 4 to 17 digits (ach) or 4 to 34 letters or
 * digits (wire). The sandbox applies the same rules, so a body that passes here is not refused
 * there for its details.
 *
 * Vendors (`context: 'vendor'`): `payment_method` is required and its details must be complete.
 *
 * Payables (`context: 'payable'`): the contract requires neither a method nor details on a
 * payable (it may rely on the vendor's details on file). Our reading: a payable's details are
 * checked only when given. When `payment_method` is set and at least one detail field of that
 * method is given, the details must be complete for the method (partial details cannot pay
 * anyone); a method on its own, or no method at all, is accepted; present fields are always
 * checked for their format. Details without a method are refused when `hasVendorId` is false
 * (there is no method for them), and passed on when the payable names a vendor (the service
 * uses the vendor's method).
 */
export function validateMethodDetails(
	method: unknown,
	details: MethodDetails,
	options: MethodDetailsOptions = {},
): FieldProblem[] {
	const context = options.context ?? 'vendor';
	const problems: FieldProblem[] = [];
	const has = (field: string) => present(details[field]);

	// Format of whatever is present.
	for (const field of [
		'account_number',
		'routing_number',
		'swift_code',
		'iban',
		'wallet_address',
		'wallet_chain',
	]) {
		if (
			details[field] !== undefined &&
			details[field] !== null &&
			typeof details[field] !== 'string'
		) {
			problems.push({ field, message: `${field} must be text` });
		}
	}
	if (
		has('routing_number') &&
		typeof details.routing_number === 'string' &&
		!isValidAbaRouting(details.routing_number)
	) {
		problems.push({
			field: 'routing_number',
			message: 'routing_number must be a 9-digit ABA routing number with a valid check digit',
		});
	}
	if (
		has('swift_code') &&
		typeof details.swift_code === 'string' &&
		!isValidSwift(details.swift_code)
	) {
		problems.push({
			field: 'swift_code',
			message:
				'swift_code must be a SWIFT/BIC code of 8 or 11 characters: 4 letters (bank), 2 letters (country), 2 letters or digits (location) and optionally 3 more (branch)',
		});
	}
	if (has('iban') && typeof details.iban === 'string' && !isValidIban(details.iban)) {
		problems.push({
			field: 'iban',
			message:
				'iban is not a valid IBAN: check the country code, the length for that country and the two check digits',
		});
	}
	if (has('wallet_chain') && !isWalletChain(details.wallet_chain)) {
		problems.push({
			field: 'wallet_chain',
			message: `wallet_chain must be one of ${WALLET_CHAINS.join(', ')}`,
		});
	}
	if (
		has('wallet_address') &&
		typeof details.wallet_address === 'string' &&
		isWalletChain(details.wallet_chain) &&
		!isValidWalletAddress(details.wallet_chain, details.wallet_address)
	) {
		problems.push({
			field: 'wallet_address',
			message: `wallet_address is not a valid ${details.wallet_chain} address: expected ${WALLET_HINTS[details.wallet_chain]}`,
		});
	}

	// The method itself.
	if (!present(method)) {
		if (context === 'vendor') {
			problems.push({
				field: 'payment_method',
				message: `payment_method is required: one of ${PAYMENT_METHODS.join(', ')}`,
			});
		} else if (options.hasVendorId === false && DETAIL_FIELDS.some(has)) {
			problems.push({
				field: 'payment_method',
				message: `payment_method is required when bank or wallet details are given: one of ${PAYMENT_METHODS.join(', ')}`,
			});
		}
		return problems;
	}
	if (!isPaymentMethod(method)) {
		problems.push({
			field: 'payment_method',
			message: `payment_method must be one of ${PAYMENT_METHODS.join(', ')}`,
		});
		return problems;
	}

	// Fields that do not apply to the method, and the account number's form for it.
	for (const field of DETAIL_FIELDS) {
		if (has(field) && !FIELDS_BY_METHOD[method].includes(field)) {
			problems.push({ field, message: `${field} does not apply to payment_method ${method}` });
		}
	}
	if (
		has('account_number') &&
		typeof details.account_number === 'string' &&
		method !== 'crypto' &&
		!isValidAccountNumber(method, details.account_number)
	) {
		problems.push({
			field: 'account_number',
			message:
				method === 'ach'
					? 'account_number must be 4 to 17 digits for ach'
					: 'account_number must be 4 to 34 letters or digits for wire',
		});
	}

	// Completeness for the method.
	const mustBeComplete = context === 'vendor' || METHOD_FIELDS[method].some(has);
	if (!mustBeComplete) return problems;
	const missing = (field: string, why: string) => {
		if (!has(field)) problems.push({ field, message: `${field} is required ${why}` });
	};
	if (method === 'ach') {
		missing('account_number', 'for ach');
		missing('routing_number', 'for ach');
	} else if (method === 'wire') {
		missing('account_number', 'for wire');
		if (!has('routing_number') && !has('swift_code') && !has('iban')) {
			problems.push({
				field: 'routing_number',
				message: 'wire needs a routing_number, a swift_code or an iban',
			});
		}
	} else {
		missing('wallet_address', 'for crypto');
		missing('wallet_chain', `for crypto: one of ${WALLET_CHAINS.join(', ')}`);
	}
	return problems;
}

/**
 * Returns a copy of the details in the form to send: text trimmed, IBAN and SWIFT in their
 * electronic form (no spaces, upper case), an upper-case bech32 bitcoin address in lower case,
 * numbers turned into text (expressions may give an account number as a number). Empty strings
 * are dropped. Normalise first, then validate.
 */
export function normaliseMethodDetails<T extends MethodDetails>(details: T): T {
	const result: MethodDetails = {};
	for (const [field, value] of Object.entries(details)) {
		if (value === undefined || value === null) continue;
		if (typeof value === 'number' && Number.isFinite(value)) {
			result[field] = String(value);
			continue;
		}
		if (typeof value !== 'string') {
			result[field] = value;
			continue;
		}
		const trimmed = value.trim();
		if (trimmed === '') continue;
		if (field === 'iban') {
			// Keep what was typed when nothing would be left (`-`), so that it is refused, not dropped.
			result[field] = normaliseIban(trimmed) || trimmed;
		} else if (field === 'swift_code') result[field] = normaliseSwift(trimmed);
		else if (
			field === 'wallet_address' &&
			/^bc1/i.test(trimmed) &&
			trimmed === trimmed.toUpperCase()
		) {
			// An all-upper-case bech32 address (as in QR codes) in its canonical lower case.
			result[field] = trimmed.toLowerCase();
		} else result[field] = trimmed;
	}
	return result as T;
}
