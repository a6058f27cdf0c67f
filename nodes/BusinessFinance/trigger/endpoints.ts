/** The trigger's calls to the webhook-endpoint routes, and what it compares and restores. */
import type { IDataObject, IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	apiRequest,
	type ApiRequestOptions,
	dataOf,
	getApiErrorInfo,
	type HttpMethod,
	type LostAnswer,
} from '../transport';
import { isPlainObject } from '../helpers/resourceFields';
import { ALL_EVENTS } from '../descriptions/events';
import { webhookEndpointPath } from '../helpers/constants';

export type Ctx = IHookFunctions | IWebhookFunctions;

/** An error of activation or deactivation: what went wrong, and what the user can do about it. */
export const activationError = (node: INode, message: string, description?: string) =>
	new NodeOperationError(node, message, description === undefined ? {} : { description });

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown; status?: number };

/** Runs a request and hands back its error (with the HTTP status) instead of throwing. */
export async function attempt<T>(request: () => Promise<T>): Promise<Outcome<T>> {
	try {
		return { ok: true, value: await request() };
	} catch (error) {
		return { ok: false, error, status: getApiErrorInfo(error)?.status };
	}
}

/** The service has no such route: 404 or 405 (a service without the route, or an older one). */
const MISSING_ROUTE = [404, 405];

/** The service's answer, or undefined when it answers one of the `absent` statuses. */
async function requestUnless(
	ctx: Ctx,
	absent: number[],
	method: HttpMethod,
	path: string,
	body?: IDataObject,
	options?: ApiRequestOptions,
): Promise<IDataObject | undefined> {
	const got = await attempt(
		async () => await apiRequest.call(ctx, method, path, body, undefined, options),
	);
	if (got.ok) return got.value;
	if (got.status !== undefined && absent.includes(got.status)) return undefined;
	throw got.error;
}

/** The answer's `data` when it is an object, else none: fields are then read as missing. */
function recordOf(response: IDataObject): IDataObject {
	const data = dataOf(response);
	return isPlainObject(data) ? data : {};
}

/** The endpoint, or undefined when the service answers 404 (deleted or never existed). */
export async function fetchEndpoint(this: Ctx, id: string): Promise<IDataObject | undefined> {
	const got = await requestUnless(this, [404], 'GET', webhookEndpointPath(id));
	return got && recordOf(got);
}

/** How long a secret fetch may wait, and take in all (the transport's defaults when unset). */
export type SecretFetchLimits = Pick<ApiRequestOptions, 'waitBudgetMs' | 'deadlineMs'>;

/** The endpoint's signing secret, or undefined when the service hands out none. */
export async function fetchEndpointSecret(
	this: Ctx,
	id: string,
	limits?: SecretFetchLimits,
): Promise<string | undefined> {
	const path = `${webhookEndpointPath(id)}/secret`;
	const got = await requestUnless(this, MISSING_ROUTE, 'GET', path, undefined, limits);
	const secret = got && recordOf(got).secret;
	return typeof secret === 'string' && secret.length > 0 ? secret : undefined;
}

/** What a create whose answer was lost may have left behind (the transport's outcome text). */
export const ENDPOINT_LOST: LostAnswer = {
	may: 'the webhook endpoint may have been created',
	check: 'look at the webhook endpoints in the dashboard',
	again: 'a second request may create a second endpoint',
};

/** Creates an endpoint; its id. */
export async function postEndpoint(this: IHookFunctions, body: IDataObject): Promise<string> {
	const options = { lost: ENDPOINT_LOST };
	const made = await requestUnless(this, MISSING_ROUTE, 'POST', '/v1/webhooks', body, options);
	if (!made) {
		throw activationError(
			this.getNode(),
			"The service does not let this account create webhook endpoints through the API. Create an endpoint in the service's dashboard (any URL, it is replaced on activation), then paste its ID (ep_...) into 'Webhook Endpoint ID'.",
		);
	}
	const id = recordOf(made).id;
	if (typeof id !== 'string' || !id) {
		throw activationError(
			this.getNode(),
			'The service created a webhook endpoint but did not return its ID',
			"Delete the new endpoint in the service's dashboard, then paste an endpoint ID into 'Webhook Endpoint ID'.",
		);
	}
	return id;
}

