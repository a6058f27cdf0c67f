import { operationProperties } from '../../descriptions/common';
import * as getBalance from './getBalance.operation';
import * as getDepositInstructions from './getDepositInstructions.operation';
import * as getTransactions from './getTransactions.operation';

export { getBalance, getDepositInstructions, getTransactions };

export const option = {
	name: 'Treasury',
	description: 'Balance, deposit instructions and transactions',
};

export const description = operationProperties(
	'treasury',
	[
		{
			name: 'Get Balance',
			value: 'getBalance',
			description: 'Get the available and pending balance per currency',
			action: 'Get treasury balance',
		},
		{
			name: 'Get Deposit Instructions',
			value: 'getDepositInstructions',
			description: 'Get how to deposit funds by crypto, ACH, wire or SWIFT',
			action: 'Get deposit instructions',
		},
		{
			name: 'Get Transactions',
			value: 'getTransactions',
			description: 'List treasury transactions, optionally by date range and type',
			action: 'Get treasury transactions',
		},
	],
	'getBalance',
	[getBalance, getDepositInstructions, getTransactions],
);
