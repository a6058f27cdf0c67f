import { validate as abaValidate } from 'abavalidator';
import fc from 'fast-check';
import * as ibantools from 'ibantools';
import { DateTime } from 'luxon';

import {
	isValidAbaRouting,
	isValidIban,
	isValidSwift,
} from '../../nodes/BusinessFinance/helpers/bankIdentifiers';
import { normaliseDate } from '../../nodes/BusinessFinance/helpers/dates';
import { prepareMethodDetails } from '../../nodes/BusinessFinance/helpers/paymentPolicy';
import {
	PAYABLE_AMOUNT,
	RECEIVABLE_AMOUNT,
	validateAmount,
	validateEmail,
	validateUuid,
} from '../../nodes/BusinessFinance/helpers/validators';
import { isValidWalletAddress } from '../../nodes/BusinessFinance/helpers/wallets';

describe('uuids', () => {
	// Canonical 8-4-4-4-12 hex, any version and case; nothing around it.
	it.each<[unknown, boolean]>([
		['3f2b9c1e-8a4d-4c2e-9f1a-2b3c4d5e6f70', true],
		['3F2B9C1E-8A4D-1C2E-9F1A-2B3C4D5E6F70', true],
		['00000000-0000-0000-0000-000000000000', true],
		['3f2b9c1e8a4d4c2e9f1a2b3c4d5e6f70', false],
		['3f2b9c1e-8a4d-4c2e-9f1a-2b3c4d5e6f7', false],
		['3f2b9c1e-8a4d-4c2e-9f1a-2b3c4d5e6f70a', false],
		['{3f2b9c1e-8a4d-4c2e-9f1a-2b3c4d5e6f70}', false],
		['3f2b9c1e-8a4d-4c2e-9f1a-2b3c4d5e6g70', false],
		[42, false],
	])('validateUuid(%p) accepts: %p', (value, ok) => {
		expect(validateUuid(value, 'Receivable ID').ok).toBe(ok);
	});

	it('validateUuid trims, lower-cases and says what to fix', () => {
		expect(validateUuid(' 3F2B9C1E-8A4D-4C2E-9F1A-2B3C4D5E6F70 ', 'Receivable ID')).toEqual({
			ok: true,
			value: '3f2b9c1e-8a4d-4c2e-9f1a-2b3c4d5e6f70',
		});
		// A failure is a problem: the field as the editor names it, what is wrong, how to fix it.
		expect(validateUuid('', 'Receivable ID')).toEqual({
			ok: false,
			field: 'Receivable ID',
			message: "'Receivable ID' is required",
			fix: "Check the value of 'Receivable ID'",
		});
		expect(validateUuid('inv-42', 'Receivable ID')).toMatchObject({
			ok: false,
			message: expect.stringMatching(/^'Receivable ID' must be a UUID .*got "inv-42"$/),
		});
	});
});

describe('emails', () => {
	it.each<[unknown, boolean]>([
		['a@example.com', true],
		['first.last+tag@sub.example.co.uk', true],
		["o'neil@example.org", true],
		['X_Y@EXAMPLE.COM', true],
		['', false],
		['plain', false],
		['a@b', false],
		['@example.com', false],
		['a@', false],
		['a b@example.com', false],
		['a@example .com', false],
		['a..b@example.com', false],
		['.a@example.com', false],
		['a@-example.com', false],
		['a@example..com', false],
		[`${'a'.repeat(250)}@example.com`, false],
		[undefined, false],
	])('validateEmail(%p) accepts: %p', (value, ok) => {
		expect(validateEmail(value, 'Customer Email').ok).toBe(ok);
	});

	it('validateEmail trims and names the field', () => {
		expect(validateEmail(' ap@example.com ', 'Customer Email')).toEqual({
			ok: true,
			value: 'ap@example.com',
		});
		expect(validateEmail('ap@example', 'Customer Email')).toMatchObject({
			ok: false,
			message: `'Customer Email' must be an email address such as name@example.com, got "ap@example"`,
		});
	});
});

