import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dueDateField, notesField } from '../../descriptions/dates';
import {
	checkAmount,
	checkEmail,
	checkUuid,
	inputError,
	requiredString,
	toApiDate,
} from '../input';
import { toApiBody, requestData, type OperationContext } from '../utils';

const show = { resource: ['receivable'], operation: ['create'] };

export const description: INodeProperties[] = [
	{
		displayName:
			'Send Immediately is on: the service emails the invoice to the customer as soon as the receivable is created',
		name: 'sendImmediatelyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, '/additionalFields.sendImmediately': [true] } },
	},
	{
		displayName: 'Invoice Number',
		name: 'invoiceNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. INV-2026-0042',
		description: 'Your reference for the invoice',
		displayOptions: { show },
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		description: 'Amount due in USD, at least 0.01',
		displayOptions: { show },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Customer Email',
				name: 'customerEmail',
				type: 'string',
				placeholder: 'e.g. billing@customer.com',
				default: '',
				description: 'Where the invoice is emailed when it is sent',
			},
			{
				displayName: 'Customer ID',
				name: 'customerId',
				type: 'string',
				placeholder: 'e.g. 7d1e4f0a-2b3c-4d5e-8f90-a1b2c3d4e5f6',
				default: '',
				description: 'The customer’s ID (a UUID) in the service',
			},
			{
				displayName: 'Customer Name',
				name: 'customerName',
				type: 'string',
				placeholder: 'e.g. Globex Corporation',
				default: '',
			},
			dueDateField,
			{ ...notesField, description: 'Free text shown on the invoice' },
			{
				displayName: 'Send Immediately',
				name: 'sendImmediately',
				type: 'boolean',
				default: false,
				description:
					'Whether to email the invoice to the customer right away. Needs a customer email. The customer is emailed from the service; this cannot be undone.',
				hint: 'When on, the customer is emailed as soon as the receivable is created',
			},
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const invoiceNumber = requiredString(this, 'invoiceNumber', 'Invoice Number', i);
	const amount = checkAmount(this, this.getNodeParameter('amount', i), 'Amount', i, 'receivable');
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;

	const body = toApiBody({ invoiceNumber, amount, ...fields });
	if (body.customer_id !== undefined)
		body.customer_id = checkUuid(this, body.customer_id, 'Customer ID', i);
	if (body.customer_email !== undefined) {
		body.customer_email = checkEmail(this, body.customer_email, 'Customer Email', i);
	}
	if (body.due_date !== undefined) body.due_date = toApiDate(this, body.due_date, 'Due Date', i);
	if (body.send_immediately === true && body.customer_email === undefined) {
		throw inputError(
			this,
			'Send Immediately needs a Customer Email',
			'Add Customer Email under Additional Fields, or turn Send Immediately off',
			i,
		);
	}

	return requestData.call(this, 'POST', '/v1/receivables', body, i, waitBudgetMs);
}
