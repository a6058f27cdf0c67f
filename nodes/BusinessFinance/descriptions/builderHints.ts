/**
 * What n8n's AI workflow builder reads about the three nodes (`builderHint`, as n8n's own nodes
 * give it): which node to pick when, and what a workflow built around each needs.
 */
import type { IBuilderHint, IParameterBuilderHint } from 'n8n-workflow';

const PACKAGE = 'n8n-nodes-business-finance';
const ACTION = `${PACKAGE}.businessFinance`;
const TRIGGER = `${PACKAGE}.businessFinanceTrigger`;
const POLLING = `${PACKAGE}.businessFinancePollingTrigger`;
const ONCE =
	"Claim each event right after it, before any step with an effect: n8n's Redis node (operation Increment, key bf-event:{{ $json.id }}, Expire on, TTL 2592000), then a Filter that goes on only when the count is 1. A retried delivery then runs the workflow once across restarts and n8n processes, also while runs overlap.";

export const actionBuilderHint: IBuilderHint = {
	searchHint:
		'Receivables (invoices to customers), payables (bills from vendors), vendors, treasury balance and transactions, and webhook endpoints of the Business Finance service. Creates and sends are never retried after an unknown outcome: do not add a retry around them. Receivable Send and Create with Send Immediately email the customer; Payable Update to status ready pays out: put a person in the loop before those.',
	relatedNodes: [
		{
			nodeType: TRIGGER,
			relationHint: 'Starts a workflow on the service’s events (needs a public n8n URL)',
		},
		{
			nodeType: POLLING,
			relationHint: 'Starts a workflow on new transactions or vendors without a public URL',
		},
	],
};

export const triggerBuilderHint: IBuilderHint = {
	searchHint: `Starts a workflow on a verified Business Finance event; the service must reach n8n's production webhook URL, else use the Business Finance Polling Trigger. ${ONCE}`,
	relatedNodes: [
		{ nodeType: 'n8n-nodes-base.redis', relationHint: ONCE },
		{ nodeType: ACTION, relationHint: 'Reads or changes the record an event names (data.id)' },
		{ nodeType: POLLING, relationHint: 'The same events by polling, where n8n has no public URL' },
	],
};

export const pollingBuilderHint: IBuilderHint = {
	searchHint:
		'Starts a workflow on new treasury transactions, new vendors or changed vendors by polling; for an n8n the service cannot reach. Each item is emitted once; publishing emits nothing. Invoices and payables cannot be polled: use the Business Finance Trigger for their events. Set an Error Workflow: a run that fails after this trigger is not polled again.',
	relatedNodes: [
		{
			nodeType: TRIGGER,
			relationHint: 'Events pushed by the service, for an n8n with a public URL',
		},
		{ nodeType: ACTION, relationHint: 'Reads or changes the record an item names (data.id)' },
	],
};

export const eventsPropertyHint: IParameterBuilderHint = {
	propertyHint:
		'Pick only the event types the workflow handles (for example receivable.paid); the service then sends only those. All Events (*) sends every type.',
};

export const polledEventPropertyHint: IParameterBuilderHint = {
	propertyHint:
		'treasury.transaction.created for new transactions (with Transaction Type to narrow it), vendor.created for new vendors, vendor.updated for changed vendors (reads the whole vendor list each poll).',
};
