// What the node lets through, the strict sandbox (sandbox/validation.ts) must accept: a request is
// never sent that cannot succeed for its bank or wallet details.
import fc from 'fast-check';

import { WALLET_CHAINS, type PaymentMethod } from '../../nodes/BusinessFinance/helpers/constants';
import { PAYMENT_DETAIL_FIELDS } from '../../nodes/BusinessFinance/helpers/paymentDetailFields';
import { prepareMethodDetails } from '../../nodes/BusinessFinance/helpers/paymentPolicy';
import { isValidWalletAddress } from '../../nodes/BusinessFinance/helpers/wallets';
import { checkPaymentDetails, isWalletAddress, type Details } from '../../sandbox/validation';

const DETAIL_FIELDS = PAYMENT_DETAIL_FIELDS.map((f) => f.apiField);
const fieldsOf = (method: PaymentMethod) =>
	PAYMENT_DETAIL_FIELDS.filter((f) => f.methods.includes(method)).map((f) => f.apiField);
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const from = (alphabet: string, min: number, max: number) =>
	fc
		.array(fc.constantFrom(...alphabet.split('')), { minLength: min, maxLength: max })
		.map((c) => c.join(''));

const addressArb = fc.oneof(
	from('0123456789abcdefABCDEF', 38, 42).map((hex) => `0x${hex}`),
	from(BASE58, 30, 46),
	from(BASE58, 32, 35).map((s) => `T${s}`),
	from(BASE58, 24, 36).map((s) => `1${s}`),
	from(BASE58, 24, 36).map((s) => `3${s}`),
	from(BECH32, 9, 73).map((s) => `bc1${s}`),
	from(BECH32 + 'bio', 9, 40).map((s) => `bc1${s}`),
	fc.string({ maxLength: 50 }),
);

const sandboxAccepts = (method: 'ach' | 'wire' | 'crypto', details: Details, complete: boolean) => {
	try {
		checkPaymentDetails(method, details, complete);
		return true;
	} catch {
		return false;
	}
};

describe('node validation against the sandbox', () => {
	it('wallet addresses: the same verdict on what the node sends', () => {
		fc.assert(
			fc.property(fc.constantFrom(...WALLET_CHAINS), addressArb, (chain, address) => {
				const sent = prepareMethodDetails(undefined, { wallet_address: address }).details
					.wallet_address as string | undefined;
				fc.pre(sent !== undefined);
				expect(isValidWalletAddress(chain, sent)).toBe(isWalletAddress(chain, sent!));
				if (isValidWalletAddress(chain, address)) expect(isWalletAddress(chain, sent!)).toBe(true);
			}),
			{ numRuns: 2000 },
		);
	});

	const values: Record<string, fc.Arbitrary<string>> = {
		bank_name: fc.constantFrom('Acme Bank', ' '),
		account_name: fc.constantFrom('Acme Ltd'),
		account_number: fc.constantFrom(
			'000123456789',
			'123',
			'1234',
			'12345678901234567',
			'GB29NWBK60161331926819',
			'AB-12',
			'12 34 56',
		),
		routing_number: fc.constantFrom('021000021', '021000022', '02100002', ' 021000021'),
		swift_code: fc.constantFrom('DEUTDEFF', 'deut de ff', 'DEUTDEFF500', 'DEUTXXFF', 'DEUTDEF'),
		iban: fc.constantFrom(
			'DE89370400440532013000',
			'de89 3704 0044 0532 0130 00',
			'GB82WEST12345698765432',
			'nl91 abna 0417 1643 00',
			'DE89370400440532013001',
			'XX00',
		),
		bank_address: fc.constantFrom('1 Main St, Springfield'),
		wallet_address: fc.constantFrom(
			'0x52908400098527886E0F7030069857D2E4169EE7',
			'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
			'7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
			'BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ',
			'1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
			'0x123',
		),
		wallet_chain: fc.constantFrom(...WALLET_CHAINS),
	};
	const methodArb = fc.constantFrom('ach' as const, 'wire' as const, 'crypto' as const);
	/** Mostly the method's own fields, sometimes one that does not apply to it. */
	const bodyArb = methodArb.chain((method) =>
		fc
			.tuple(
				fc.constant(method),
				fc.record(
					Object.fromEntries(fieldsOf(method).map((f) => [f, values[f]])) as Record<
						string,
						fc.Arbitrary<string>
					>,
					{ requiredKeys: [] },
				),
				fc.option(fc.constantFrom(...DETAIL_FIELDS), { freq: 4 }),
				fc.string({ maxLength: 5 }),
			)
			.map(([m, details, extra, extraValue]) => {
				const body: Record<string, string | undefined> = { ...details };
				if (extra !== null) body[extra] = extraValue || 'x';
				return [m, body] as const;
			}),
	);

	// A vendor must be complete; a payable may give some details, or none (the vendor's apply).
	it.each([
		['vendor', undefined, true],
		['payable', { context: 'payable' as const, hasVendorId: false }, false],
	])('%s details the node lets through are accepted by the sandbox', (_name, options, complete) => {
		let accepted = 0;
		fc.assert(
			fc.property(bodyArb, ([method, raw]) => {
				// What vendor and payable create would send: details of other methods left out.
				const { details: sent, problems } = prepareMethodDetails(
					method,
					raw as Record<string, unknown>,
					options,
				);
				if (problems.length > 0) return;
				accepted++;
				if (complete || DETAIL_FIELDS.some((f) => sent[f] !== undefined))
					expect(sandboxAccepts(method, sent as Details, complete)).toBe(true);
			}),
			{ numRuns: 4000 },
		);
		// The property is only worth something if many bodies got through.
		expect(accepted).toBeGreaterThan(50);
	});
});
