import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { amountField, collection } from '../../descriptions/common';
import { dueDateField, notesField } from '../../descriptions/dates';
import { normaliseDate } from '../../helpers/dates';
import {
	RECEIVABLE_AMOUNT,
	validateAmount,
	validateBoolean,
	validateEmail,
	validateRequiredText,
	validateUuid,
} from '../../helpers/validators';
import { validateSendImmediately } from '../../helpers/requestRules';
import { ItemCheck, readCollection, type Checked } from '../input';
import type { LostAnswer } from '../../transport';
import { bodyOperation, type BodyRequest } from '../operations';
import { toApiBody } from '../utils';

const fields: INodeProperties[] = [
	{
		displayName:
			"'Send Immediately' is on: the service emails the invoice to the customer as soon as the receivable is created",
		name: 'sendImmediatelyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '/additionalFields.sendImmediately': [true] } },
	},
	{
		displayName: 'Invoice Number',
		name: 'invoiceNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. INV-2026-0042',
		description: 'Your reference for the invoice',
	},
	amountField(
		'Amount due in USD, at least 0.01',
		'In USD (the service takes no currency for receivables), at least 0.01',
	),
	collection('additionalFields', [
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
	]),
];

interface CreateReceivableParameters {
	invoiceNumber: unknown;
	amount: unknown;
	additionalFields: IDataObject;
}

export function checkParameters(p: CreateReceivableParameters): Checked<BodyRequest> {
	const check = new ItemCheck();
	const fields = toApiBody(p.additionalFields);
	const body: IDataObject = {
		invoice_number: check.take(validateRequiredText(p.invoiceNumber, 'Invoice Number')),
		amount: check.take(validateAmount(p.amount, RECEIVABLE_AMOUNT)),
		...fields,
	};
	check.field(body, 'customer_id', validateUuid, 'Customer ID');
	check.field(body, 'customer_email', validateEmail, 'Customer Email');
	check.field(body, 'due_date', normaliseDate, 'Due Date');
	if (fields.send_immediately !== undefined) {
		const sendNow = check.take(validateBoolean(fields.send_immediately, 'Send Immediately'));
		body.send_immediately = sendNow;
		check.add(validateSendImmediately(sendNow === true, fields.customer_email));
	}
	return check.result({ path: '/v1/receivables', body });
}

export const lostAnswer: LostAnswer = {
	may: 'the receivable may have been created (with Send Immediately, also emailed to the customer)',
	check:
		'look for its invoice number in the dashboard, or for its receivable.created event (Business Finance Trigger)',
	again: 'a second request may create a second invoice',
};

export const { description, checkItem, execute, sendsOnce } = bodyOperation({
	resource: 'receivable',
	operation: 'create',
	method: 'POST',
	fields,
	read: (ctx, i): CreateReceivableParameters => ({
		invoiceNumber: ctx.getNodeParameter('invoiceNumber', i, ''),
		amount: ctx.getNodeParameter('amount', i),
		additionalFields: readCollection(ctx, 'additionalFields', i),
	}),
	check: checkParameters,
	lost: () => lostAnswer,
});

export const toolDescription =
	'Creates a receivable, an invoice to a customer, in USD. Needs an invoice number and an amount of at least 0.01; may take the customer email, customer name, customer id (a UUID), due date (YYYY-MM-DD) and notes. Emails the customer only when Send Immediately is on in the tool. Returns the receivable with its id.';
