import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { ALL_EVENTS } from './description';

/** The fields of an endpoint that activation changes and deactivation puts back. */
export interface EndpointSettings {
	url?: string;
	filter_types?: string[];
	description?: string;
	disabled?: boolean;
}

/**
 * What the trigger remembers between activation and deactivation, per mode: production
 * (an active workflow) and test ("Listen for test event") use separate slots, so a test run
 * never restores or deletes what the active workflow set up.
 * Kept in the node's static data, which n8n persists with the workflow. No secret is stored here.
 */
export interface SlotState extends IDataObject {
	/** The endpoint the trigger registered on. */
	endpointId?: string;
	/** True when the trigger created the endpoint (deleted on deactivation). */
	created?: boolean;
	/** The endpoint's settings before the trigger first changed it (given endpoints only). */
	original?: IDataObject;
	/** Which endpoint `original` belongs to. */
	originalOf?: string;
	/** The webhook URL the endpoint was pointed at. */
	webhookUrl?: string;
	/** Where the signing secret came from at activation. */
	secretSource?: 'endpoint' | 'credential' | 'none';
}

/**
 * Which slot a call belongs to. Activation of a test webhook and its deliveries run in mode
 * 'manual'. Deactivation runs in mode 'internal' for both (n8n 2.x), so a test registration is
 * recognised by its webhook URL: n8n hands the hook the test URL (…/webhook-test/…) there.
 */
export function slotName(ctx: IHookFunctions | IWebhookFunctions): 'production' | 'test' {
	if (ctx.getMode() === 'manual') return 'test';
	const test = ctx.getWorkflowStaticData('node').test as SlotState | undefined;
	if (test?.webhookUrl && test.webhookUrl === ctx.getNodeWebhookUrl('default')) return 'test';
	return 'production';
}

export function getSlot(ctx: IHookFunctions | IWebhookFunctions): SlotState {
	const data = ctx.getWorkflowStaticData('node');
	const name = slotName(ctx);
	if (typeof data[name] !== 'object' || data[name] === null) {
		data[name] = {};
	}
	return data[name] as SlotState;
}

export function clearSlot(slot: SlotState): void {
	for (const key of Object.keys(slot)) {
		delete slot[key];
	}
}

/** The selected event types; an empty list means every type (no filter). */
export function selectedEventTypes(events: unknown): string[] {
	const list = Array.isArray(events)
		? events.map(String)
		: typeof events === 'string' && events
			? [events]
			: [];
	if (list.length === 0 || list.includes(ALL_EVENTS)) return [];
	return [...new Set(list)].sort();
}

export function sameTypes(a: unknown, b: string[]): boolean {
	const left = Array.isArray(a) ? [...new Set(a.map(String))].sort() : [];
	return left.length === b.length && left.every((value, i) => value === b[i]);
}

export function pickSettings(endpoint: IDataObject): IDataObject {
	const saved: IDataObject = {};
	if (typeof endpoint.url === 'string') saved.url = endpoint.url;
	if (Array.isArray(endpoint.filter_types)) saved.filter_types = endpoint.filter_types.map(String);
	if (typeof endpoint.description === 'string') saved.description = endpoint.description;
	if (typeof endpoint.disabled === 'boolean') saved.disabled = endpoint.disabled;
	return saved;
}
