import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { vendorLocator } from '../../descriptions/common';
import { paymentMethodField } from '../../descriptions/methodDetails';
import { checkEmail, requireUpdate, uuidParam } from '../input';
import { toApiBody, requestData, type OperationContext } from '../utils';

const show = { resource: ['vendor'], operation: ['update'] };

export const description: INodeProperties[] = [
	vendorLocator({ displayOptions: { show } }),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
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
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Acme Supplies LLC',
			},
			paymentMethodField({
				description:
					'The vendor’s payment method. Bank and wallet details cannot be changed through an update.',
			}),
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const id = uuidParam(this, 'vendorId', 'Vendor', i);
	const body = toApiBody(this.getNodeParameter('updateFields', i, {}) as IDataObject);
	requireUpdate(this, body, i);
	if (typeof body.name === 'string') body.name = body.name.trim();
	if (body.email !== undefined) body.email = checkEmail(this, body.email, 'Email', i);

	return requestData.call(this, 'PATCH', `/v1/vendors/${id}`, body, i, waitBudgetMs);
}
