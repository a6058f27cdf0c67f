import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { webhookEndpointIdField } from '../../descriptions/common';
import { webhookEndpointIdParam } from '../input';
import { requestData, type OperationContext } from '../utils';

export const description: INodeProperties[] = [webhookEndpointIdField('get')];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const id = webhookEndpointIdParam(this, i);
	return requestData.call(
		this,
		'GET',
		`/v1/webhooks/${encodeURIComponent(id)}`,
		undefined,
		i,
		waitBudgetMs,
	);
}
