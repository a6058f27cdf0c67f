import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { collection } from '../../descriptions/common';
import { methodDetailsFields, paymentMethodField } from '../../descriptions/methodDetails';
import { byDisplayName } from '../../descriptions/order';
import { PAYMENT_METHODS } from '../../helpers/constants';
import { prepareMethodDetails, separateMethodDetails } from '../../helpers/paymentPolicy';
import { isOneOf, isSet, validateEmail, validateRequiredText } from '../../helpers/validators';
import { ItemCheck, readCollection, type Checked } from '../input';
import type { LostAnswer } from '../../transport';
import { bodyOperation, type BodyRequest } from '../operations';

/** The vendor's email and name, fields here and update fields of Vendor → Update. */
export const emailField: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	default: '',
	placeholder: 'e.g. ar@acme.com',
};

export const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Acme Supplies LLC',
};

const fields: INodeProperties[] = [
	{ ...nameField, required: true, description: 'The vendor’s name' },
	paymentMethodField({
		required: true,
		hint: "Add the details the method needs under 'Additional Fields'",
	}),
	collection(
		'additionalFields',
		byDisplayName([emailField, ...methodDetailsFields('/paymentMethod')]),
	),
];

interface CreateVendorParameters {
	name: unknown;
	paymentMethod: unknown;
	additionalFields: IDataObject;
}

export function checkParameters(p: CreateVendorParameters): Checked<BodyRequest> {
	const check = new ItemCheck();
	const { details, others } = separateMethodDetails(p.additionalFields);
	const body: IDataObject = { name: check.take(validateRequiredText(p.name, 'Name')) };
	if (isSet(others.email)) body.email = check.take(validateEmail(others.email, 'Email'));
	if (isOneOf(PAYMENT_METHODS, p.paymentMethod)) body.payment_method = p.paymentMethod;
	const method = prepareMethodDetails(p.paymentMethod, details, { context: 'vendor' });
	check.add(method.problems);
	Object.assign(body, method.details);
	return check.result({ path: '/v1/vendors', body });
}

export const lostAnswer: LostAnswer = {
	may: 'the vendor may have been created',
	check:
		'search the vendors for its name (Vendor → Get Many with Search, or the vendor list tool), or look for its vendor.created event',
	again: 'a second request may create a second vendor',
};

export const { description, checkItem, execute, sendsOnce } = bodyOperation({
	resource: 'vendor',
	operation: 'create',
	method: 'POST',
	fields,
	read: (ctx, i): CreateVendorParameters => ({
		name: ctx.getNodeParameter('name', i, ''),
		paymentMethod: ctx.getNodeParameter('paymentMethod', i),
		additionalFields: readCollection(ctx, 'additionalFields', i),
	}),
	check: checkParameters,
	lost: () => lostAnswer,
});

export const toolDescription =
	'Creates a vendor (a payee). Needs a name and a payment method: ach (account number and 9-digit routing number), wire (account number and a routing number, SWIFT code or IBAN) or crypto (wallet address and chain). Returns the vendor with its id.';
