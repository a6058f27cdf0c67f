import type { INodeProperties } from 'n8n-workflow';
import { operationField } from '../../descriptions/common';
import * as get from './get.operation';
import * as update from './update.operation';

export { get, update };

export const description: INodeProperties[] = [
	operationField(
		'webhookEndpoint',
		[
			{
				name: 'Get',
				value: 'get',
				description: 'Get a webhook endpoint',
				action: 'Get webhook endpoint',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change the URL, description, event types or disabled flag of a webhook endpoint',
				action: 'Update webhook endpoint',
			},
		],
		'get',
	),
	...get.description,
	...update.description,
];
