import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { methodDetailsFields, paymentMethodField } from '../../descriptions/methodDetails';
import { checkEmail, checkMethodDetails, requiredString } from '../input';
import { toApiBody, requestData, type OperationContext } from '../utils';

const show = { resource: ['vendor'], operation: ['create'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme Supplies LLC',
		description: 'The vendor’s name',
		displayOptions: { show },
	},
	paymentMethodField({
		required: true,
		displayOptions: { show },
		hint: 'Add the matching details under Additional Fields: ACH and wire need bank details, crypto a wallet',
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				default: '',
				placeholder: 'e.g. ar@acme.com',
			},
			...methodDetailsFields,
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const name = requiredString(this, 'name', 'Name', i);
	const paymentMethod = this.getNodeParameter('paymentMethod', i) as string;
	const { email, ...details } = this.getNodeParameter('additionalFields', i, {}) as IDataObject;

	const body: IDataObject = { name };
	const emailBody = toApiBody({ email });
	if (emailBody.email !== undefined) body.email = checkEmail(this, emailBody.email, 'Email', i);
	body.payment_method = paymentMethod;
	Object.assign(body, checkMethodDetails(this, paymentMethod, toApiBody(details), i, 'vendor'));

	return requestData.call(this, 'POST', '/v1/vendors', body, i, waitBudgetMs);
}
