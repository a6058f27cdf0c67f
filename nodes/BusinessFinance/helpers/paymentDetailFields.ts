/**
 * The payment-method detail fields, described once: the editor (descriptions/methodDetails.ts),
 * the policy (./paymentPolicy.ts) and every message about them derive from this table.
 */
import {
	isValidAbaRouting,
	isValidAccountNumber,
	isValidIban,
	isValidSwift,
	normaliseIban,
	normaliseSwift,
} from './bankIdentifiers';
import { isOneOf, quoted } from './validators';
import { PAYMENT_METHODS, WALLET_CHAINS, type PaymentMethod } from './constants';
import { isValidWalletAddress, normaliseWalletAddress, walletAddressHint } from './wallets';

/** The methods as the editor and messages name them. */
export const METHOD_LABELS: Record<PaymentMethod, string> = {
	ach: 'ACH',
	wire: 'Wire',
	crypto: 'Crypto',
};

/** The payment method parameter, as messages name it. */
export const PAYMENT_METHOD_LABEL = 'Payment Method';

/** What a detail's check sees besides its own value. */
export interface DetailContext {
	/** The payment method when it is known and valid. */
	method?: PaymentMethod;
	/** Every detail of the body (API field names), after normalisation. */
	details: Record<string, unknown>;
}

export interface PaymentDetailField {
	/** The node parameter (camelCase), fixed by saved workflows. */
	parameter: string;
	apiField: string;
	/** The parameter's display name; messages name the field by it. */
	label: string;
	/** Editor text, without the methods (the editor adds them from the lists below). */
	description: string;
	placeholder?: string;
	/** The choices, when the field is a choice rather than text (the wallet chain). */
	choices?: readonly string[];
	/** Written only and never returned in full: hidden like a password in the editor. */
	secret?: boolean;
	/** The methods this detail belongs to; given with another method it is refused. */
	methods: readonly PaymentMethod[];
	/** The methods that require this detail. */
	requiredFor?: readonly PaymentMethod[];
	/** The methods that require at least one of the details marked so (wire: routing, SWIFT, IBAN). */
	oneOfFor?: readonly PaymentMethod[];
	/** Accepted only as text: a number has lost its leading zeros and digits past the 15th. */
	textOnly?: boolean;
	/** The form to send, from trimmed non-empty text. */
	normalise?: (text: string) => string;
	/** The field's own rule: what is wrong (after the label), or undefined when well-formed. */
	check?: (value: string, context: DetailContext) => string | undefined;
}

const BANK_METHODS: readonly PaymentMethod[] = ['ach', 'wire'];

