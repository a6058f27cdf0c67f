import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dueDateField, notesField } from '../descriptions/dates';
import { normaliseDate } from '../helpers/dates';
import { validateUuid } from '../helpers/validators';
import { validateUpdate } from '../helpers/requestRules';
import { ItemCheck, readCollection, sendable, type Checked } from './input';
import { toApiBody, requestResource, type OperationContext } from './utils';

/**
 * Receivable and payable updates are the same operation with other names: an id, and
 * `updateFields` of status (the writable statuses, docs/api-decisions.md), notes and due date,
 * sent as a PATCH to `/v1/<resource>s/{id}`.
 */
export interface StatusUpdateConfig {
	resource: 'receivable' | 'payable';
	idParameter: string;
	idLabel: string;
	idPlaceholder: string;
	/** The `status` option of `updateFields` (its values are the resource's writable statuses). */
	statusField: INodeProperties;
}

interface PatchRequest {
	path: string;
	body: IDataObject;
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

	/** The path and body to PATCH for one item, or every problem with them. Sends nothing. */
	function checkParameters(id: unknown, updateFields: IDataObject): Checked<PatchRequest> {
		const check = new ItemCheck();
		const checkedId = check.take(validateUuid(id, config.idLabel));
		const body = toApiBody(updateFields);
		check.add(validateUpdate(body));
		if (body.due_date !== undefined) {
			body.due_date = check.take(normaliseDate(body.due_date, 'Due Date'));
		}
		return check.result({ path: `/v1/${config.resource}s/${checkedId}`, body });
	}

	async function execute(
		this: IExecuteFunctions,
		i: number,
		{ waitBudgetMs }: OperationContext,
	): Promise<IDataObject> {
		const id = this.getNodeParameter(config.idParameter, i, '');
		const checked = checkParameters(id, readCollection(this, 'updateFields', i));
		const { path, body } = sendable(this, checked, i);
		return requestResource.call(this, config.resource, 'PATCH', path, body, i, waitBudgetMs);
	}

	return { description, execute };
}
