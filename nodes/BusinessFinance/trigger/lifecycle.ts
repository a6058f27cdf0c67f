import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, getApiErrorInfo } from '../transport';
import { forgetSecret, rememberSecret, secretKey } from './memory';
import {
	clearSlot,
	getSlot,
	pickSettings,
	sameTypes,
	selectedEventTypes,
	slotName,
	type SlotState,
} from './state';

export const CREDENTIAL_NAME = 'businessFinanceApi';

type Ctx = IHookFunctions | IWebhookFunctions;

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown; status?: number };

/** Runs a request and hands back its error (with the HTTP status) instead of throwing. */
async function attempt<T>(request: () => Promise<T>): Promise<Outcome<T>> {
	try {
		return { ok: true, value: await request() };
	} catch (error) {
		return { ok: false, error, status: getApiErrorInfo(error)?.status };
	}
}

const endpointPath = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`;

function dataOf(response: IDataObject): IDataObject {
	const data = response?.data;
	return typeof data === 'object' && data !== null && !Array.isArray(data)
		? (data as IDataObject)
		: {};
}

/** The endpoint, or undefined when the service answers 404 (deleted or never existed). */
async function fetchEndpoint(this: Ctx, id: string): Promise<IDataObject | undefined> {
	const got = await attempt(async () => await apiRequest.call(this, 'GET', endpointPath(id)));
	if (got.ok) return dataOf(got.value);
	if (got.status === 404) return undefined;
	throw got.error;
}

/** The endpoint's signing secret from the service, or undefined when the service has no such route. */
export async function fetchEndpointSecret(this: Ctx, id: string): Promise<string | undefined> {
	const got = await attempt(
		async () => await apiRequest.call(this, 'GET', `${endpointPath(id)}/secret`),
	);
	if (!got.ok) {
		if (got.status === 404 || got.status === 405) return undefined;
		throw got.error;
	}
	const secret = dataOf(got.value).secret;
	return typeof secret === 'string' && secret.length > 0 ? secret : undefined;
}

export async function credentialSecret(this: Ctx): Promise<string | undefined> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const secret = credentials?.webhookSigningSecret;
	return typeof secret === 'string' && secret.trim().length > 0 ? secret.trim() : undefined;
}

interface Target {
	url: string;
	filterTypes: string[];
	givenId: string;
	allowUnsigned: boolean;
}

function target(this: IHookFunctions): Target {
	const url = this.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(
			this.getNode(),
			'n8n did not provide a webhook URL for this trigger',
		);
	}
	const givenId = String(this.getNodeParameter('webhookEndpointId', '') ?? '').trim();
	const filterTypes = selectedEventTypes(this.getNodeParameter('events', []));
	const options = this.getNodeParameter('options', {}) as IDataObject;
	return { url, filterTypes, givenId, allowUnsigned: options.allowUnsigned === true };
}

function pointsHere(endpoint: IDataObject, want: Target): boolean {
	return (
		endpoint.url === want.url &&
		sameTypes(endpoint.filter_types, want.filterTypes) &&
		endpoint.disabled !== true
	);
}

function cacheKey(this: Ctx, endpointId: string): string {
	return secretKey(this.getWorkflow().id, this.getNode().id, endpointId);
}

function nodeKey(this: Ctx): string {
	return `${this.getWorkflow().id ?? ''}|${this.getNode().id}|${slotName(this)}`;
}

/**
 * Undoes what an earlier activation did to the endpoint in `slot`: deletes an endpoint the trigger
 * created, or restores a given endpoint's earlier settings. An endpoint already gone (404) is fine.
 * On any other error the slot is kept, so a later deactivation can finish the job.
 */
async function release(this: Ctx, slot: SlotState): Promise<void> {
	const id = slot.endpointId;
	if (id) {
		if (slot.created) {
			const gone = await attempt(
				async () => await apiRequest.call(this, 'DELETE', endpointPath(id)),
			);
			if (!gone.ok && gone.status !== 404) throw gone.error;
		} else if (slot.originalOf === id && slot.original) {
			const original = slot.original;
			const body: IDataObject = {
				filter_types: Array.isArray(original.filter_types) ? original.filter_types : [],
				disabled: original.disabled === true,
			};
			if (typeof original.url === 'string' && original.url) body.url = original.url;
			// An empty description cannot be sent (the service wants 1-255 characters); the trigger
			// never changes the description, so there is nothing to put back in that case.
			if (typeof original.description === 'string' && original.description.trim()) {
				body.description = original.description;
			}
			const restored = await attempt(
				async () => await apiRequest.call(this, 'PATCH', endpointPath(id), body),
			);
			if (!restored.ok && restored.status !== 404) throw restored.error;
		}
		forgetSecret(cacheKey.call(this, id));
	}
	clearSlot(slot);
}

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const want = target.call(this);
	const slot = getSlot(this);
	const id = want.givenId || (slot.created ? slot.endpointId : undefined);
	if (!id) return false;
	const endpoint = await fetchEndpoint.call(this, id);
	if (!endpoint) {
		// Deleted on the service side: nothing left to restore or delete.
		if (slot.endpointId === id) clearSlot(slot);
		return false;
	}
	if (slot.endpointId && slot.endpointId !== id) return false; // create() releases the old one
	return pointsHere(endpoint, want);
}

export const CREATE_UNSUPPORTED_MESSAGE =
	'The service does not let this account create webhook endpoints through the API. Create an endpoint in the service\'s dashboard (any URL, it is replaced on activation), then paste its ID (ep_...) into "Webhook Endpoint ID".';

export const NO_SECRET_MESSAGE =
	'No signing secret is available to verify deliveries: the service does not hand out the endpoint\'s secret. Copy the endpoint\'s signing secret (whsec_...) from the service\'s dashboard into the credential\'s "Webhook Signing Secret" field, or (not recommended) turn on the option "Allow Unsigned Deliveries".';

async function resolveSecret(
	this: IHookFunctions,
	endpointId: string,
): Promise<SlotState['secretSource']> {
	const fromService = await fetchEndpointSecret.call(this, endpointId);
	if (fromService) {
		rememberSecret(cacheKey.call(this, endpointId), fromService);
		return 'endpoint';
	}
	if (await credentialSecret.call(this)) return 'credential';
	return 'none';
}

export async function create(this: IHookFunctions): Promise<boolean> {
	const want = target.call(this);
	const slot = getSlot(this);

	// A registration from an earlier, different set-up (another endpoint id, or automatic before):
	// undo it first so that no second registration is left behind.
	if (slot.endpointId && (want.givenId ? slot.endpointId !== want.givenId : !slot.created)) {
		await release.call(this, slot);
	}
	const patch: IDataObject = { url: want.url, filter_types: want.filterTypes, disabled: false };

	if (want.givenId) {
		const id = want.givenId;
		const endpoint = await fetchEndpoint.call(this, id);
		if (!endpoint) {
			throw new NodeOperationError(
				this.getNode(),
				`Webhook endpoint "${id}" was not found on the service`,
				{
					description:
						'Check the "Webhook Endpoint ID" (it starts with ep_), or leave it empty to let the trigger create an endpoint.',
				},
			);
		}
		// Check the secret before changing anything on the service.
		const source = await resolveSecret.call(this, id);
		if (source === 'none' && !want.allowUnsigned) {
			throw new NodeOperationError(this.getNode(), NO_SECRET_MESSAGE);
		}
		if (slot.originalOf !== id) {
			// Only the first activation saves: a second one must not save our own values.
			slot.original = pickSettings(endpoint);
			slot.originalOf = id;
		}
		slot.endpointId = id;
		slot.created = false;
		slot.webhookUrl = want.url;
		slot.secretSource = source;
		await apiRequest.call(this, 'PATCH', endpointPath(id), patch);
		return true;
	}

	// Automatic: reuse the endpoint this trigger created earlier when it still exists.
	let id: string | undefined;
	if (slot.created && slot.endpointId) {
		const existing = await fetchEndpoint.call(this, slot.endpointId);
		if (existing) {
			id = slot.endpointId;
			await apiRequest.call(this, 'PATCH', endpointPath(id), patch);
		} else {
			clearSlot(slot);
		}
	}
	if (!id) {
		const workflow = this.getWorkflow();
		const body: IDataObject = {
			url: want.url,
			description: `n8n workflow ${workflow.name ? `"${workflow.name}"` : (workflow.id ?? '')}`
				.trim()
				.slice(0, 255),
			disabled: false,
		};
		if (want.filterTypes.length > 0) body.filter_types = want.filterTypes;
		const made = await attempt(
			async () => await apiRequest.call(this, 'POST', '/v1/webhooks', body),
		);
		if (!made.ok) {
			if (made.status === 404 || made.status === 405) {
				throw new NodeOperationError(this.getNode(), CREATE_UNSUPPORTED_MESSAGE);
			}
			throw made.error;
		}
		const newId = dataOf(made.value).id;
		if (typeof newId !== 'string' || !newId) {
			throw new NodeOperationError(
				this.getNode(),
				'The service created a webhook endpoint but did not return its ID',
				{
					description:
						'Delete the new endpoint in the service\'s dashboard, then paste an endpoint ID into "Webhook Endpoint ID".',
				},
			);
		}
		id = newId;
		slot.endpointId = id;
		slot.created = true;
	}
	slot.webhookUrl = want.url;
	const endpointId = id;
	const resolved = await attempt(async () => await resolveSecret.call(this, endpointId));
	if (resolved.ok && (resolved.value !== 'none' || want.allowUnsigned)) {
		slot.secretSource = resolved.value;
		return true;
	}
	// Roll back: an endpoint whose deliveries could never be verified is of no use, and n8n does not
	// persist static data of a failed activation, so an endpoint left here would be orphaned.
	const rolledBack = await attempt(async () => await release.call(this, slot));
	const orphan = rolledBack.ok
		? undefined
		: `The endpoint ${endpointId} was registered and could not be removed again: delete it in the service's dashboard.`;
	if (!resolved.ok) {
		if (orphan) {
			throw new NodeOperationError(
				this.getNode(),
				"Could not get the webhook endpoint's signing secret",
				{
					description: orphan,
				},
			);
		}
		throw resolved.error;
	}
	throw new NodeOperationError(
		this.getNode(),
		NO_SECRET_MESSAGE,
		orphan ? { description: orphan } : {},
	);
}

export async function deleteWebhook(this: IHookFunctions): Promise<boolean> {
	const slot = getSlot(this);
	await release.call(this, slot);
	// The remembered webhook-ids are kept: saving an active workflow deactivates and activates it
	// again, and a retry arriving in between must still count as a duplicate.
	return true;
}

export { cacheKey, nodeKey };
