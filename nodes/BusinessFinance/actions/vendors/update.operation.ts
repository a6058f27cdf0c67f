import type { IDataObject } from 'n8n-workflow';
import { collection, vendorLocator } from '../../descriptions/common';
import { paymentMethodField } from '../../descriptions/methodDetails';
import { validateEmail, validateUuid } from '../../helpers/validators';
import { validateUpdate } from '../../helpers/requestRules';
import { ItemCheck, readCollection, readLocator, type Checked } from '../input';
import { bodyOperation, type BodyRequest } from '../operations';
import { toApiBody } from '../utils';
import { emailField } from './create.operation';

interface UpdateVendorParameters {
	vendorId: unknown;
	updateFields: IDataObject;
}

/** The path and body to PATCH for one item, or every problem with them. Sends nothing. */
function checkParameters(p: UpdateVendorParameters): Checked<BodyRequest> {
	const check = new ItemCheck();
	const id = check.take(validateUuid(p.vendorId, 'Vendor'));
	const body = toApiBody(p.updateFields);
	check.add(validateUpdate(body));
	if (typeof body.name === 'string') body.name = body.name.trim();
	check.field(body, 'email', validateEmail, 'Email');
	return check.result({ path: `/v1/vendors/${id}`, body });
}

export const { description, execute } = bodyOperation({
	resource: 'vendor',
	operation: 'update',
	method: 'PATCH',
	fields: [
		vendorLocator(),
		collection('updateFields', [
			emailField,
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
		]),
	],
	read: (ctx, i) => ({
		vendorId: readLocator(ctx, 'vendorId', i),
		updateFields: readCollection(ctx, 'updateFields', i),
	}),
	check: checkParameters,
});

export const toolDescription =
	'Changes a vendor’s name, email or payment method (bank and wallet details cannot be changed). Needs the vendor id (a UUID). Returns the vendor.';
