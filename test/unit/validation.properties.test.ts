import { validate as abaValidate } from 'abavalidator';
import fc from 'fast-check';
import * as ibantools from 'ibantools';

import {
	isValidAbaRouting,
	isValidIban,
	isValidSwift,
} from '../../nodes/BusinessFinance/helpers/bankIdentifiers';
import { normaliseDate } from '../../nodes/BusinessFinance/helpers/dates';
import {
	PAYABLE_AMOUNT,
	RECEIVABLE_AMOUNT,
	validateAmount,
} from '../../nodes/BusinessFinance/helpers/validators';

const RUNS = { numRuns: 500 };

const digit = fc.constantFrom(...'0123456789'.split(''));
const upper = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''));
const alnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''));
const chars = (unit: fc.Arbitrary<string>, length: number) =>
	fc.array(unit, { minLength: length, maxLength: length }).map((parts) => parts.join(''));

describe('ABA routing numbers against abavalidator', () => {
	it('accept numbers made valid by computing the check digit, and refuse the 9 other digits', () => {
		fc.assert(
			fc.property(chars(digit, 8), (first8) => {
				const weights = [3, 7, 1, 3, 7, 1, 3, 7];
				const sum = first8.split('').reduce((total, d, i) => total + Number(d) * weights[i], 0);
				const check = (10 - (sum % 10)) % 10;
				for (let d = 0; d <= 9; d++) {
					const routing = first8 + String(d);
					const expected = d === check && routing !== '000000000';
					expect(isValidAbaRouting(routing)).toBe(expected);
					expect(abaValidate(routing)).toBe(expected);
				}
			}),
			RUNS,
		);
	});

	it('agree on arbitrary short strings (spaces, letters, other lengths)', () => {
		const near = fc.oneof(
			fc.string({ maxLength: 12 }),
			fc.stringMatching(/^\s?[0-9]{8,10}\s?$/),
			fc.stringMatching(/^[0-9a ]{9,11}$/),
		);
		fc.assert(
			fc.property(near, (text) => {
				expect(isValidAbaRouting(text)).toBe(abaValidate(text));
			}),
			RUNS,
		);
	});
});

/** Every country ibantools has a BBAN format for, with the format as parts. */
const IBAN_COUNTRIES = Object.entries(ibantools.countrySpecs)
	.filter(([, spec]) => spec.chars && spec.bban_regexp)
	.map(([country, spec]) => {
		const parts = [...spec.bban_regexp!.matchAll(/\[([^\]]+)\]\{(\d+)\}/g)].map(
			([, set, count]) => ({
				set,
				count: Number(count),
			}),
		);
		return { country, parts };
	});

function bbanArb(parts: Array<{ set: string; count: number }>) {
	return fc
		.tuple(
			...parts.map(({ set, count }) =>
				chars(set === '0-9' ? digit : set === 'A-Z' ? upper : alnum, count),
			),
		)
		.map((segments) => segments.join(''));
}

const validIbanArb = fc
	.constantFrom(...IBAN_COUNTRIES)
	.chain(({ country, parts }) =>
		bbanArb(parts).map((bban) => ibantools.composeIBAN({ countryCode: country, bban })!),
	);

// Without ibantools' national check-digit tests (Belgium, France, Spain, ...): ours stops at the
// IBAN standard (length, structure, MOD 97-10), as docs/api-decisions.md says.
function ibantoolsVerdict(text: string): boolean {
	const iban = ibantools.electronicFormatIBAN(text) ?? '';
	if (iban === '') return false;
	const { errorCodes } = ibantools.validateIBAN(iban);
	return (
		errorCodes.filter(
			(code) => code !== ibantools.ValidationErrorsIBAN.WrongAccountBankBranchChecksum,
		).length === 0
	);
}

