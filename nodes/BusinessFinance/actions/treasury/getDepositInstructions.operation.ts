import { readOnce } from '../utils';

export const { description, execute } = readOnce('/v1/treasury/deposit-instructions');
