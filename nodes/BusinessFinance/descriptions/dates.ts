import type { INodeProperties } from 'n8n-workflow';

/** A calendar date field. The picker gives a date-time; the node sends its date (YYYY-MM-DD). */
export function dateField(
	displayName: string,
	name: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'dateTime',
		default: '',
		description: `${description}. Sent as a calendar date (YYYY-MM-DD); a date-time is cut to its date.`,
	};
}

export const dueDateField: INodeProperties = dateField('Due Date', 'dueDate', 'When payment is due');
