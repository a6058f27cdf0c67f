import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { apiRequest } from '../../transport';
import { webhookEndpointIdParam } from '../input';
import { unwrapData, type OperationContext } from '../utils';

export const description: INodeProperties[] = [
	{
		displayName: 'Webhook Endpoint ID',
		name: 'webhookEndpointId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ep_2b9f6c1d8a',
		description: 'The ID of the webhook endpoint (starts with ep_)',
		displayOptions: { show: { resource: ['webhookEndpoint'], operation: ['get'] } },
	},
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const id = webhookEndpointIdParam(this, i);
	const response = await apiRequest.call(
		this,
		'GET',
		`/v1/webhooks/${encodeURIComponent(id)}`,
		undefined,
		undefined,
		{ itemIndex: i, waitBudgetMs },
	);
	return unwrapData(response) as IDataObject;
}
