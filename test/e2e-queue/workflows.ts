/** Only the queue suite and bench/queue-listing.ts use it; the rest: test/e2e/workflows.ts. */
import { action, chain, manual, operation } from '../e2e/workflows';
import type { WorkflowJson } from '../../scripts/n8n';

export const LISTING_CREDENTIAL = { id: 'bfQueueListing01', name: 'Business Finance rate-limited' };
export const LISTING_WORKFLOW_ID = 'bfQueueListing01';

/** `vendor → getAll` with Return All, once, on the rate-limited sandbox's credential. */
export function listingWorkflow(): WorkflowJson {
	const parameters = operation('vendor.getAll', { returnAll: true, filters: {} });
	const list = action('List vendors', parameters, { executeOnce: true }, LISTING_CREDENTIAL);
	return chain(LISTING_WORKFLOW_ID, 'queue: list every vendor', [manual(), list]);
}
