import { operationProperties } from '../../descriptions/common';
import * as create from './create.operation';
import * as update from './update.operation';

export { create, update };

export const option = { name: 'Payable', description: 'Bills you owe to vendors' };

export const description = operationProperties(
	'payable',
	[
		{
			name: 'Create',
			value: 'create',
			description: 'Create a payable (a vendor bill)',
			action: 'Create payable',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change the status, notes or due date of a payable',
			action: 'Update payable',
		},
	],
	'create',
	[create, update],
);
