import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { apiRequest } from '../../transport';
import { dueDateField } from '../../descriptions/dates';
import { RECEIVABLE_WRITABLE_STATUSES } from '../../helpers/constants';
import { requireUpdate, toApiDate, uuidParam } from '../input';
import { toApiBody, unwrapData, type OperationContext } from '../utils';

const show = { resource: ['receivable'], operation: ['update'] };
const STATUS_LABELS: Record<string, string> = { draft: 'Draft', cancelled: 'Cancelled' };

export const description: INodeProperties[] = [
	{
		displayName: 'Receivable ID',
		name: 'receivableId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
		description: 'The ID (a UUID) of the receivable to update',
		displayOptions: { show },
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			dueDateField,
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: RECEIVABLE_WRITABLE_STATUSES.map((value) => ({ name: STATUS_LABELS[value], value })),
				default: 'cancelled',
				description:
					'Cancel a draft, sent or overdue receivable, or return a cancelled or sent one to draft. Paid receivables cannot be changed.',
			},
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const id = uuidParam(this, 'receivableId', 'Receivable ID', i);
	const body = toApiBody(this.getNodeParameter('updateFields', i, {}) as IDataObject);
	requireUpdate(this, body, i);
	if (body.due_date !== undefined) body.due_date = toApiDate(this, body.due_date, 'Due Date', i);

	const response = await apiRequest.call(this, 'PATCH', `/v1/receivables/${id}`, body, undefined, {
		itemIndex: i,
		waitBudgetMs,
	});
	return unwrapData(response) as IDataObject;
}
