import type { INodeProperties } from 'n8n-workflow';
import * as create from './create.operation';
import * as send from './send.operation';
import * as update from './update.operation';

export { create, send, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['receivable'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a receivable (a customer invoice)',
				action: 'Create a receivable',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Email a receivable to its customer',
				action: 'Send a receivable',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change the status, notes or due date of a receivable',
				action: 'Update a receivable',
			},
		],
		default: 'create',
	},
	...create.description,
	...send.description,
	...update.description,
];
