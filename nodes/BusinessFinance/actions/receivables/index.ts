import { operationProperties } from '../../descriptions/common';
import * as create from './create.operation';
import * as send from './send.operation';
import * as update from './update.operation';

export { create, send, update };

export const option = { name: 'Receivable', description: 'Invoices you issue to customers' };

export const description = operationProperties(
	'receivable',
	[
		{
			name: 'Create',
			value: 'create',
			description: 'Create a receivable (a customer invoice)',
			action: 'Create receivable',
		},
		{
			name: 'Send',
			value: 'send',
			description: 'Email a receivable to its customer',
			action: 'Send receivable',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change the status, notes or due date of a receivable',
			action: 'Update receivable',
		},
	],
	'create',
	[create, send, update],
);
