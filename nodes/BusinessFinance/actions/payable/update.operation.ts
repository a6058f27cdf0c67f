import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { apiRequest } from '../../transport';
import { dueDateField } from '../../descriptions/dates';
import { PAYABLE_WRITABLE_STATUSES } from '../../helpers/constants';
import { requireUpdate, toApiDate, uuidParam } from '../input';
import { toApiBody, unwrapData, type OperationContext } from '../utils';

const show = { resource: ['payable'], operation: ['update'] };
const STATUS_LABELS: Record<string, string> = { pending_review: 'Pending Review', ready: 'Ready' };

export const description: INodeProperties[] = [
	{
		displayName: 'Payable ID',
		name: 'payableId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
		description: 'The ID (a UUID) of the payable to update',
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
				options: PAYABLE_WRITABLE_STATUSES.map((value) => ({ name: STATUS_LABELS[value], value })),
				default: 'ready',
				description:
					'Approve a payable for payment (Ready) or send it back to review. Scheduled, paid, failed or cancelled payables cannot be changed.',
			},
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const id = uuidParam(this, 'payableId', 'Payable ID', i);
	const body = toApiBody(this.getNodeParameter('updateFields', i, {}) as IDataObject);
	requireUpdate(this, body, i);
	if (body.due_date !== undefined) body.due_date = toApiDate(this, body.due_date, 'Due Date', i);

	const response = await apiRequest.call(this, 'PATCH', `/v1/payables/${id}`, body, undefined, {
		itemIndex: i,
		waitBudgetMs,
	});
	return unwrapData(response) as IDataObject;
}
