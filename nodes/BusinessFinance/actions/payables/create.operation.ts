import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { amountField, collection, vendorLocator } from '../../descriptions/common';
import { dueDateField, notesField } from '../../descriptions/dates';
import { methodDetailsFields, paymentMethodField } from '../../descriptions/methodDetails';
import { byDisplayName } from '../../descriptions/order';
import { normaliseDate } from '../../helpers/dates';
import { prepareMethodDetails, separateMethodDetails } from '../../helpers/paymentPolicy';
import {
	isSet,
	PAYABLE_AMOUNT,
	validateAmount,
	validateEmail,
	validateRequiredText,
	validateUuid,
} from '../../helpers/validators';
import { validatePayee } from '../../helpers/requestRules';
import { ItemCheck, readCollection, readLocator, type Checked } from '../input';
import type { LostAnswer } from '../../transport';
import { bodyOperation, type BodyRequest } from '../operations';
import { toApiBody } from '../utils';

const fields: INodeProperties[] = [
	{
		displayName: 'Invoice Number',
		name: 'invoiceNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. BILL-7731',
		description: 'The vendor’s invoice number',
	},
	amountField(
		'Amount owed, more than 0',
		'More than 0. The create takes no currency: the service books it in its own (the answer’s currency says which)',
	),
	vendorLocator(
		{
			required: false,
			description:
				"An existing vendor. Leave empty to give a 'Vendor Name' under 'Additional Fields' instead.",
			hint: "Either a vendor or a 'Vendor Name' (under 'Additional Fields') is needed",
		},
		true,
	),
	collection(
		'additionalFields',
		byDisplayName([
			{
				displayName: 'Vendor Name',
				name: 'vendorName',
				type: 'string',
				default: '',
				placeholder: 'e.g. Acme Supplies LLC',
				description: "Who is paid, when no 'Vendor' is selected (or to override the vendor’s name)",
			},
			{
				displayName: 'Vendor Email',
				name: 'vendorEmail',
				type: 'string',
				default: '',
				placeholder: 'e.g. ar@acme.com',
			},
			dueDateField,
			notesField,
			paymentMethodField({
				description:
					'How to pay this bill; defaults to the vendor’s method. When you give details for the method they must be complete.',
			}),
			...methodDetailsFields('paymentMethod'),
		]),
	),
];

interface CreatePayableParameters {
	invoiceNumber: unknown;
	amount: unknown;
	/** The vendor locator's id; empty when a Vendor Name is given instead. */
	vendorId: unknown;
	additionalFields: IDataObject;
}

export function checkParameters(p: CreatePayableParameters): Checked<BodyRequest> {
	const check = new ItemCheck();
	const { details, others } = separateMethodDetails(p.additionalFields);
	const fields = toApiBody(others as IDataObject);
	const body: IDataObject = {
		invoice_number: check.take(validateRequiredText(p.invoiceNumber, 'Invoice Number')),
		amount: check.take(validateAmount(p.amount, PAYABLE_AMOUNT)),
		...fields,
	};
	if (isSet(p.vendorId)) body.vendor_id = check.take(validateUuid(p.vendorId, 'Vendor'));
	check.add(validatePayee(p.vendorId, fields.vendor_name));
	if (typeof fields.vendor_name === 'string') body.vendor_name = fields.vendor_name.trim();
	check.field(body, 'vendor_email', validateEmail, 'Vendor Email');
	check.field(body, 'due_date', normaliseDate, 'Due Date');
	const method = prepareMethodDetails(fields.payment_method, details, {
		context: 'payable',
		hasVendorId: isSet(p.vendorId),
	});
	check.add(method.problems);
	Object.assign(body, method.details);
	return check.result({ path: '/v1/payables', body });
}

export const lostAnswer: LostAnswer = {
	may: 'the payable may have been created',
	check:
		'look for its invoice number in the dashboard, or for its payable.created event (Business Finance Trigger)',
	again: 'a second request may create a second payable, which could be paid twice',
};

export const { description, checkItem, execute, sendsOnce } = bodyOperation({
	resource: 'payable',
	operation: 'create',
	method: 'POST',
	fields,
	read: (ctx, i): CreatePayableParameters => ({
		invoiceNumber: ctx.getNodeParameter('invoiceNumber', i, ''),
		amount: ctx.getNodeParameter('amount', i),
		vendorId: readLocator(ctx, 'vendorId', i),
		additionalFields: readCollection(ctx, 'additionalFields', i),
	}),
	check: checkParameters,
	lost: () => lostAnswer,
});

export const toolDescription =
	'Creates a payable, a vendor bill, awaiting review (nothing is paid until it is approved). Needs the vendor invoice number, an amount above 0, and a vendor id (a UUID, from the vendor tools) or a vendor name with payment details. Returns the payable with its id.';
