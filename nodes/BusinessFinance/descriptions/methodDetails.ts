/**
 * The payment method and its detail fields in the editor, built from the table in
 * helpers/paymentDetailFields.ts (names, labels, texts, the methods each applies to).
 */
import type { INodeProperties } from 'n8n-workflow';
import { PAYMENT_METHODS, type PaymentMethod, type WalletChain } from '../helpers/constants';
import {
	listOf,
	METHOD_LABELS,
	METHOD_REQUIREMENTS,
	PAYMENT_DETAIL_FIELDS,
	PAYMENT_METHOD_LABEL,
	type PaymentDetailField,
} from '../helpers/paymentDetailFields';

const CHAIN_LABELS: Record<WalletChain, string> = {
	ethereum: 'Ethereum',
	base: 'Base',
	polygon: 'Polygon',
	arbitrum: 'Arbitrum',
	optimism: 'Optimism',
	solana: 'Solana',
	tron: 'Tron',
	bitcoin: 'Bitcoin',
};

/** The payment method field (`ach`, `wire`, `crypto`). */
export function paymentMethodField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: PAYMENT_METHOD_LABEL,
		name: 'paymentMethod',
		type: 'options',
		options: PAYMENT_METHODS.map((value) => ({ name: METHOD_LABELS[value], value })),
		default: 'ach',
		description: `How the payee is paid. ${METHOD_REQUIREMENTS}.`,
		...overrides,
	};
}

/** Which methods use the field and how: "Required for ACH; Wire needs this, SWIFT Code or IBAN". */
function methodsNote(field: PaymentDetailField): string {
	const labels = (methods: readonly PaymentMethod[]) =>
		listOf(
			methods.map((m) => METHOD_LABELS[m]),
			'and',
		);
	const notes: string[] = [];
	if (field.requiredFor?.length) notes.push(`Required for ${labels(field.requiredFor)}`);
	for (const method of field.oneOfFor ?? []) {
		const others = PAYMENT_DETAIL_FIELDS.filter(
			(f) => f !== field && f.oneOfFor?.includes(method),
		).map((f) => f.label);
		notes.push(`${METHOD_LABELS[method]} needs this, ${listOf(others, 'or')}`);
	}
	if (notes.length === 0) notes.push(`Used with ${labels(field.methods)}`);
	return notes.join('; ');
}

function detailProperty(field: PaymentDetailField): INodeProperties {
	const property: INodeProperties = {
		displayName: field.label,
		name: field.parameter,
		type: 'string',
		default: '',
		description: `${field.description}. ${methodsNote(field)}.`,
	};
	if (field.placeholder) property.placeholder = field.placeholder;
	if (field.secret) property.typeOptions = { password: true };
	if (field.choices) {
		property.type = 'options';
		property.options = field.choices.map((value) => ({
			name: CHAIN_LABELS[value as WalletChain] ?? value,
			value,
		}));
		property.default = field.choices[0];
	}
	return property;
}

/**
 * Bank and wallet details: every method detail a vendor or payable may carry. Written only: the
 * service never returns full numbers, SWIFT, IBAN or bank address.
 */
export const methodDetailsFields: INodeProperties[] = PAYMENT_DETAIL_FIELDS.map(detailProperty);
