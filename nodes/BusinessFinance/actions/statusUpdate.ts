import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dueDateField, notesField } from '../descriptions/dates';
import { requireUpdate, toApiDate, uuidParam } from './input';
import { toApiBody, requestData, type OperationContext } from './utils';

/**
 * Receivable and payable updates are the same operation with other names: an id, and
 * `updateFields` of status (the writable values of the contract), notes and due date, sent as a
 * PATCH to `/v1/<resource>s/{id}`.
 */
export interface StatusUpdateConfig {
	resource: 'receivable' | 'payable';
	idParameter: string;
	idLabel: string;
	idPlaceholder: string;
	/** The `status` option of `updateFields` (its values are the resource's writable statuses). */
	statusField: INodeProperties;
}

export function statusUpdateOperation(config: StatusUpdateConfig) {
	const show = { resource: [config.resource], operation: ['update'] };

	const description: INodeProperties[] = [
		{
			displayName: config.idLabel,
			name: config.idParameter,
			type: 'string',
			required: true,
			default: '',
			placeholder: config.idPlaceholder,
			description: `The ID (a UUID) of the ${config.resource} to update`,
			displayOptions: { show },
		},
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: { show },
			options: [dueDateField, notesField, config.statusField],
		},
	];

	async function execute(
		this: IExecuteFunctions,
		i: number,
		{ waitBudgetMs }: OperationContext,
	): Promise<IDataObject> {
		const id = uuidParam(this, config.idParameter, config.idLabel, i);
		const body = toApiBody(this.getNodeParameter('updateFields', i, {}) as IDataObject);
		requireUpdate(this, body, i);
		if (body.due_date !== undefined) body.due_date = toApiDate(this, body.due_date, 'Due Date', i);

		return requestData.call(this, 'PATCH', `/v1/${config.resource}s/${id}`, body, i, waitBudgetMs);
	}

	return { description, execute };
}
