/** The event types as the editor shows them (Trigger On, Event Types): labels sorted A–Z. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { EVENT_TYPES, TRANSACTION_TYPES } from '../helpers/constants';
import { byName, labelOf } from './order';

/** The trigger's `events` value that selects every event type (sent as no filter). */
export const ALL_EVENTS = '*';
export const ALL_EVENTS_LABEL = 'All Events';

const EVENT_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
	EVENT_TYPES.map((type) => [type, labelOf(type)]),
);

/** The event types as options, A–Z by label; the description names the service's event type. */
export const eventTypeOptions: INodePropertyOptions[] = byName(
	EVENT_TYPES.map((type) => ({
		name: EVENT_LABELS[type],
		value: type,
		description: `The service's ${type} event`,
	})),
);

/** A subtitle expression for an `events` parameter: "All Events", or the chosen types' labels. */
export function eventsSubtitle(parameter: string): string {
	const labels = JSON.stringify(EVENT_LABELS);
	const all = JSON.stringify(ALL_EVENTS);
	const allLabel = JSON.stringify(ALL_EVENTS_LABEL);
	return (
		`={{ ((events) => events.includes(${all}) ? ${allLabel} : ` +
		`events.map((type) => (${labels})[type] || type).join(", "))` +
		`([].concat($parameter[${JSON.stringify(parameter)}] || [])) }}`
	);
}

/** Both triggers' Output option: the event as the service sends it, or its resource alone. */
export const eventOutputOption: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{
			name: 'Data Only',
			value: 'data',
			description: "Only the resource in the event's data field (the invoice, vendor, …)",
		},
		{
			name: 'Whole Event',
			value: 'event',
			description: 'The event envelope: ID, type, created_at and data',
		},
	],
	default: 'event',
	description: 'What each item of an execution holds',
};

/** The transaction types as options, A–Z (Get Transactions' Type, the polling trigger's Transaction Type). */
export const transactionTypeOptions = byName(
	TRANSACTION_TYPES.map((value) => ({ name: labelOf(value), value })),
);
