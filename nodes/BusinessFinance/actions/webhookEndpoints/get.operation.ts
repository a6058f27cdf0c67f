import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { webhookEndpointIdField } from '../../descriptions/common';
import { checkWebhookEndpointPath, ItemCheck, sendable } from '../input';
import { requestResource, type OperationContext } from '../utils';

export const description: INodeProperties[] = [webhookEndpointIdField('get')];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const check = new ItemCheck();
	const id = this.getNodeParameter('webhookEndpointId', i, '');
	const path = sendable(this, check.result(checkWebhookEndpointPath(check, id)), i);
	return requestResource.call(this, 'webhookEndpoint', 'GET', path, undefined, i, waitBudgetMs);
}
