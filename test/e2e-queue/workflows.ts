/**
 * Workflows only the queue suite imports (the resource workflows and examples come from
 * test/e2e/workflows.ts and examples/): a vendor listing on the rate-limited sandbox, and the
 * README's remedy for duplicates across processes (the trigger, then n8n's Remove Duplicates on
 * the event id).
 */
import { action, chain, manual, node, trigger } from '../e2e/workflows';
import type { WorkflowJson } from '../../scripts/n8n';

export const LISTING_CREDENTIAL = { id: 'bfQueueListing01', name: 'Business Finance rate-limited' };
export const LISTING_WORKFLOW_ID = 'bfQueueListing01';
export const DEDUPE_WORKFLOW_ID = 'bfQueueDedupe001';
export const DEDUPE_WEBHOOK_ID = '7b1e9d63-2222-4c1a-9e01-0000000000d1';

/** `vendor → getAll` with Return All, once, on the rate-limited sandbox's credential. */
export function listingWorkflow(): WorkflowJson {
	const parameters = { resource: 'vendor', operation: 'getAll', returnAll: true, filters: {} };
	const list = action('List vendors', parameters, { executeOnce: true }, LISTING_CREDENTIAL);
	return chain(LISTING_WORKFLOW_ID, 'queue: list every vendor', [manual(), list]);
}

/** Trigger on overdue receivables → Remove Duplicates (event id, kept in n8n's database) → New event. */
export function dedupeWorkflow(endpointId: string): WorkflowJson {
	const parameters = { webhookEndpointId: endpointId, events: ['receivable.overdue'] };
	const removeDuplicates = {
		operation: 'removeItemsSeenInPreviousExecutions',
		logic: 'removeItemsWithAlreadySeenKeyValues',
		dedupeValue: '={{ $json.id }}',
		options: {},
	};
	return chain(DEDUPE_WORKFLOW_ID, 'queue: overdue receivables, each event once', [
		trigger('On receivable overdue', DEDUPE_WEBHOOK_ID, parameters),
		node('Remove Duplicates', 'n8n-nodes-base.removeDuplicates', removeDuplicates, {
			typeVersion: 2,
		}),
		node('New event', 'n8n-nodes-base.noOp'),
	]);
}
