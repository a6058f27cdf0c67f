/**
 * Workflows only the queue suite imports (the resource workflows and examples come from
 * test/e2e/workflows.ts and examples/): a vendor listing on the rate-limited sandbox, and the
 * README's remedy for duplicates across processes (the trigger, then n8n's Remove Duplicates on
 * the event id).
 */
import { action, chain, manual, TRIGGER } from '../e2e/workflows';
import {
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	type WorkflowJson,
} from '../../scripts/n8n';

export const LISTING_CREDENTIAL = { id: 'bfQueueListing01', name: 'Business Finance rate-limited' };
export const LISTING_WORKFLOW_ID = 'bfQueueListing01';
export const DEDUPE_WORKFLOW_ID = 'bfQueueDedupe001';
export const DEDUPE_WEBHOOK_ID = '7b1e9d63-2222-4c1a-9e01-0000000000d1';

/** `vendor → getAll` with Return All, once, on the rate-limited sandbox's credential. */
export function listingWorkflow(): WorkflowJson {
	const list = action(
		'List vendors',
		{ resource: 'vendor', operation: 'getAll', returnAll: true, filters: {} },
		{ executeOnce: true },
	);
	list.credentials = { businessFinanceApi: LISTING_CREDENTIAL };
	return chain(LISTING_WORKFLOW_ID, 'queue: list every vendor', [manual(), list]);
}

/** Trigger on overdue receivables → Remove Duplicates (event id, kept in n8n's database) → New event. */
export function dedupeWorkflow(endpointId: string): WorkflowJson {
	return chain(DEDUPE_WORKFLOW_ID, 'queue: overdue receivables, each event once', [
		{
			id: '7b1e9d63-2222-4c1a-9e01-0000000000a1',
			name: 'On receivable overdue',
			type: TRIGGER,
			typeVersion: 2,
			position: [0, 0],
			webhookId: DEDUPE_WEBHOOK_ID,
			parameters: { webhookEndpointId: endpointId, events: ['receivable.overdue'], options: {} },
			credentials: {
				businessFinanceApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME },
			},
		},
		{
			id: '7b1e9d63-2222-4c1a-9e01-0000000000a2',
			name: 'Remove Duplicates',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			position: [0, 0],
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				logic: 'removeItemsWithAlreadySeenKeyValues',
				dedupeValue: '={{ $json.id }}',
				options: {},
			},
		},
		{
			id: '7b1e9d63-2222-4c1a-9e01-0000000000a3',
			name: 'New event',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	]);
}
