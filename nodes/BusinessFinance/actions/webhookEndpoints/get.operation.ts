import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { shownFor, webhookEndpointIdField } from '../../descriptions/common';
import { checkWebhookEndpointPath, ItemCheck, sendable } from '../input';
import { requestResource, type OperationContext } from '../utils';

export const description = shownFor('webhookEndpoint', 'get', [webhookEndpointIdField]);

export async function execute(
	this: IExecuteFunctions,
	i: number,
	context: OperationContext,
): Promise<IDataObject> {
	const check = new ItemCheck();
	const id = this.getNodeParameter('webhookEndpointId', i, '');
	const path = sendable(this, check.result(checkWebhookEndpointPath(check, id)), i);
	const call = { ...context, resource: 'webhookEndpoint' as const, method: 'GET' as const };
	return await requestResource.call(this, { ...call, path, itemIndex: i });
}

export const toolDescription =
	'Reads a webhook endpoint by its id (ep_...): where the service sends events, which event types, and whether it is disabled.';
