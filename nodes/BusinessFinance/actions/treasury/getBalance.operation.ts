import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { apiRequest } from '../../transport';
import { unwrapData, type OperationContext } from '../utils';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const response = await apiRequest.call(this, 'GET', '/v1/treasury/balance', undefined, undefined, {
		itemIndex: i,
		waitBudgetMs,
	});
	return unwrapData(response) as IDataObject;
}
