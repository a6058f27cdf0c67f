/** What activation tells the user when it cannot register the trigger, and how to fix it. */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const CREATE_UNSUPPORTED_MESSAGE =
	"The service does not let this account create webhook endpoints through the API. Create an endpoint in the service's dashboard (any URL, it is replaced on activation), then paste its ID (ep_...) into 'Webhook Endpoint ID'.";

export const NO_SECRET_MESSAGE =
	"No signing secret is available to verify deliveries: the service does not hand out the endpoint's secret. Copy the endpoint's signing secret (whsec_...) from the service's dashboard into the credential's 'Webhook Signing Secret' field, or (not recommended) turn on the option 'Allow Unsigned Deliveries'.";

export const createUnsupported = (node: INode) =>
	new NodeOperationError(node, CREATE_UNSUPPORTED_MESSAGE);

export const createdWithoutId = (node: INode) =>
	new NodeOperationError(node, 'The service created a webhook endpoint but did not return its ID', {
		description:
			"Delete the new endpoint in the service's dashboard, then paste an endpoint ID into 'Webhook Endpoint ID'.",
	});

export const endpointNotFound = (node: INode, id: string) =>
	new NodeOperationError(node, `Webhook endpoint "${id}" was not found on the service`, {
		description:
			"Check the 'Webhook Endpoint ID' (it starts with ep_), or leave it empty to let the trigger create an endpoint.",
	});

export const noSecret = (node: INode, orphan?: string) =>
	new NodeOperationError(node, NO_SECRET_MESSAGE, orphan ? { description: orphan } : {});

/** The secret could not be fetched and the endpoint just created could not be removed either. */
export const secretFailedWithOrphan = (node: INode, orphan: string) =>
	new NodeOperationError(node, "Could not get the webhook endpoint's signing secret", {
		description: orphan,
	});

export const orphanNotice = (endpointId: string) =>
	`The endpoint ${endpointId} was registered and could not be removed again: delete it in the service's dashboard.`;

export const heldByAnotherWorkflow = (node: INode, id: string) =>
	new NodeOperationError(
		node,
		`Webhook endpoint "${id}" already points at another workflow's Business Finance Trigger in this n8n`,
		{
			description:
				"An endpoint serves one workflow at a time. Deactivate the workflow that uses it, or give this trigger another endpoint (or none, to let it create one). If no workflow uses it any more, set its URL back to your own system in the service's dashboard.",
		},
	);

export const heldByActiveWorkflow = (node: INode, id: string) =>
	new NodeOperationError(
		node,
		`Webhook endpoint "${id}" is in use by this workflow's active version, which keeps it while you listen for a test event`,
		{
			description:
				'Deactivate the workflow to test with this endpoint, or clear the Webhook Endpoint ID to test with an endpoint the trigger creates.',
		},
	);

export const originalUnknown = (node: INode, id: string) =>
	new NodeOperationError(
		node,
		`Webhook endpoint "${id}" already points at this trigger, but the settings it had before are not recorded`,
		{
			description:
				"Without them, deactivating could not give the endpoint back to your own system. Set its URL back to your system in the service's dashboard, then activate again.",
		},
	);

/** Pointing a given endpoint here failed; `putBack`: its own settings were restored already. */
export const adoptionFailed = (node: INode, id: string, cause: unknown, putBack: boolean) =>
	new NodeOperationError(
		node,
		`Could not point webhook endpoint "${id}" at this workflow: ${cause instanceof Error ? cause.message : String(cause)}`,
		{
			description: putBack
				? 'Its own settings were put back. Activate the workflow again to retry.'
				: 'The service may have applied the change. Its own settings are kept and put back on the next activation or deactivation of this workflow.',
		},
	);

export const previousNotReleased = (node: INode, id: string) =>
	new NodeOperationError(
		node,
		`Could not put back the settings of webhook endpoint "${id}", which this workflow used before`,
		{
			description:
				'They are kept and put back on the next activation or deactivation. Check that the service is reachable, then activate again.',
		},
	);
