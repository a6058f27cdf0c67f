/**
 * The trigger's webhook methods: `checkExists`, then `create` on activation; `delete` on
 * deactivation and after a failed activation.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import {
	activationError,
	attempt,
	deleteEndpoint,
	fetchEndpoint,
	givenEndpointId,
	patchEndpoint,
	pointsHere,
	postEndpoint,
	target,
	targetSettings,
	type Target,
} from './endpoints';
import { originalBeforeAdopting, pointHere, recordOriginal, releaseAdopted } from './ownership';
import { forgetEndpoint, type SecretSource } from './memory';
import { secretSourceAtActivation } from './secrets';
import { clearSlot, endpointKey, getSlot, register, unregister, type SlotState } from './state';

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const want = target.call(this);
	const slot = getSlot(this);
	const id = want.givenId || (slot.created ? slot.endpointId : undefined);
	if (!id) return false;
	// A given endpoint counts as registered only while its own settings are recorded: otherwise
	// create() runs and records them (or refuses), so that deactivation can put them back.
	if (want.givenId && (slot.endpointId !== id || slot.originalOf !== id || !slot.secretSource)) {
		return false;
	}
	const endpoint = await fetchEndpoint.call(this, id);
	if (!endpoint) {
		// Deleted on the service side: nothing left to restore or delete.
		if (slot.endpointId === id) clearSlot(slot);
		return false;
	}
	if (slot.endpointId && slot.endpointId !== id) return false; // create() releases the old one
	return pointsHere(endpoint, want);
}

export async function create(this: IHookFunctions): Promise<boolean> {
	const want = target.call(this);
	const slot = getSlot(this);
	// A registration from an earlier, different set-up (another endpoint id, or automatic before):
	// undo it first so that no second registration is left behind.
	if (slot.endpointId && (want.givenId ? slot.endpointId !== want.givenId : !slot.created)) {
		const previous = slot.endpointId;
		if (!(await release.call(this, slot))) {
			throw activationError(
				this.getNode(),
				`Could not put back the settings of webhook endpoint "${previous}", which this workflow used before`,
				'They are kept and put back on the next activation or deactivation. Check that the service is reachable, then activate again.',
			);
		}
	}
	if (want.givenId) await adoptEndpoint.call(this, want, slot);
	else await createEndpoint.call(this, want, slot);
	// Published is all the editor says: the address given to the service is what a user checks
	// when nothing arrives (an N8N_WEBHOOK_URL the service cannot reach, say).
	this.logger.info(
		`Business Finance Trigger "${this.getNode().name}" (workflow ${this.getWorkflow().id}): webhook endpoint ${slot.endpointId} sends its events to ${want.url}; the service must be able to reach that address`,
	);
	return true;
}

export async function deleteWebhook(this: IHookFunctions): Promise<boolean> {
	await release.call(this, getSlot(this));
	// The remembered webhook-ids are kept: saving an active workflow deactivates and activates it
	// again, and a retry arriving in between must still count as a duplicate.
	return true;
}

/** Points an endpoint the user owns at this workflow, its own settings recorded first. */
async function adoptEndpoint(this: IHookFunctions, want: Target, slot: SlotState): Promise<void> {
	const id = want.givenId;
	const endpoint = await fetchEndpoint.call(this, id);
	if (!endpoint) {
		throw activationError(
			this.getNode(),
			`Webhook endpoint "${id}" was not found on the service`,
			"Check the 'Webhook Endpoint ID' (it starts with ep_), or leave it empty to let the trigger create an endpoint.",
		);
	}
	const original = originalBeforeAdopting(this, slot, id, endpoint, want.url);
	// Check the secret before changing anything on the service.
	const source = await secretSourceAtActivation(this, id);
	if (source === 'none' && !want.allowUnsigned) throw noSecret(this);
	recordOriginal(this, slot, id, original, want.url);
	register(this, slot, id, source);
	await pointHere(this, id, targetSettings(want), original);
}

/** Creates an endpoint for this workflow (or reuses the one it created before), then its secret. */
async function createEndpoint(this: IHookFunctions, want: Target, slot: SlotState): Promise<void> {
	const id = (await reuseEndpoint.call(this, want, slot)) ?? (await postNew.call(this, want, slot));
	slot.webhookUrl = want.url;
	register(this, slot, id);
	const resolved = await attempt(async () => await secretSourceAtActivation(this, id));
	if (resolved.ok && (resolved.value !== 'none' || want.allowUnsigned)) {
		register(this, slot, id, resolved.value);
	} else {
		await rollback.call(this, slot, id, resolved);
	}
}

/** The endpoint this trigger created earlier, pointed here again; undefined when it is gone. */
async function reuseEndpoint(
	this: IHookFunctions,
	want: Target,
	slot: SlotState,
): Promise<string | undefined> {
	const id = slot.created ? slot.endpointId : undefined;
	if (!id) return undefined;
	if (!(await fetchEndpoint.call(this, id))) {
		clearSlot(slot);
		return undefined;
	}
	await patchEndpoint.call(this, id, targetSettings(want));
	return id;
}

async function postNew(this: IHookFunctions, want: Target, slot: SlotState): Promise<string> {
	const workflow = this.getWorkflow();
	const name = workflow.name ? `"${workflow.name}"` : (workflow.id ?? '');
	const body: IDataObject = {
		url: want.url,
		description: `n8n workflow ${name}`.trim().slice(0, 255),
		disabled: false,
	};
	if (want.filterTypes.length > 0) body.filter_types = want.filterTypes;
	const id = await postEndpoint.call(this, body);
	Object.assign(slot, { endpointId: id, created: true });
	return id;
}

/**
 * Activation failed after the endpoint was registered: remove it, then fail (n8n saves no static
 * data of a failed activation, so the trigger could never delete one left behind).
 */
async function rollback(
	this: IHookFunctions,
	slot: SlotState,
	endpointId: string,
	resolved: { ok: true; value: SecretSource } | { ok: false; error: unknown },
): Promise<never> {
	const removed = await attempt(async () => await release.call(this, slot));
	const orphan = removed.ok
		? undefined
		: `The endpoint ${endpointId} was registered and could not be removed again: delete it in the service's dashboard.`;
	if (resolved.ok) throw noSecret(this, orphan);
	if (!orphan) throw resolved.error;
	const message = "Could not get the webhook endpoint's signing secret";
	throw activationError(this.getNode(), message, orphan);
}

/** Activation found no secret to verify deliveries with; `orphan`: an endpoint left behind. */
const noSecret = (ctx: IHookFunctions, orphan?: string) =>
	activationError(
		ctx.getNode(),
		"No signing secret is available to verify deliveries: the service does not hand out the endpoint's secret. Copy the endpoint's signing secret (whsec_...) from the service's dashboard into the credential's 'Webhook Signing Secret' field, or (not recommended) turn on the option 'Allow Unsigned Deliveries'.",
		orphan,
	);

/**
 * Undoes an earlier activation: deletes the endpoint the trigger created, or puts a given one's
 * settings back (after a failed activation the parameters name it). False when that failed.
 */
async function release(this: IHookFunctions, slot: SlotState): Promise<boolean> {
	const id = slot.endpointId ?? (givenEndpointId(this) || undefined);
	if (id && slot.created) await deleteEndpoint.call(this, id);
	else if (id && !(await releaseAdopted(this, slot, id))) return false;
	if (id) forgetEndpoint(endpointKey(this, id));
	unregister(this, slot);
	return true;
}
