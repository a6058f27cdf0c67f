/** The payment method and its detail fields in the editor, from helpers/paymentDetailFields.ts. */
import type { INodeProperties } from 'n8n-workflow';
import { PAYMENT_METHODS, type PaymentMethod } from '../helpers/constants';
import {
	fieldsFor,
	labelsOf,
	listOf,
	METHOD_LABELS,
	METHOD_REQUIREMENTS,
	PAYMENT_DETAIL_FIELDS,
	PAYMENT_METHOD_LABEL,
	type PaymentDetailField,
} from '../helpers/paymentDetailFields';
import { byName, labelOf } from './order';

/** The payment method field (`ach`, `wire`, `crypto`). */
export function paymentMethodField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: PAYMENT_METHOD_LABEL,
		name: 'paymentMethod',
		type: 'options',
		options: byName(PAYMENT_METHODS.map((value) => ({ name: METHOD_LABELS[value], value }))),
		default: 'ach',
		description: `How the payee is paid. ${METHOD_REQUIREMENTS}.`,
		...overrides,
	};
}

/** Which methods use the field and how: "Required for ACH; Wire needs this, SWIFT Code or IBAN". */
function methodsNote(field: PaymentDetailField): string {
	const label = (method: PaymentMethod) => METHOD_LABELS[method];
	const notes: string[] = [];
	if (field.requiredFor?.length) {
		notes.push(`Required for ${listOf(field.requiredFor.map(label), 'and')}`);
	}
	for (const method of field.oneOfFor ?? []) {
		const others = fieldsFor(method).oneOf.filter((f) => f !== field);
		notes.push(`${METHOD_LABELS[method]} needs this, ${labelsOf(others, 'or')}`);
	}
	if (notes.length === 0) notes.push(`Used with ${listOf(field.methods.map(label), 'and')}`);
	return notes.join('; ');
}

/** Where the details read the method: a sibling (payable create) or top-level (vendor create). */
type MethodPath = 'paymentMethod' | '/paymentMethod';

function detailProperty(field: PaymentDetailField, methodPath: MethodPath): INodeProperties {
	const property: INodeProperties = {
		displayName: field.label,
		name: field.parameter,
		type: 'string',
		default: '',
		description: `${field.description}. ${methodsNote(field)}.`,
	};
	// Hidden for the methods the field does not apply to. `hide` rather than `show`, so that every
	// detail stays visible while no method is chosen (a payable may use its vendor's method) or the
	// method is an expression. A hidden field's value is not sent (helpers/paymentPolicy.ts).
	const others = PAYMENT_METHODS.filter((m) => !field.methods.includes(m));
	if (others.length > 0) property.displayOptions = { hide: { [methodPath]: others } };
	if (field.placeholder) property.placeholder = field.placeholder;
	if (field.secret) property.typeOptions = { password: true };
	if (field.choices) {
		property.type = 'options';
		property.options = byName(field.choices.map((value) => ({ name: labelOf(value), value })));
		property.default = field.choices[0];
	}
	return property;
}

/** Every bank and wallet detail, each shown only for its methods (written only, never returned). */
export function methodDetailsFields(methodPath: MethodPath): INodeProperties[] {
	return PAYMENT_DETAIL_FIELDS.map((field) => detailProperty(field, methodPath));
}
