import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { validateUuid } from '../../helpers/validators';
import { ItemCheck, sendable, type Checked } from '../input';
import { requestResource, type OperationContext } from '../utils';

const show = { resource: ['receivable'], operation: ['send'] };

export const description: INodeProperties[] = [
	{
		displayName:
			'The service emails the invoice to the receivable’s customer email. Sending again sends a reminder.',
		name: 'sendNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Receivable ID',
		name: 'receivableId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
		description:
			'The ID (a UUID) of the receivable to send. It needs a customer email and must not be paid or cancelled.',
		displayOptions: { show },
	},
];

/** The path to POST for one item, or the problem with its id. Sends nothing. */
export function checkParameters(p: { receivableId: unknown }): Checked<string> {
	const check = new ItemCheck();
	const id = check.take(validateUuid(p.receivableId, 'Receivable ID'));
	return check.result(`/v1/receivables/${id}/send`);
}

/** Item `i`'s request or its problems, from its parameters; what execute and Validate All Before Sending check. */
export function checkItem(ctx: IExecuteFunctions, i: number): Checked<string> {
	return checkParameters({ receivableId: ctx.getNodeParameter('receivableId', i, '') });
}

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const path = sendable(this, checkItem(this, i), i);
	return requestResource.call(this, 'receivable', 'POST', path, undefined, i, waitBudgetMs);
}
