import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { vendorLocator } from '../../descriptions/common';
import { paymentMethodField } from '../../descriptions/methodDetails';
import { validateEmail, validateUuid } from '../../helpers/validators';
import { validateUpdate } from '../../helpers/requestRules';
import { ItemCheck, readCollection, readLocator, sendable, type Checked } from '../input';
import { toApiBody, requestResource, type OperationContext } from '../utils';

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

interface UpdateVendorParameters {
	vendorId: unknown;
	updateFields: IDataObject;
}

/** The path and body to PATCH for one item, or every problem with them. Sends nothing. */
function checkParameters(p: UpdateVendorParameters): Checked<{ path: string; body: IDataObject }> {
	const check = new ItemCheck();
	const id = check.take(validateUuid(p.vendorId, 'Vendor'));
	const body = toApiBody(p.updateFields);
	check.add(validateUpdate(body));
	if (typeof body.name === 'string') body.name = body.name.trim();
	if (body.email !== undefined) body.email = check.take(validateEmail(body.email, 'Email'));
	return check.result({ path: `/v1/vendors/${id}`, body });
}

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const { path, body } = sendable(
		this,
		checkParameters({
			vendorId: readLocator(this, 'vendorId', i),
			updateFields: readCollection(this, 'updateFields', i),
		}),
		i,
	);
	return await requestResource.call(this, 'vendor', 'PATCH', path, body, i, waitBudgetMs);
}
