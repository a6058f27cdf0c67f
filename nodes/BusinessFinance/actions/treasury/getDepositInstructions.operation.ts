import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { requestData, type OperationContext } from '../utils';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	context: OperationContext,
): Promise<IDataObject> {
	const path = '/v1/treasury/deposit-instructions';
	return await requestData.call(this, { ...context, method: 'GET', path, itemIndex: i });
}
