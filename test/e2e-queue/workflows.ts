/** Only the queue suite and bench/limits.ts use it; the rest: test/e2e/workflows.ts. */
import {
	action,
	chain,
	exampleClaimNodes,
	manual,
	node,
	operation,
	trigger,
} from '../e2e/workflows';
import type { WorkflowJson } from '../../scripts/n8n';

export const LISTING_CREDENTIAL = { id: 'bfQueueListing01', name: 'Business Finance rate-limited' };
export const LISTING_WORKFLOW_ID = 'bfQueueListing01';

/** `vendor → getAll` with Return All, once, on the rate-limited sandbox's credential. */
export function listingWorkflow(): WorkflowJson {
	const parameters = operation('vendor.getAll', { returnAll: true, filters: {} });
	const list = action('List vendors', parameters, { executeOnce: true }, LISTING_CREDENTIAL);
	return chain(LISTING_WORKFLOW_ID, 'queue: list every vendor', [manual(), list]);
}

export const CRASH = {
	workflowId: 'bfQueueCrashRun1',
	errorWorkflowId: 'bfQueueCrashErr1',
	webhookId: '5f4b2a10-0004-4c1a-9e01-0000000000c4',
	handled: 'Handled',
};

/**
 * Example 03's shape with a 20-second step between the claim and the effect, so that a test can
 * kill the worker there; with Save Execution Progress on and an Error Workflow, to show
 * what each keeps after a crash.
 */
export function crashWorkflows(): WorkflowJson[] {
	const run = chain(CRASH.workflowId, 'queue: a run a worker crash interrupts', [
		trigger('Receivable paid', CRASH.webhookId, {
			webhookEndpointId: '',
			events: ['receivable.paid'],
		}),
		...exampleClaimNodes(),
		node(
			'Work for 20 s',
			'n8n-nodes-base.wait',
			{ amount: 20, unit: 'seconds' },
			{ typeVersion: 1.1 },
		),
		node(CRASH.handled, 'n8n-nodes-base.noOp'),
	]);
	run.settings = {
		...run.settings,
		saveExecutionProgress: true,
		errorWorkflow: CRASH.errorWorkflowId,
	};
	const errors = chain(CRASH.errorWorkflowId, 'queue: error workflow', [
		node('Error Trigger', 'n8n-nodes-base.errorTrigger'),
		node('Keep the failure', 'n8n-nodes-base.noOp'),
	]);
	return [run, errors];
}
