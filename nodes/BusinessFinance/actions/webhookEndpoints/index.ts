import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';
import * as update from './update.operation';

export { get, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhookEndpoint'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a webhook endpoint',
				action: 'Get a webhook endpoint',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change the URL, description, event types or disabled flag of a webhook endpoint',
				action: 'Update a webhook endpoint',
			},
		],
		default: 'get',
	},
	...get.description,
	...update.description,
];
