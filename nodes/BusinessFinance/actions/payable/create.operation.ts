import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { vendorLocator } from '../../descriptions/common';
import { dueDateField, notesField } from '../../descriptions/dates';
import {
	METHOD_DETAIL_KEYS,
	methodDetailsFields,
	paymentMethodField,
} from '../../descriptions/methodDetails';
import {
	checkAmount,
	checkEmail,
	checkMethodDetails,
	checkUuid,
	inputError,
	requiredString,
	toApiDate,
} from '../input';
import { isSet, toApiBody, requestData, type OperationContext } from '../utils';

const show = { resource: ['payable'], operation: ['create'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Invoice Number',
		name: 'invoiceNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. BILL-7731',
		description: 'The vendor’s invoice number',
		displayOptions: { show },
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { numberPrecision: 2 },
		description: 'Amount owed, more than 0',
		displayOptions: { show },
	},
	vendorLocator(
		{
			required: false,
			description:
				'An existing vendor. Leave empty to give a Vendor Name under Additional Fields instead.',
			hint: 'Either a vendor or a Vendor Name (under Additional Fields) is needed',
			displayOptions: { show },
		},
		true,
	),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Vendor Name',
				name: 'vendorName',
				type: 'string',
				default: '',
				placeholder: 'e.g. Acme Supplies LLC',
				description: 'Who is paid, when no Vendor is selected (or to override the vendor’s name)',
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
			...methodDetailsFields,
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const invoiceNumber = requiredString(this, 'invoiceNumber', 'Invoice Number', i);
	const amount = checkAmount(this, this.getNodeParameter('amount', i), 'Amount', i, 'payable');
	const vendorIdRaw = this.getNodeParameter('vendorId', i, '', { extractValue: true }) as unknown;
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;

	const body = toApiBody({ invoiceNumber, amount });
	if (isSet(vendorIdRaw)) {
		body.vendor_id = checkUuid(this, vendorIdRaw, 'Vendor', i);
	} else if (!isSet(fields.vendorName)) {
		throw inputError(
			this,
			'A payable needs a Vendor or a Vendor Name',
			'Select a vendor, or add Vendor Name under Additional Fields',
			i,
		);
	}

	const details: IDataObject = {};
	const other: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) {
		if ((METHOD_DETAIL_KEYS as readonly string[]).includes(key)) details[key] = value;
		else if (key !== 'paymentMethod') other[key] = value;
	}
	Object.assign(body, toApiBody(other));
	if (typeof body.vendor_name === 'string') body.vendor_name = body.vendor_name.trim();
	if (body.vendor_email !== undefined)
		body.vendor_email = checkEmail(this, body.vendor_email, 'Vendor Email', i);
	if (body.due_date !== undefined) body.due_date = toApiDate(this, body.due_date, 'Due Date', i);

	const method = isSet(fields.paymentMethod) ? fields.paymentMethod : undefined;
	Object.assign(
		body,
		checkMethodDetails(
			this,
			method,
			toApiBody(details),
			i,
			'payable',
			body.vendor_id !== undefined,
		),
	);
	if (method !== undefined) body.payment_method = method;

	return requestData.call(this, 'POST', '/v1/payables', body, i, waitBudgetMs);
}
