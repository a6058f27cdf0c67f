import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { apiRequestAllItems } from '../../transport';
import { returnAllAndLimit } from '../../descriptions/common';
import { dateField } from '../../descriptions/dates';
import { TRANSACTION_TYPES } from '../../helpers/constants';
import { inputError, readLimit, toApiDate } from '../input';
import { compact, type OperationContext } from '../utils';

const show = { resource: ['treasury'], operation: ['getTransactions'] };
const TYPE_LABELS: Record<string, string> = {
	deposit: 'Deposit',
	withdrawal: 'Withdrawal',
	conversion: 'Conversion',
};

export const description: INodeProperties[] = [
	...returnAllAndLimit('treasury', 'getTransactions', 'transactions'),
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
				options: TRANSACTION_TYPES.map((value) => ({ name: TYPE_LABELS[value], value })),
				default: 'deposit',
				description: 'Only transactions of this type',
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
	if (filters.from !== undefined) qs.from = toApiDate(this, filters.from, 'From', i);
	if (filters.to !== undefined) qs.to = toApiDate(this, filters.to, 'To', i);
	if (typeof qs.from === 'string' && typeof qs.to === 'string' && qs.from > qs.to) {
		throw inputError(
			this,
			`From (${qs.from}) is after To (${qs.to})`,
			'Set From to a date on or before To',
			i,
		);
	}
	if (filters.type !== undefined) qs.type = filters.type;
	return await apiRequestAllItems.call(this, '/v1/treasury/transactions', qs, {
		returnAll,
		limit,
		itemIndex: i,
		waitBudgetMs,
	});
}
