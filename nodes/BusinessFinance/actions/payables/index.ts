import type { INodeProperties } from 'n8n-workflow';
import { operationField } from '../../descriptions/common';
import * as create from './create.operation';
import * as update from './update.operation';

export { create, update };

export const description: INodeProperties[] = [
	operationField(
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
	),
	...create.description,
	...update.description,
];