export const PAYMENT_DETAIL_FIELDS: readonly PaymentDetailField[] = [
	{
		parameter: 'bankName',
		apiField: 'bank_name',
		label: 'Bank Name',
		description: 'Name of the payee’s bank',
		placeholder: 'e.g. First National Bank',
		methods: BANK_METHODS,
	},
	{
		parameter: 'accountName',
		apiField: 'account_name',
		label: 'Account Name',
		description: 'Name on the bank account',
		placeholder: 'e.g. Acme Supplies LLC',
		methods: BANK_METHODS,
	},
	{
		parameter: 'accountNumber',
		apiField: 'account_number',
		label: 'Account Number',
		description: 'Bank account number, as text; only its last four digits are returned',
		secret: true,
		methods: BANK_METHODS,
		requiredFor: BANK_METHODS,
		textOnly: true,
		check: (value, { method }) => {
			if (!method || method === 'crypto' || isValidAccountNumber(method, value)) return undefined;
			return method === 'ach'
				? 'must be 4 to 17 digits for ACH'
				: 'must be 4 to 34 letters or digits for Wire';
		},
	},
	{
		parameter: 'routingNumber',
		apiField: 'routing_number',
		label: 'Routing Number',
		description: '9-digit ABA routing number with a valid check digit, as text',
		placeholder: 'e.g. 011000015',
		methods: BANK_METHODS,
		requiredFor: ['ach'],
		oneOfFor: ['wire'],
		textOnly: true,
		check: (value) =>
			isValidAbaRouting(value)
				? undefined
				: 'must be a 9-digit ABA routing number with a valid check digit',
	},
	{
		parameter: 'swiftCode',
		apiField: 'swift_code',
		label: 'SWIFT Code',
		description: 'SWIFT/BIC code of 8 or 11 characters',
		placeholder: 'e.g. DEUTDEFF',
		methods: ['wire'],
		oneOfFor: ['wire'],
		normalise: normaliseSwift,
		check: (value) =>
			isValidSwift(value)
				? undefined
				: 'must be a SWIFT/BIC code of 8 or 11 characters: 4 letters (bank), 2 letters (country), 2 letters or digits (location) and optionally 3 more (branch)',
	},
	{
		parameter: 'iban',
		apiField: 'iban',
		label: 'IBAN',
		description: 'IBAN with a valid check, spaces allowed',
		placeholder: 'e.g. DE89370400440532013000',
		methods: ['wire'],
		oneOfFor: ['wire'],
		textOnly: true,
		// Keep what was typed when nothing would be left (`-`), so that it is refused, not dropped.
		normalise: (text) => normaliseIban(text) || text,
		check: (value) =>
			isValidIban(value)
				? undefined
				: 'is not valid: check the country code, the length for that country and the two check digits',
	},
	{
		parameter: 'bankAddress',
		apiField: 'bank_address',
		label: 'Bank Address',
		description: 'Address of the payee’s bank',
		placeholder: 'e.g. 1 Main St, New York, NY',
		methods: ['wire'],
	},
	{
		parameter: 'walletAddress',
		apiField: 'wallet_address',
		label: 'Wallet Address',
		description: 'Payee wallet address (EVM chains: 0x followed by 40 hex characters)',
		placeholder: 'e.g. 0x52908400098527886E0F7030069857D2E4169EE7',
		methods: ['crypto'],
		requiredFor: ['crypto'],
		normalise: normaliseWalletAddress,
		check: (value, { details }) => {
			const chain = details.wallet_chain;
			if (!isOneOf(WALLET_CHAINS, chain) || isValidWalletAddress(chain, value)) return undefined;
			return `is not a valid ${chain} address: expected ${walletAddressHint(chain)}`;
		},
	},
	{
		parameter: 'walletChain',
		apiField: 'wallet_chain',
		label: 'Wallet Chain',
		description: 'Blockchain of the wallet address',
		choices: WALLET_CHAINS,
		methods: ['crypto'],
		requiredFor: ['crypto'],
		check: (value) =>
			isOneOf(WALLET_CHAINS, value) ? undefined : `must be one of ${WALLET_CHAINS.join(', ')}`,
	},
];

export function detailFieldByApiName(apiField: string): PaymentDetailField | undefined {
	return PAYMENT_DETAIL_FIELDS.find((f) => f.apiField === apiField);
}

/** The details a method requires, and those of which it requires one (wire: routing, SWIFT, IBAN). */
export function fieldsFor(method: PaymentMethod) {
	return {
		required: PAYMENT_DETAIL_FIELDS.filter((f) => f.requiredFor?.includes(method)),
		oneOf: PAYMENT_DETAIL_FIELDS.filter((f) => f.oneOfFor?.includes(method)),
	};
}

/** "A, B or C" / "A and B". */
export function listOf(words: readonly string[], last: 'and' | 'or'): string {
	if (words.length <= 1) return words.join('');
	return `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

/** The fields' labels as messages name them, listed: "'IBAN' or 'SWIFT Code'". */
export function labelsOf(fields: readonly PaymentDetailField[], last: 'and' | 'or'): string {
	const labels = fields.map((f) => quoted(f.label));
	return listOf(labels, last);
}

/** What a method needs, in words: "ACH needs Account Number and Routing Number". */
function methodRequirement(method: PaymentMethod): string {
	const { required, oneOf } = fieldsFor(method);
	const parts = [labelsOf(required, 'and')];
	if (oneOf.length > 0) parts.push(`one of ${labelsOf(oneOf, 'or')}`);
	return `${METHOD_LABELS[method]} needs ${parts.filter(Boolean).join(' and ')}`;
}

/** Every method's needs, for the payment method field's description. */
export const METHOD_REQUIREMENTS = PAYMENT_METHODS.map(methodRequirement).join('; ');
