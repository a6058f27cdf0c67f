import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { verifyWebhook } from '../helpers/standardWebhooks';
import { ALL_EVENTS } from './description';
import { cacheKey, credentialSecret, fetchEndpointSecret, nodeKey } from './lifecycle';
import { recallSecret, rememberSecret, seenBefore } from './memory';
import { getSlot, selectedEventTypes } from './state';

/** A cached endpoint secret older than this is fetched again once when a signature does not match (rotation). */
const SECRET_REFRESH_AFTER_MS = 60_000;

type Headers = Record<string, string | string[] | undefined>;

interface RequestLike {
	rawBody?: unknown;
	body?: unknown;
	readRawBody?: () => Promise<void>;
}

/**
 * The request body exactly as it arrived. n8n 2.x reads the body into `req.rawBody` (a Buffer)
 * before it parses JSON, and offers `req.readRawBody()` when it has not read it yet. Only when
 * neither exists is the parsed body serialised again: that can only make a genuine signature
 * fail to match, never make a forged one pass.
 */
async function rawBodyOf(req: RequestLike): Promise<string> {
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	const raw = req.rawBody;
	if (Buffer.isBuffer(raw)) return raw.toString('utf8');
	if (typeof raw === 'string') return raw;
	const body = req.body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (typeof body === 'string') return body;
	if (body !== undefined && body !== null) return JSON.stringify(body);
	return '';
}

function header(headers: Headers, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

function respond(this: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	this.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

interface Secret {
	value: string;
	/** Set for a secret fetched from the service (and cached); it can be refreshed once. */
	fetchedAtMs?: number;
}

/** The secret to verify with: the endpoint's (cached, else fetched), else the credential's. */
async function currentSecret(
	this: IWebhookFunctions,
	endpointId: string | undefined,
): Promise<Secret | undefined> {
	const source = getSlot(this).secretSource;
	if (endpointId && source !== 'credential' && source !== 'none') {
		const key = cacheKey.call(this, endpointId);
		const cached = recallSecret(key);
		if (cached) return { value: cached.secret, fetchedAtMs: cached.fetchedAtMs };
		const fetched = await fetchEndpointSecret.call(this, endpointId);
		if (fetched) {
			rememberSecret(key, fetched);
			return { value: fetched, fetchedAtMs: Date.now() };
		}
	}
	const fromCredential = await credentialSecret.call(this);
	return fromCredential ? { value: fromCredential } : undefined;
}

export async function receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const allowUnsigned = options.allowUnsigned === true;
	const toleranceRaw = Number(options.toleranceSeconds ?? 300);
	const toleranceSeconds = Number.isFinite(toleranceRaw) && toleranceRaw > 0 ? toleranceRaw : 300;
	const output = options.output === 'data' ? 'data' : 'event';

	const headers = this.getHeaderData() as Headers;
	const rawBody = await rawBodyOf(this.getRequestObject() as unknown as RequestLike);
	const signed = header(headers, 'webhook-signature') !== undefined;

	const slot = getSlot(this);
	const endpointId =
		slot.endpointId ||
		String(this.getNodeParameter('webhookEndpointId', '') ?? '').trim() ||
		undefined;

	let secret = await currentSecret.call(this, endpointId);
	let verified = false;
	if (secret && (signed || !allowUnsigned)) {
		const check = () =>
			verifyWebhook(secret!.value, headers, rawBody, {
				toleranceSeconds,
				nowSeconds: Math.floor(Date.now() / 1000),
			});
		let result = check();
		if (
			!result.ok &&
			endpointId &&
			secret.fetchedAtMs !== undefined &&
			Date.now() - secret.fetchedAtMs > SECRET_REFRESH_AFTER_MS
		) {
			// The secret may have been rotated since it was cached: fetch it once more.
			const fresh = await fetchEndpointSecret.call(this, endpointId);
			if (fresh && fresh !== secret.value) {
				rememberSecret(cacheKey.call(this, endpointId), fresh);
				secret = { value: fresh, fetchedAtMs: Date.now() };
				result = check();
			} else if (fresh) {
				rememberSecret(cacheKey.call(this, endpointId), fresh);
			}
		}
		if (!result.ok) {
			return respond.call(this, 401, {
				error: 'invalid_signature',
				message: 'Webhook signature verification failed',
			});
		}
		verified = true;
	} else if (!allowUnsigned) {
		return respond.call(this, 401, {
			error: 'no_secret',
			message: 'The trigger has no signing secret to verify this delivery',
		});
	}

	let event: unknown;
	try {
		event = JSON.parse(rawBody);
	} catch {
		return respond.call(this, 400, {
			error: 'invalid_json',
			message: 'The delivery body is not valid JSON',
		});
	}
	if (typeof event !== 'object' || event === null || Array.isArray(event)) {
		return respond.call(this, 400, {
			error: 'invalid_event',
			message: 'The delivery body is not an event object',
		});
	}
	const evt = event as IDataObject;

	const wanted = selectedEventTypes(this.getNodeParameter('events', [ALL_EVENTS]));
	if (wanted.length > 0 && !wanted.includes(String(evt.type))) {
		return respond.call(this, 200, { received: true, ignored: 'event type not selected' });
	}

	// Retries repeat the webhook-id: acknowledge them without a second execution. Only verified
	// deliveries are recorded (or any, when unsigned ones are allowed), so a forged request cannot
	// block the genuine one.
	const webhookId = header(headers, 'webhook-id');
	if (
		(verified || allowUnsigned) &&
		webhookId &&
		seenBefore(nodeKey.call(this), webhookId, toleranceSeconds)
	) {
		return respond.call(this, 200, { received: true, ignored: 'duplicate delivery' });
	}

	let json: IDataObject;
	if (output === 'data') {
		const data = evt.data;
		json =
			typeof data === 'object' && data !== null && !Array.isArray(data)
				? (data as IDataObject)
				: { data };
	} else {
		json = evt;
	}
	return { workflowData: [[{ json }]] };
}
