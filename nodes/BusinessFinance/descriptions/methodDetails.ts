import type { INodeProperties } from 'n8n-workflow';
import { PAYMENT_METHODS, WALLET_CHAINS } from '../helpers/constants';

const METHOD_LABELS: Record<string, string> = { ach: 'ACH', wire: 'Wire', crypto: 'Crypto' };
const CHAIN_LABELS: Record<string, string> = {
	ethereum: 'Ethereum',
	base: 'Base',
	polygon: 'Polygon',
	arbitrum: 'Arbitrum',
	optimism: 'Optimism',
	solana: 'Solana',
	tron: 'Tron',
	bitcoin: 'Bitcoin',
};

export const paymentMethodOptions = PAYMENT_METHODS.map((value) => ({
	name: METHOD_LABELS[value] ?? value,
	value,
}));

/** The payment method field (`ach`, `wire`, `crypto`). */
export function paymentMethodField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Payment Method',
		name: 'paymentMethod',
		type: 'options',
		options: paymentMethodOptions,
		default: 'ach',
		description:
			'How the payee is paid. ACH needs an account and routing number; wire an account number plus a routing number, SWIFT code or IBAN; crypto a wallet address and chain.',
		...overrides,
	};
}

/** Bank details, written only: the service never returns full numbers, SWIFT, IBAN or address. */
export const bankDetailsFields: INodeProperties[] = [
	{
		displayName: 'Bank Name',
		name: 'bankName',
		type: 'string',
		default: '',
		placeholder: 'e.g. First National Bank',
		description: 'Name of the payee’s bank (ACH or wire)',
	},
	{
		displayName: 'Account Name',
		name: 'accountName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Acme Supplies LLC',
		description: 'Name on the bank account (ACH or wire)',
	},
	{
		displayName: 'Account Number',
		name: 'accountNumber',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			'Bank account number (required for ACH and wire). Only its last four digits are returned.',
	},
	{
		displayName: 'Routing Number',
		name: 'routingNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 011000015',
		description:
			'9-digit ABA routing number with a valid check digit (required for ACH; for wire, this or a SWIFT code or IBAN)',
	},
	{
		displayName: 'SWIFT Code',
		name: 'swiftCode',
		type: 'string',
		default: '',
		placeholder: 'e.g. DEUTDEFF',
		description: 'SWIFT/BIC code of 8 or 11 characters (wire)',
	},
	{
		displayName: 'IBAN',
		name: 'iban',
		type: 'string',
		default: '',
		placeholder: 'e.g. DE89370400440532013000',
		description: 'IBAN with a valid check (wire)',
	},
	{
		displayName: 'Bank Address',
		name: 'bankAddress',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1 Main St, New York, NY',
		description: 'Address of the payee’s bank (wire)',
	},
];

/** Wallet details for crypto payouts. */
export const walletDetailsFields: INodeProperties[] = [
	{
		displayName: 'Wallet Address',
		name: 'walletAddress',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0x52908400098527886E0F7030069857D2E4169EE7',
		description: 'Payee wallet address (crypto). EVM chains take 0x followed by 40 hex characters.',
	},
	{
		displayName: 'Wallet Chain',
		name: 'walletChain',
		type: 'options',
		options: WALLET_CHAINS.map((value) => ({ name: CHAIN_LABELS[value] ?? value, value })),
		default: 'ethereum',
		description: 'Blockchain of the wallet address (crypto)',
	},
];

/** Bank and wallet details: every method detail a vendor or payable may carry. */
export const methodDetailsFields: INodeProperties[] = [
	...bankDetailsFields,
	...walletDetailsFields,
];

/** camelCase parameter name → API field name, for the method details. */
export const METHOD_DETAIL_KEYS = [
	'bankName',
	'accountName',
	'accountNumber',
	'routingNumber',
	'swiftCode',
	'iban',
	'bankAddress',
	'walletAddress',
	'walletChain',
] as const;
