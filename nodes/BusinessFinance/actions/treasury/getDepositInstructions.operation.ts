import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { requestData, type OperationContext } from '../utils';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	return requestData.call(
		this,
		'GET',
		'/v1/treasury/deposit-instructions',
		undefined,
		i,
		waitBudgetMs,
	);
}
