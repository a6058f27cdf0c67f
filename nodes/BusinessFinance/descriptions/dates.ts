import type { INodeProperties } from 'n8n-workflow';

/** A calendar date field. The picker gives a date-time; the node sends its date (YYYY-MM-DD). */
export function dateField(displayName: string, name: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'dateTime',
		default: '',
		description: `${description}. Sent as a calendar date (YYYY-MM-DD); a date-time is cut to its date.`,
	};
}

export const dueDateField = dateField('Due Date', 'dueDate', 'When payment is due');

/** Free-text notes, in the create and update collections of receivables and payables. */
export const notesField: INodeProperties = {
	displayName: 'Notes',
	name: 'notes',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
};
