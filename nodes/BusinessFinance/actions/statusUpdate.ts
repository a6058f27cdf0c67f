import type { INodeProperties } from 'n8n-workflow';
import { collection } from '../descriptions/common';
import { dueDateField, notesField } from '../descriptions/dates';
import { byName } from '../descriptions/order';
import { normaliseDate } from '../helpers/dates';
import { validateUuid } from '../helpers/validators';
import { validateUpdate } from '../helpers/requestRules';
import { ItemCheck, readCollection } from './input';
import { bodyOperation } from './operations';
import { toApiBody } from './utils';
import type { LostAnswer } from '../transport';

/** Receivable and payable updates: one operation (a PATCH of status, notes, due date). */
interface StatusUpdateConfig {
	resource: 'receivable' | 'payable';
	idParameter: string;
	idLabel: string;
	idPlaceholder: string;
	/** The statuses an update may set (the service's writable ones), value to label. */
	statuses: Record<string, string>;
	/** What setting each status does besides the status itself ("money leaves the account"). */
	effects?: Record<string, string>;
	defaultStatus: string;
	statusDescription: string;
}

/**
 * A status change is sent once: applied but answered 5xx, a second request would be refused as
 * an invalid transition and the node would say the change failed. The API cannot read a
 * receivable or payable back, so the dashboard and the events are where to look.
 */
function statusChangeLost(config: StatusUpdateConfig, status: unknown): LostAnswer | undefined {
	if (typeof status !== 'string') return undefined;
	const effect = config.effects?.[status];
	return {
		may: `the ${config.resource}'s status may have been changed to ${status}${effect ? ` (${effect})` : ''}`,
		check: `look at the ${config.resource} in the dashboard, or for its ${config.resource}.* events (Business Finance Trigger)`,
		again:
			'if the first was applied, a second request may be refused as an invalid status transition',
	};
}

export function statusUpdateOperation(config: StatusUpdateConfig) {
	const { resource, idParameter, idLabel, defaultStatus } = config;
	const statusField: INodeProperties = {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: byName(Object.entries(config.statuses).map(([value, name]) => ({ name, value }))),
		default: defaultStatus,
		description: config.statusDescription,
	};
	const { description, execute } = bodyOperation({
		resource,
		operation: 'update',
		method: 'PATCH',
		fields: [
			{
				displayName: idLabel,
				name: idParameter,
				type: 'string',
				required: true,
				default: '',
				placeholder: config.idPlaceholder,
				description: `The ID (a UUID) of the ${resource} to update`,
			},
			collection('updateFields', [dueDateField, notesField, statusField]),
		],
		read: (ctx, i) => ({
			id: ctx.getNodeParameter(idParameter, i, ''),
			updateFields: readCollection(ctx, 'updateFields', i),
		}),
		check: (p) => {
			const check = new ItemCheck();
			const id = check.take(validateUuid(p.id, idLabel));
			const body = toApiBody(p.updateFields);
			check.add(validateUpdate(body));
			check.field(body, 'due_date', normaliseDate, 'Due Date');
			return check.result({ path: `/v1/${resource}s/${id}`, body });
		},
		lost: ({ body }) => statusChangeLost(config, body?.status),
	});
	// No checkItem: Validate All Before Sending is for the operations that send money or mail.
	return { description, execute };
}
