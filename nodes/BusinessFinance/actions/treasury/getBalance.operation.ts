import { readOnce } from '../utils';

/** Balances and instructions are no record type an agent's answer is cut to. */
export const answers = null;

export const { description, execute } = readOnce('/v1/treasury/balance');

export const toolDescription =
	'Reads the treasury balance: available and pending amounts per currency. Needs no input.';
