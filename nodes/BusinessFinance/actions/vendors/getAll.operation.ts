import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { apiRequestAllItems } from '../../transport';
import { returnAllAndLimit, simplifyField } from '../../descriptions/common';
import { shaped } from '../../helpers/resourceFields';
import {
	checkPaging,
	ItemCheck,
	readCollection,
	readPaging,
	sendable,
	type Checked,
	type ListRequest,
	type Paging,
} from '../input';
import { compact, type OperationContext } from '../utils';

const show = { resource: ['vendor'], operation: ['getAll'] };

export const description: INodeProperties[] = [
	...returnAllAndLimit('vendor', 'getAll', 'vendors'),
	simplifyField('vendor', show),
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

/** The query and paging for one item, or every problem with them. Sends nothing. */
function checkParameters(paging: Paging, filterValues: IDataObject): Checked<ListRequest> {
	const check = new ItemCheck();
	const pages = checkPaging(check, paging);
	const filters = compact(filterValues);
	const qs: IDataObject = {};
	if (typeof filters.search === 'string') qs.search = filters.search.trim();
	return check.result({ qs, paging: pages });
}

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject[]> {
	const checked = checkParameters(readPaging(this, i), readCollection(this, 'filters', i));
	const { qs, paging } = sendable(this, checked, i);
	const simplify = this.getNodeParameter('simplify', i, false) === true;
	return await apiRequestAllItems.call(this, '/v1/vendors', qs, {
		...paging,
		itemIndex: i,
		waitBudgetMs,
		shapeItem: (vendor) => shaped('vendor', vendor, simplify) as IDataObject,
	});
}
