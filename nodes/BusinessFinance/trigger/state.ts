/** The trigger's registration: in static data per mode, and in memory while activation runs. */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { isPlainObject } from '../helpers/resourceFields';
import { nodeMemory, peekNode, type Registration, type SecretSource } from './memory';

/**
 * What the trigger remembers between activation and deactivation, in separate slots for production
 * and test, so a test run never touches what the active workflow set up. No secret is stored here.
 */
export interface SlotState extends IDataObject {
	endpointId?: string;
	/** True when the trigger created the endpoint (deleted on deactivation). */
	created?: boolean;
	/** The endpoint's settings before the trigger first changed it (given endpoints only). */
	original?: IDataObject;
	originalOf?: string;
	/** The webhook URL the endpoint was pointed at. */
	webhookUrl?: string;
	secretSource?: SecretSource;
}

type Ctx = IHookFunctions | IWebhookFunctions;

/**
 * Which slot a call belongs to. Activation of a test webhook and its deliveries run in mode
 * 'manual'. Deactivation runs in mode 'internal' for both (n8n 2.x), so a test registration is
 * recognised by its webhook URL: n8n hands the hook the test URL (…/webhook-test/…) there.
 */
export function slotName(ctx: Ctx): 'production' | 'test' {
	if (ctx.getMode() === 'manual') return 'test';
	const test = ctx.getWorkflowStaticData('node').test as SlotState | undefined;
	if (test?.webhookUrl && test.webhookUrl === ctx.getNodeWebhookUrl('default')) return 'test';
	return 'production';
}

/** The slot for the webhook methods, created when missing (they own the static data). */
export function getSlot(ctx: IHookFunctions): SlotState {
	const data = ctx.getWorkflowStaticData('node');
	const name = slotName(ctx);
	if (!isPlainObject(data[name])) data[name] = {};
	return data[name] as SlotState;
}

/**
 * The slot as a delivery sees it, without writing anything. n8n runs each webhook request on the
 * static data as last saved and saves it back when the request changed it: a delivery that wrote
 * here while activation was still running would overwrite what activation stores.
 */
export function readSlot(ctx: IWebhookFunctions): Readonly<SlotState> {
	const slot = ctx.getWorkflowStaticData('node')[slotName(ctx)];
	return isPlainObject(slot) ? (slot as SlotState) : {};
}

export function clearSlot(slot: SlotState): void {
	for (const key of Object.keys(slot)) delete slot[key];
}

/** Identifies one trigger node's registration (workflow, node, slot) in the process's memory. */
export function nodeKey(ctx: Ctx): string {
	return `${ctx.getWorkflow().id ?? ''}|${ctx.getNode().id}|${slotName(ctx)}`;
}

/** Identifies what this process keeps of one endpoint for one trigger node (its secret, its settings). */
export function endpointKey(ctx: Ctx, endpointId: string): string {
	return `${ctx.getWorkflow().id ?? ''}|${ctx.getNode().id}|${endpointId}`;
}

/** Activation learned the endpoint (and maybe the secret source): saved, told to this process. */
export function register(
	ctx: IHookFunctions,
	slot: SlotState,
	endpointId: string,
	source?: SecretSource,
): void {
	if (source !== undefined) slot.secretSource = source;
	const memory = nodeMemory(nodeKey(ctx), Math.floor(Date.now() / 1000), ctx.logger);
	memory.registration = { endpointId, secretSource: source };
}

/** Deactivation: the slot is emptied and this process forgets the registration. */
export function unregister(ctx: IHookFunctions, slot: SlotState): void {
	const memory = peekNode(nodeKey(ctx));
	if (memory) memory.registration = undefined;
	clearSlot(slot);
}

/**
 * The registration a delivery is checked against: the saved one when there is one, else what an
 * activation still running in this process announced, else the endpoint named in the parameters.
 */
export function registrationOf(ctx: IWebhookFunctions, givenEndpointId: string): Registration {
	const slot = readSlot(ctx);
	if (slot.endpointId) return { endpointId: slot.endpointId, secretSource: slot.secretSource };
	const pending = peekNode(nodeKey(ctx))?.registration;
	if (pending?.endpointId) return pending;
	return { endpointId: givenEndpointId || undefined, secretSource: slot.secretSource };
}