describe('IBANs against ibantools', () => {
	it('accept generated valid IBANs, also with spaces and in lower case', () => {
		// The generator covers every country ibantools knows a format for.
		expect(IBAN_COUNTRIES.length).toBeGreaterThan(100);
		fc.assert(
			fc.property(validIbanArb, (iban) => {
				expect(ibantoolsVerdict(iban)).toBe(true);
				expect(isValidIban(iban)).toBe(true);
				expect(isValidIban(ibantools.friendlyFormatIBAN(iban)!.toLowerCase())).toBe(true);
				// Where ibantools also checks national digits and accepts, we accept.
				if (ibantools.isValidIBAN(iban)) expect(isValidIban(iban)).toBe(true);
			}),
			RUNS,
		);
	});

	it('judge every single-character substitution as ibantools does', () => {
		const replacement = fc.constantFrom(
			...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -./'.split(''),
		);
		fc.assert(
			fc.property(validIbanArb, fc.nat(), replacement, (iban, position, char) => {
				const index = position % iban.length;
				const mutated = iban.slice(0, index) + char + iban.slice(index + 1);
				expect(isValidIban(mutated)).toBe(ibantoolsVerdict(mutated));
				// MOD 97-10 catches every substitution of a digit by another digit, or of a letter by
				// another letter (the change is d·10^k with 0 < |d| < 97): no luck needed there.
				const original = iban[index];
				const sameClass =
					(/[0-9]/.test(original) && /[0-9]/.test(char)) ||
					(/[A-Z]/.test(original) && /[A-Z]/.test(char));
				if (sameClass && char !== original) expect(isValidIban(mutated)).toBe(false);
			}),
			{ numRuns: 3000 },
		);
	});

	it('refuse check digits 00, 01 and 99, also where MOD 97-10 passes', () => {
		// DE02…014, DE98…032 and DE97…050 are valid; the same BBANs pass MOD 97-10 with 99, 01, 00.
		for (const iban of [
			'DE99370400440532013014',
			'DE01370400440532013032',
			'DE00370400440532013050',
		]) {
			expect(ibantoolsVerdict(iban)).toBe(false);
			expect(isValidIban(iban)).toBe(false);
		}
	});

	it('refuse every deletion, insertion and swap of adjacent different characters', () => {
		fc.assert(
			fc.property(validIbanArb, fc.nat(), alnum, (iban, position, char) => {
				const index = position % iban.length;
				const deleted = iban.slice(0, index) + iban.slice(index + 1);
				const inserted = iban.slice(0, index) + char + iban.slice(index);
				expect(isValidIban(deleted)).toBe(false);
				expect(isValidIban(inserted)).toBe(false);
				if (index + 1 < iban.length && iban[index] !== iban[index + 1]) {
					const swapped =
						iban.slice(0, index) + iban[index + 1] + iban[index] + iban.slice(index + 2);
					expect(isValidIban(swapped)).toBe(ibantoolsVerdict(swapped));
				}
			}),
			RUNS,
		);
	});
});

describe('SWIFT/BIC against ibantools.isValidBIC', () => {
	const countries = Object.keys(ibantools.countrySpecs);
	const bicLike = fc.oneof(
		fc
			.tuple(
				chars(fc.oneof(upper, fc.constantFrom('a', 'z', '1')), 4),
				fc.oneof(fc.constantFrom(...countries), chars(upper, 2), chars(alnum, 2)),
				chars(fc.oneof(alnum, fc.constantFrom('x', '_')), 2),
				fc.oneof(
					fc.constant(''),
					chars(alnum, 3),
					chars(alnum, 1),
					chars(alnum, 2),
					chars(alnum, 4),
				),
			)
			.map((parts) => parts.join('')),
		fc.stringMatching(/^[A-Za-z0-9]{6,12}$/),
		fc.string({ maxLength: 12 }).filter((s) => !/\s/.test(s)),
	);

	it('agree on BIC-like strings', () => {
		fc.assert(
			fc.property(bicLike, (bic) => {
				expect(isValidSwift(bic)).toBe(ibantools.isValidBIC(bic));
			}),
			{ numRuns: 3000 },
		);
	});
});

describe('dates and amounts, properties', () => {
	it('every real calendar date is kept, also as a date-time, and the next day after the month end is refused', () => {
		fc.assert(
			fc.property(
				fc.date({
					min: new Date('1000-01-01T00:00:00Z'),
					max: new Date('9999-12-31T23:59:59Z'),
					noInvalidDate: true,
				}),
				(date) => {
					const iso = date.toISOString();
					const day = iso.slice(0, 10);
					expect(normaliseDate(day)).toEqual({ ok: true, value: day });
					expect(normaliseDate(iso)).toEqual({ ok: true, value: day });
					expect(normaliseDate(date)).toEqual({ ok: true, value: day });
					const [year, month] = day.split('-').map(Number);
					const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
					const pastEnd = `${day.slice(0, 8)}${String(daysInMonth + 1)}`;
					expect(normaliseDate(pastEnd).ok).toBe(false);
				},
			),
			RUNS,
		);
	});

	it('every whole number of cents is accepted as a number and as text, unchanged', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 1e14 }), (cents) => {
				const amount = cents / 100;
				expect(validateAmount(amount, RECEIVABLE_AMOUNT)).toEqual({ ok: true, value: amount });
				expect(validateAmount((cents / 100).toFixed(2), PAYABLE_AMOUNT)).toEqual({
					ok: true,
					value: amount,
				});
			}),
			RUNS,
		);
	});

	it('a third decimal that is not 0 is refused', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 1e9 }),
				fc.integer({ min: 1, max: 9 }),
				(cents, mills) => {
					const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${mills}`;
					expect(validateAmount(text, PAYABLE_AMOUNT).ok).toBe(false);
					expect(validateAmount(Number(text), PAYABLE_AMOUNT).ok).toBe(false);
				},
			),
			RUNS,
		);
	});
});