describe('dates', () => {
	it('cuts date-times with offsets or other separators to the date as written', () => {
		const cases: Array<[string, string]> = [
			[' 2026-03-01 ', '2026-03-01'],
			['2026-03-01T23:30:00.123-05:00', '2026-03-01'],
			['2026-03-01T00:00', '2026-03-01'],
			['2026-03-01T00:00:00+0100', '2026-03-01'],
			['2026-03-01T00:00:00+01', '2026-03-01'],
			['2026-03-01 08:15:00', '2026-03-01'],
			['2000-02-29', '2000-02-29'], // a century leap year, rare in the date property
		];
		for (const [input, expected] of cases) {
			expect(normaliseDate(input)).toEqual({ ok: true, value: expected });
		}
	});

	it('refuses dates that are not in the calendar', () => {
		for (const bad of [
			'2026-02-30',
			'1900-02-29',
			'2026-13-01',
			'2026-00-10',
			'2026-01-00',
			'0000-01-01',
		]) {
			expect(normaliseDate(bad, 'Due Date')).toMatchObject({
				ok: false,
				message: expect.stringMatching(
					/^'Due Date' ".*" is not a date in the calendar; use YYYY-MM-DD$/,
				),
			});
		}
		expect(normaliseDate('2026-02-30T10:00:00Z').ok).toBe(false);
	});

	it('refuses other formats, with the value and the expected format', () => {
		for (const bad of [
			'',
			'03/01/2026',
			'2026-3-1',
			'20260301',
			'2026-03-01T',
			'2026-03-01T24:00',
			'2026-03-01T10:60',
			'2026-03-01T10:00:00+25:00',
			'2026-03-01Tnoon',
			'next tuesday',
		]) {
			expect(normaliseDate(bad, 'Due Date')).toMatchObject({
				ok: false,
				message: expect.stringMatching(/^'Due Date' must be a date as YYYY-MM-DD/),
			});
		}
		expect(normaliseDate(20260301, 'Due Date')).toMatchObject({
			ok: false,
			message: expect.stringContaining('got 20260301'),
		});
		expect(normaliseDate(undefined).ok).toBe(false);
		expect(normaliseDate(null).ok).toBe(false);
	});

	it('takes Luxon DateTimes in their own zone, and refuses invalid dates', () => {
		expect(normaliseDate(new Date('invalid')).ok).toBe(false);
		const berlin = DateTime.fromISO('2026-03-01T00:30:00', { zone: 'Europe/Berlin' });
		expect(normaliseDate(berlin)).toEqual({ ok: true, value: '2026-03-01' });
		expect(normaliseDate(DateTime.invalid('test')).ok).toBe(false);
	});
});

describe('amounts', () => {
	const receivable = RECEIVABLE_AMOUNT;
	const payable = PAYABLE_AMOUNT;

	it('accepts numbers and numeric strings, rounded to cents', () => {
		expect(validateAmount(' 7 ', receivable)).toEqual({ ok: true, value: 7 });
		expect(validateAmount('.5', receivable)).toEqual({ ok: true, value: 0.5 });
		expect(validateAmount(0.1 + 0.2, receivable)).toEqual({ ok: true, value: 0.3 });
		expect(validateAmount(1.1 * 3, receivable)).toEqual({ ok: true, value: 3.3 }); // 3.3000000000000003
	});

	it('applies the receivable bound (at least 0.01) and the payable bound (more than 0)', () => {
		expect(validateAmount(0.01, receivable).ok).toBe(true);
		expect(validateAmount(0, receivable)).toEqual({
			ok: false,
			field: 'Amount',
			message: "'Amount' must be at least 0.01, got 0",
		});
		expect(validateAmount(-5, receivable).ok).toBe(false);
		expect(validateAmount(0.01, payable).ok).toBe(true);
		expect(validateAmount(0, payable)).toMatchObject({
			ok: false,
			message: "'Amount' must be greater than 0, got 0",
		});
		expect(validateAmount('-0.01', payable).ok).toBe(false);
	});

	// What is accepted: the properties below; here, what the refusals say.
	it('says when an amount is above one trillion or has more than two decimals', () => {
		expect(validateAmount(1_000_000_000_000.01, receivable)).toMatchObject({
			ok: false,
			message: "'Amount' is too large (at most 1000000000000)",
		});
		expect(validateAmount(10.005, receivable)).toMatchObject({
			ok: false,
			message: "'Amount' can have at most 2 decimal places, got 10.005",
		});
	});

	it('refuses what is not a finite number', () => {
		for (const bad of [
			' ',
			'abc',
			'1,000.00',
			'1e3',
			'12.5 USD',
			'$12',
			'NaN',
			'Infinity',
			true,
			{},
			[],
		]) {
			expect(validateAmount(bad, receivable, 'Amount')).toMatchObject({
				ok: false,
				message: expect.stringMatching(/^'Amount' must be a number such as 125\.50, got /),
			});
		}
		// the field starts empty: null until the user fills it
		for (const empty of [null, undefined, '']) {
			expect(validateAmount(empty, receivable, 'Amount')).toMatchObject({
				ok: false,
				message: "'Amount' is required: enter an amount such as 125.50",
			});
		}
		expect(validateAmount(Number.NaN, receivable)).toMatchObject({
			ok: false,
			message: "'Amount' must be a finite number, got NaN",
		});
		expect(validateAmount(Infinity, receivable).ok).toBe(false);
		expect(validateAmount(1e300, receivable)).toMatchObject({
			ok: false,
			message: expect.stringMatching(/too large/),
		});
	});
});

