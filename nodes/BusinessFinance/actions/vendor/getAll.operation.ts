import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { apiRequestAllItems } from '../../transport';
import { returnAllAndLimit } from '../../descriptions/common';
import { readLimit } from '../input';
import { compact, type OperationContext } from '../utils';

const show = { resource: ['vendor'], operation: ['getAll'] };

export const description: INodeProperties[] = [
	...returnAllAndLimit('vendor', 'getAll', 'vendors'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'e.g. acme',
				description: 'Only vendors whose name or email contains this text (not case-sensitive)',
			},
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject[]> {
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	const limit = returnAll ? 0 : readLimit(this, i);
	const filters = compact(this.getNodeParameter('filters', i, {}) as IDataObject);
	const qs: IDataObject = {};
	if (typeof filters.search === 'string') qs.search = filters.search.trim();
	return await apiRequestAllItems.call(this, '/v1/vendors', qs, {
		returnAll,
		limit,
		itemIndex: i,
		waitBudgetMs,
	});
}
