import type { IDataObject } from 'n8n-workflow';
import { dateField } from '../../descriptions/dates';
import { transactionTypeOptions } from '../../descriptions/events';
import { normaliseDate, validateDateRange } from '../../helpers/dates';
import { listOperation } from '../operations';

export const answers = 'transaction';

export const { description, execute, nothingListed } = listOperation({
	resource: 'treasury',
	operation: 'getTransactions',
	path: '/v1/treasury/transactions',
	item: 'transaction',
	plural: 'transactions',
	filters: [
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
	query: (check, filters) => {
		const qs: IDataObject = {};
		if (filters.from !== undefined) qs.from = check.take(normaliseDate(filters.from, 'From'));
		if (filters.to !== undefined) qs.to = check.take(normaliseDate(filters.to, 'To'));
		check.add(validateDateRange(qs.from as string | undefined, qs.to as string | undefined));
		if (filters.type !== undefined) qs.type = filters.type;
		return qs;
	},
});

export const toolDescription =
	'Lists treasury transactions (deposits, withdrawals, conversions), optionally from and to a date (YYYY-MM-DD) and of one type. Returns each one’s id, type, amount, currency, status, reference and dates.';