describe('wallet addresses', () => {
	const evm = '0x52908400098527886E0F7030069857D2E4169EE7';
	// Here what the sandbox oracle's generator (validation.sandbox.test.ts) does not reach.
	it.each([
		['ethereum', evm, true],
		['base', evm.toLowerCase(), true],
		['polygon', evm.replace('0x', ''), false],
		['arbitrum', evm.replace('E', 'G'), false],
		['solana', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', true],
		['solana', 'So11111111111111111111111111111111111111112', true],
		['tron', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', true],
		['tron', 'ALa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', false],
		['tron', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU0', false],
		['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', true],
		['bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', true],
		['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', true],
		['bitcoin', 'BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ', true],
		['bitcoin', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297', true],
		['bitcoin', '2A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', false],
		['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0', false],
		['bitcoin', 'Bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', false], // mixed case
		['bitcoin', 'tb1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', false], // testnet
		['dogecoin', evm, false], // unknown chains
		['Ethereum', evm, false],
	])('%s %s: valid %s', (chain, address, valid) => {
		expect(isValidWalletAddress(chain, address)).toBe(valid);
	});
});

type MethodDetails = Parameters<typeof prepareMethodDetails>[1];
const validateMethodDetails = (
	method: unknown,
	details: MethodDetails,
	options?: Parameters<typeof prepareMethodDetails>[2],
) => prepareMethodDetails(method, details, options).problems;
describe('payment method details', () => {
	const ach = { account_number: '000123456789', routing_number: '021000021' };
	const iban = 'DE89370400440532013000';
	const evm = '0x52908400098527886E0F7030069857D2E4169EE7';
	const CHAINS = 'ethereum, base, polygon, arbitrum, optimism, solana, tron, bitcoin';

	it.each([
		['ach', ach],
		['ach', { ...ach, account_number: '1234' }],
		['ach', { ...ach, account_number: '12345678901234567' }],
		['wire', ach],
		['wire', { account_number: '000123456789', swift_code: 'DEUTDEFF' }],
		['wire', { account_number: 'GB29NWBK6016', iban }],
		[
			'wire',
			{ account_number: 'AB12', iban, bank_name: 'A', account_name: 'A Ltd', bank_address: '1 St' },
		],
		['crypto', { wallet_chain: 'base', wallet_address: evm }],
	])('accepts complete, valid %s details %j', (method, details) => {
		expect(validateMethodDetails(method, details)).toEqual([]);
	});

	const required = (label: string, method: string) => `'${label}' is required for ${method}`;
	const achAccount = "'Account Number' must be 4 to 17 digits for ACH";
	// [method, details, the message of each problem, in order: each names its field]
	it.each([
		['ach', {}, [required('Account Number', 'ACH'), required('Routing Number', 'ACH')]],
		['ach', { ...ach, account_number: '  ' }, [required('Account Number', 'ACH')]],
		['wire', { iban }, [required('Account Number', 'Wire')]],
		['wire', { account_number: '1234' }, ["Wire needs 'Routing Number', 'SWIFT Code' or 'IBAN'"]],
		[
			'crypto',
			{},
			[
				required('Wallet Address', 'Crypto'),
				`${required('Wallet Chain', 'Crypto')}: one of ${CHAINS}`,
			],
		],
		['crypto', { wallet_chain: 'tron' }, [required('Wallet Address', 'Crypto')]],
		[undefined, ach, ["'Payment Method' is required: one of ach, wire, crypto"]],
		['paypal', ach, ["'Payment Method' must be one of ach, wire, crypto"]],
		[
			'ach',
			{ ...ach, routing_number: '021000022' },
			["'Routing Number' must be a 9-digit ABA routing number with a valid check digit"],
		],
		[
			'wire',
			{ ...ach, swift_code: 'DEUTDEF', iban: `${iban}1` },
			[/^'SWIFT Code' must be a SWIFT\/BIC code/, /^'IBAN' is not valid/],
		],
		['wire', { account_number: 'AB12', iban: 'DE00' }, [/^'IBAN' is not valid/]],
		['ach', { ...ach, account_name: true }, ["'Account Name' must be text"]],
		['wire', { account_number: '1234', iban: 42 }, [/^'IBAN' must be text, not a number/]],
		[
			'crypto',
			{ wallet_chain: 'dogecoin', wallet_address: 'D' },
			[`'Wallet Chain' must be one of ${CHAINS}`],
		],
		[
			'crypto',
			{ wallet_chain: 'ethereum', wallet_address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' },
			[
				"'Wallet Address' is not a valid ethereum address: expected 0x followed by 40 hex characters",
			],
		],
		...['123', '123456789012345678', '12345A', '1234 5678'].map((account_number) => [
			'ach',
			{ ...ach, account_number },
			[achAccount],
		]),
		[
			'wire',
			{ ...ach, account_number: 'A'.repeat(35) },
			["'Account Number' must be 4 to 34 letters or digits for Wire"],
		],
	] as Array<[string | undefined, MethodDetails, Array<string | RegExp>]>)(
		'%s %j is refused with what is wrong, naming the field',
		(method, details, messages) => {
			const problems = validateMethodDetails(method, details);
			expect(problems.map((p) => p.message)).toEqual(
				messages.map((m) => (typeof m === 'string' ? m : expect.stringMatching(m))),
			);
			for (const p of problems) expect(p.message).toContain(`'${p.field}'`);
		},
	);

	it('leaves out, unchecked, the details of another method (the editor hides them)', () => {
		const prepared = prepareMethodDetails('ach', { ...ach, iban: 'DE00', wallet_chain: 'x' });
		expect(prepared).toEqual({ details: ach, problems: [] });
	});

	it.each([
		['account_number', 'Account Number', 123456789],
		['account_number', 'Account Number', Number('12345678901234567')],
		['routing_number', 'Routing Number', 21000021],
	] as const)(
		'refuses %s given as the number %d: its digits may already have changed',
		(field, label, value) => {
			// 000123456789 read from a spreadsheet as a number is 123456789; 17 digits are rounded.
			expect(validateMethodDetails('ach', { ...ach, [field]: value })).toEqual([
				{
					field: label,
					message: expect.stringMatching(new RegExp(`^'${label}' must be text, not a number`)),
					fix: expect.stringContaining('as text'),
				},
			]);
		},
	);

	it('never repeats bank details in a message', () => {
		const problems = validateMethodDetails('wire', {
			account_number: '000123456789',
			routing_number: '987654321',
			swift_code: 'SECRETBANK',
			iban: 'DE12345678901234567890',
		});
		const text = JSON.stringify(problems);
		expect(problems.length).toBe(3);
		expect(text).not.toContain('987654321');
		expect(text).not.toContain('SECRETBANK');
		expect(text).not.toContain('DE12345678901234567890');
	});

	describe('payables', () => {
		const payable = (hasVendorId?: boolean) => ({ context: 'payable' as const, hasVendorId });
		it.each([
			['no method and no details', undefined, {}],
			['an empty method', '', {}],
			['a method alone (the vendor details on file apply)', 'wire', {}],
			['complete details', 'ach', ach],
			['a detail that does not complete a method', 'ach', { bank_name: 'Acme Bank' }],
			['details without a method, when a vendor is named (its method applies)', undefined, ach],
		])('accept %s', (_what, method, details) => {
			expect(validateMethodDetails(method, details, payable(true))).toEqual([]);
		});

		// Incomplete details of the method, a malformed detail without a method, an unknown method.
		it.each([
			['ach', { account_number: '000123456789' }, ['Routing Number']],
			['crypto', { wallet_chain: 'tron' }, ['Wallet Address']],
			[undefined, { routing_number: '123' }, ['Routing Number']],
			['cheque', {}, ['Payment Method']],
		] as Array<[string | undefined, MethodDetails, string[]]>)(
			'refuse %s %j',
			(method, details, expected) => {
				expect(validateMethodDetails(method, details, payable()).map((p) => p.field)).toEqual(
					expected,
				);
			},
		);

		it('refuse details without a method when no vendor is named', () => {
			expect(validateMethodDetails(undefined, ach, payable(false))).toEqual([
				{
					field: 'Payment Method',
					message:
						"'Payment Method' is required when bank or wallet details are given: one of ach, wire, crypto",
				},
			]);
			expect(validateMethodDetails(undefined, {}, payable(false))).toEqual([]);
		});
	});
});

// Here what the sandbox and reference-library properties do not reach.
it('sends names given as numbers as text, drops empty values, keeps an IBAN that normalises to nothing (to refuse it) and a mixed-case bc1 address as it came', () => {
	const wire = { account_number: '000123456789', account_name: 42, bank_name: ' ', iban: ' - ' };
	expect(prepareMethodDetails('wire', wire)).toEqual({
		details: { account_number: '000123456789', account_name: '42', iban: '-' },
		problems: [expect.objectContaining({ field: 'IBAN' })],
	});
	const mixed = 'Bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
	const { details } = prepareMethodDetails(undefined, { wallet_address: mixed }); // all apply
	expect(details).toEqual({ wallet_address: mixed });
});

// Properties: what is accepted, against the libraries the checks stand in for.
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
