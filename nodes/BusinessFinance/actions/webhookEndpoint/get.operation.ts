import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { apiRequest } from '../../transport';
import { webhookEndpointIdField } from '../../descriptions/common';
import { webhookEndpointIdParam } from '../input';
import { unwrapData, type OperationContext } from '../utils';

export const description: INodeProperties[] = [webhookEndpointIdField('get')];

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
