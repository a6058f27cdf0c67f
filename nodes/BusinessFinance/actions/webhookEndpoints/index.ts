import { operationProperties } from '../../descriptions/common';
import * as get from './get.operation';
import * as update from './update.operation';

export { get, update };

export const option = { name: 'Webhook Endpoint', description: 'Where the service sends events' };

export const description = operationProperties(
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
	[get, update],
);
