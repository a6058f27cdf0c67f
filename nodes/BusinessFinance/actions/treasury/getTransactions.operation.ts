import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { apiRequestAllItems } from '../../transport';
import { returnAllAndLimit, simplifyField } from '../../descriptions/common';
import { shaped } from '../../helpers/resourceFields';
import { dateField } from '../../descriptions/dates';
import { byName } from '../../descriptions/order';
import { TRANSACTION_TYPES } from '../../helpers/constants';
import { normaliseDate, validateDateRange } from '../../helpers/dates';
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

const show = { resource: ['treasury'], operation: ['getTransactions'] };
const TYPE_LABELS: Record<string, string> = {
	deposit: 'Deposit',
	withdrawal: 'Withdrawal',
	conversion: 'Conversion',
};
/** The transaction types as options, A–Z (also the polling trigger's Transaction Type). */
export const transactionTypeOptions = byName(
	TRANSACTION_TYPES.map((value) => ({ name: TYPE_LABELS[value], value })),
);

export const description: INodeProperties[] = [
	...returnAllAndLimit('treasury', 'getTransactions', 'transactions'),
	simplifyField('transaction', show),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			dateField('From', 'from', 'Only transactions created on or after this date (UTC)'),
			dateField('To', 'to', 'Only transactions created on or before this date (UTC)'),
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				options: transactionTypeOptions,
				default: 'deposit',
				description: 'Only transactions of this type',
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
	if (filters.from !== undefined) qs.from = check.take(normaliseDate(filters.from, 'From'));
	if (filters.to !== undefined) qs.to = check.take(normaliseDate(filters.to, 'To'));
	check.add(validateDateRange(qs.from as string | undefined, qs.to as string | undefined));
	if (filters.type !== undefined) qs.type = filters.type;
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
	return await apiRequestAllItems.call(this, '/v1/treasury/transactions', qs, {
		...paging,
		itemIndex: i,
		waitBudgetMs,
		shapeItem: (transaction) => shaped('transaction', transaction, simplify) as IDataObject,
	});
}