export async function patchEndpoint(this: IHookFunctions, id: string, body: IDataObject) {
	await apiRequest.call(this, 'PATCH', webhookEndpointPath(id), body);
}

/** Deletes an endpoint; one already gone (404) is fine. */
export async function deleteEndpoint(this: IHookFunctions, id: string): Promise<void> {
	await requestUnless(this, [404], 'DELETE', webhookEndpointPath(id));
}

/** Puts back the settings saved before the trigger changed a given endpoint; one gone (404) is fine. */
export async function restoreEndpoint(this: IHookFunctions, id: string, original: IDataObject) {
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
	await requestUnless(this, [404], 'PATCH', webhookEndpointPath(id), body);
}

export type Target = ReturnType<typeof target>;

/** What activation wants the endpoint to look like. */
export function target(this: IHookFunctions) {
	const url = this.getNodeWebhookUrl('default');
	const noUrl = 'n8n did not provide a webhook URL for this trigger';
	if (!url) throw activationError(this.getNode(), noUrl);
	const { allowUnsigned } = this.getNodeParameter('options', {}) as IDataObject;
	return {
		url,
		filterTypes: selectedEventTypes(this.getNodeParameter('events', [])),
		givenId: givenEndpointId(this),
		allowUnsigned: allowUnsigned === true,
	};
}

/** The "Webhook Endpoint ID" parameter, trimmed ('' for automatic). */
export function givenEndpointId(ctx: Ctx): string {
	return String(ctx.getNodeParameter('webhookEndpointId', '') ?? '').trim();
}

/** The settings activation sends: this workflow's URL, the selected events, enabled. */
export function targetSettings(want: Target): IDataObject {
	return { url: want.url, filter_types: want.filterTypes, disabled: false };
}

export function pointsHere(endpoint: IDataObject, want: Target): boolean {
	return (
		sameUrl(endpoint.url, want.url) &&
		sameTypes(endpoint.filter_types, want.filterTypes) &&
		endpoint.disabled !== true
	);
}

/** The selected event types; an empty list means every type (no filter). */
export function selectedEventTypes(events: unknown): string[] {
	const list = (Array.isArray(events) ? events : [events]).filter(Boolean).map(String);
	if (list.length === 0 || list.includes(ALL_EVENTS)) return [];
	return [...new Set(list)].sort();
}

/** The same URL, also when the service hands it back normalised (host case, escapes). */
function sameUrl(url: unknown, wanted: string): boolean {
	if (typeof url !== 'string') return false;
	const parsed = parseUrl(url);
	return url === wanted || (parsed !== undefined && parsed.href === parseUrl(wanted)?.href);
}

export function parseUrl(url: string): URL | undefined {
	try {
		return new URL(url);
	} catch {
		return undefined;
	}
}

/** The same event types, in any order (compared as text: event types hold no comma). */
const sameTypes = (types: unknown, wanted: string[]) =>
	String(Array.isArray(types) ? [...new Set(types.map(String))].sort() : []) === String(wanted);

/** The fields of an endpoint that activation changes and deactivation puts back. */
export function pickSettings(endpoint: IDataObject): IDataObject {
	const saved: IDataObject = {};
	if (typeof endpoint.url === 'string') saved.url = endpoint.url;
	if (Array.isArray(endpoint.filter_types)) saved.filter_types = endpoint.filter_types.map(String);
	if (typeof endpoint.description === 'string') saved.description = endpoint.description;
	if (typeof endpoint.disabled === 'boolean') saved.disabled = endpoint.disabled;
	return saved;
}
