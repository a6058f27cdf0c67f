import { readOnce } from '../utils';

/** Balances and instructions are no record type an agent's answer is cut to. */
export const answers = null;

export const { description, execute } = readOnce('/v1/treasury/deposit-instructions');

export const toolDescription =
	'Reads how to deposit funds into the treasury: crypto address, ACH, wire and SWIFT details with the reference to quote. Needs no input.';
