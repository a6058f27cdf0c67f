import { collection, vendorLocator } from '../../descriptions/common';
import { paymentMethodField } from '../../descriptions/methodDetails';
import { validateEmail, validateUuid } from '../../helpers/validators';
import { validateUpdate } from '../../helpers/requestRules';
import { ItemCheck, readCollection, readLocator } from '../input';
import { bodyOperation } from '../operations';
import { toApiBody } from '../utils';
import { emailField, nameField } from './create.operation';

export const { description, execute } = bodyOperation({
	resource: 'vendor',
	operation: 'update',
	method: 'PATCH',
	fields: [
		vendorLocator(),
		collection('updateFields', [
			emailField,
			nameField,
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
	check: (p) => {
		const check = new ItemCheck();
		const id = check.take(validateUuid(p.vendorId, 'Vendor'));
		const body = toApiBody(p.updateFields);
		check.add(validateUpdate(body));
		if (typeof body.name === 'string') body.name = body.name.trim();
		check.field(body, 'email', validateEmail, 'Email');
		return check.result({ path: `/v1/vendors/${id}`, body });
	},
});

export const toolDescription =
	'Changes a vendor’s name, email or payment method (bank and wallet details cannot be changed). Needs the vendor id (a UUID). Returns the vendor.';
