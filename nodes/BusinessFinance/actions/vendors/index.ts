import { operationProperties } from '../../descriptions/common';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, get, getAll, update };

export const option = { name: 'Vendor', description: 'Payees and how they are paid' };

export const description = operationProperties(
	'vendor',
	[
		{
			name: 'Create',
			value: 'create',
			description: 'Create a vendor (a payee)',
			action: 'Create vendor',
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get one vendor by its ID',
			action: 'Get vendor',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List vendors, optionally filtered by a search term',
			action: 'Get many vendors',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change the name, email or payment method of a vendor',
			action: 'Update vendor',
		},
	],
	'create',
	[create, get, getAll, update],
);
