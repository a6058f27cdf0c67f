import { readOnce } from '../utils';

export const { description, execute, answers } = readOnce('/v1/treasury/balance');

export const toolDescription =
	'Reads the treasury balance: available and pending amounts per currency. Needs no input.';
