import type { INodeProperties } from 'n8n-workflow';

import { polledEventPropertyHint } from '../descriptions/builderHints';
import { collection } from '../descriptions/common';
import { eventOutputOption, transactionTypeOptions } from '../descriptions/events';

/** What the polling trigger can watch: the service's event type it stands in for. */
const POLLED_EVENTS = {
	transactionCreated: 'treasury.transaction.created',
	vendorCreated: 'vendor.created',
	vendorUpdated: 'vendor.updated',
} as const;

export type PolledEvent = (typeof POLLED_EVENTS)[keyof typeof POLLED_EVENTS];

/**
 * How each event is polled: the list it reads, the record it names, the timestamp the list is
 * ordered by, and its filter parameter. `changes`: an item per change of a record, so the id
 * holds the timestamp and every poll reads the whole list (a change moves a record anywhere in
 * it). A new polled event is one entry here and its option in Trigger On.
 */
export const POLLED: Record<
	PolledEvent,
	{ path: string; record: string; stamp: string; changes: boolean; filter?: string }
> = {
	[POLLED_EVENTS.transactionCreated]: {
		path: '/v1/treasury/transactions',
		record: 'transaction',
		stamp: 'created_at',
		changes: false,
		filter: 'transactionType',
	},
	[POLLED_EVENTS.vendorCreated]: {
		path: '/v1/vendors',
		record: 'vendor',
		stamp: 'created_at',
		changes: false,
	},
	[POLLED_EVENTS.vendorUpdated]: {
		path: '/v1/vendors',
		record: 'vendor',
		stamp: 'updated_at',
		changes: true,
	},
};

export const pollingTriggerProperties: INodeProperties[] = [
	{
		displayName:
			'Publishing remembers the newest item and emits nothing; each poll then emits what is new since, once. A run that fails after this trigger is not polled again: set an Error Workflow in the workflow’s settings, and retry such runs from the executions list.',
		name: 'pollingNotice',
		type: 'notice',
		default: '',
	},
	{
		// n8n's guidelines: an event parameter of a trigger is called Trigger On and has no tooltip.
		displayName: 'Trigger On',
		name: 'event',
		type: 'options',
		options: [
			{
				name: 'New Treasury Transaction',
				value: POLLED_EVENTS.transactionCreated,
				description: 'A transaction created since the last poll',
			},
			{
				name: 'New Vendor',
				value: POLLED_EVENTS.vendorCreated,
				description: 'A vendor created since the last poll',
			},
			{
				name: 'Vendor Changed',
				value: POLLED_EVENTS.vendorUpdated,
				description: 'A vendor whose updated_at moved since the last poll',
			},
		],
		// a literal: the lint rule for defaults reads only literals
		default: 'treasury.transaction.created',
		required: true,
		builderHint: polledEventPropertyHint,
	},
	{
		displayName: 'Transaction Type',
		name: 'transactionType',
		type: 'options',
		options: [{ name: 'All Types', value: '' }, ...transactionTypeOptions],
		default: '',
		description: 'Only transactions of this type',
		displayOptions: { show: { event: [POLLED_EVENTS.transactionCreated] } },
	},
	{
		displayName:
			'Each poll reads the whole vendor list: one request per 100 vendors (10,000 vendors: 100 requests, a minute of the default rate limit). Poll less often for large lists.',
		name: 'vendorChangedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: [POLLED_EVENTS.vendorUpdated] } },
	},
	collection('options', [eventOutputOption]),
];
