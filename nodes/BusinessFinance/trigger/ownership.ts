/**
 * An endpoint the user gives: who holds it, where its own settings are kept meanwhile, and how
 * they come back (docs/trigger.md, "An endpoint you give: who holds it").
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import {
	activationError,
	attempt,
	fetchEndpoint,
	parseUrl,
	patchEndpoint,
	pickSettings,
	restoreEndpoint,
} from './endpoints';
import { endpointMemory, peekEndpoint } from './memory';
import { endpointKey, slotName, type SlotState } from './state';

/** Who an endpoint's URL belongs to, seen from one trigger node in one mode. */
type Holder = 'user' | 'self' | 'sibling' | 'other';

/**
 * `self`: the caller's own URL; `sibling`: the same trigger node in its other mode (production or
 * test); `other`: another Business Finance Trigger of this n8n (same origin and URL layout, path
 * `<prefix>/<webhook-endpoint>/<webhookId>/webhook`); `user`: anything else.
 */
function holderOf(url: unknown, ownUrl: string, webhookId: string | undefined): Holder {
	if (typeof url !== 'string' || !url) return 'user';
	if (url === ownUrl) return 'self';
	const theirs = parseUrl(url);
	const ours = parseUrl(ownUrl);
	if (!theirs || !ours || theirs.origin !== ours.origin) return 'user';
	const a = theirs.pathname.split('/');
	const b = ours.pathname.split('/');
	const sameLayout =
		a.length === b.length &&
		a[a.length - 1] === b[b.length - 1] &&
		a.slice(0, -3).join('/') === b.slice(0, -3).join('/');
	if (!sameLayout) return 'user';
	if (!webhookId || a[a.length - 2] !== webhookId) return 'other';
	// A service may hand the URL back normalised (host case, escapes): compared by its parts.
	return a[a.length - 3] === b[b.length - 3] ? 'self' : 'sibling';
}

/** The endpoint's own settings as the slot or this process recorded them. */
function knownOriginal(ctx: IHookFunctions, slot: SlotState, id: string): IDataObject | undefined {
	if (slot.originalOf === id && slot.original) return slot.original;
	return peekEndpoint(endpointKey(ctx, id))?.original;
}

/**
 * The endpoint's own settings before this trigger points it here, read or recorded earlier.
 * Throws when unknown, or when another workflow (or the active one, for a test) holds it.
 */
export function originalBeforeAdopting(
	ctx: IHookFunctions,
	slot: SlotState,
	id: string,
	endpoint: IDataObject,
	ownUrl: string,
): IDataObject {
	const node = ctx.getNode();
	const holder = holderOf(endpoint.url, ownUrl, node.webhookId);
	if (holder === 'user') return pickSettings(endpoint);
	if (holder === 'other') {
		throw activationError(
			node,
			`Webhook endpoint "${id}" already points at another workflow's Business Finance Trigger in this n8n`,
			"An endpoint serves one workflow at a time. Deactivate the workflow that uses it, or give this trigger another endpoint (or none, to let it create one). If no workflow uses it any more, set its URL back to your own system in the service's dashboard.",
		);
	}
	if (holder === 'sibling' && slotName(ctx) === 'test') {
		throw activationError(
			node,
			`Webhook endpoint "${id}" is in use by this workflow's active version, which keeps it while you listen for a test event`,
			'Deactivate the workflow to test with this endpoint, or clear the Webhook Endpoint ID to test with an endpoint the trigger creates.',
		);
	}
	const original = knownOriginal(ctx, slot, id);
	if (original) return original;
	throw activationError(
		node,
		`Webhook endpoint "${id}" already points at this trigger, but the settings it had before are not recorded`,
		"Without them, deactivating could not give the endpoint back to your own system. Set its URL back to your system in the service's dashboard, then activate again.",
	);
}

/** Records the original in the slot and in memory: from here on, nothing can lose it. */
export function recordOriginal(
	ctx: IHookFunctions,
	slot: SlotState,
	id: string,
	original: IDataObject,
	ownUrl: string,
): void {
	endpointMemory(endpointKey(ctx, id)).original = original;
	Object.assign(slot, {
		endpointId: id,
		created: false,
		original,
		originalOf: id,
		webhookUrl: ownUrl,
	});
}

/** PATCHes the endpoint to point here; on failure puts the original back, or keeps it recorded. */
export async function pointHere(
	ctx: IHookFunctions,
	id: string,
	settings: IDataObject,
	original: IDataObject,
): Promise<void> {
	const patched = await attempt(async () => await patchEndpoint.call(ctx, id, settings));
	if (patched.ok) return;
	const putBack = await attempt(async () => await restoreEndpoint.call(ctx, id, original));
	if (putBack.ok) forgetOriginal(ctx, id);
	throw activationError(
		ctx.getNode(),
		`Could not point webhook endpoint "${id}" at this workflow: ${errorText(patched.error)}`,
		putBack.ok
			? 'Its own settings were put back. Activate the workflow again to retry.'
			: 'The service may have applied the change. Its own settings are kept and put back on the next activation or deactivation of this workflow.',
	);
}

/**
 * Deactivation (and clean-up after a failed activation): puts the own settings back if the
 * endpoint still points here. False when that failed: the original stays recorded and logged.
 */
export async function releaseAdopted(
	ctx: IHookFunctions,
	slot: SlotState,
	id: string,
): Promise<boolean> {
	const original = knownOriginal(ctx, slot, id);
	if (!original) return true;
	const ownUrl = ctx.getNodeWebhookUrl('default') ?? slot.webhookUrl ?? '';
	const released = await attempt(async () => {
		const endpoint = await fetchEndpoint.call(ctx, id);
		if (endpoint && holderOf(endpoint.url, ownUrl, ctx.getNode().webhookId) === 'self') {
			await restoreEndpoint.call(ctx, id, original);
		}
	});
	if (released.ok) {
		forgetOriginal(ctx, id);
		return true;
	}
	recordOriginal(ctx, slot, id, original, ownUrl);
	ctx.logger.warn(
		`Business Finance Trigger "${ctx.getNode().name}": could not put back the settings of webhook endpoint ${id}; they are kept and put back on the next activation or deactivation of the workflow (${errorText(released.error)})`,
	);
	return false;
}

function forgetOriginal(ctx: IHookFunctions, id: string): void {
	const memory = peekEndpoint(endpointKey(ctx, id));
	if (memory) memory.original = undefined;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
