import { readOnce } from '../utils';

export const { description, execute, answers } = readOnce('/v1/treasury/deposit-instructions');

export const toolDescription =
	'Reads how to deposit funds into the treasury: crypto address, ACH, wire and SWIFT details with the reference to quote. Needs no input.';
