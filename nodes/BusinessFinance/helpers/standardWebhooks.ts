/**
 * Standard Webhooks (https://www.standardwebhooks.com/) signing and verification, as the service
 * delivers its events (contract: "Webhook endpoints and events").
 *
 * - Headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (any case; the `svix-*` names
 *   are accepted too).
 * - Signed content: `${id}.${timestamp}.${raw body}`; key: the base64-decoded secret after its
 *   `whsec_` prefix; HMAC-SHA256; the signature header holds space-separated `v1,<base64>`
 *   entries (other versions are ignored).
 * - Signatures are compared in constant time; the timestamp must be within the tolerance either
 *   way. Reasons never include the secret or the expected signature.
 *
 * Pure, and uses only `crypto`.
 */

import { createHmac, timingSafeEqual } from 'crypto';

export type VerifyResult = { ok: true } | { ok: false; reason: string };

export interface VerifyOptions {
	/** Maximum age of `webhook-timestamp`, either way, in seconds. Default 300. */
	toleranceSeconds?: number;
	/** The current time in Unix seconds (tests). Default: now. */
	nowSeconds?: number;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

export const DEFAULT_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';

/**
 * Decodes a signing secret (`whsec_<base64>` or the bare base64) to the HMAC key. Returns
 * undefined when it is not usable (empty, or not base64).
 */
export function decodeSecret(secret: string): Buffer | undefined {
	if (typeof secret !== 'string') return undefined;
	let encoded = secret.trim();
	if (encoded.startsWith(SECRET_PREFIX)) encoded = encoded.slice(SECRET_PREFIX.length);
	// Standard or URL-safe alphabet, optional padding.
	if (encoded === '' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) return undefined;
	const key = Buffer.from(encoded, 'base64');
	return key.length > 0 ? key : undefined;
}

/** True when the secret can be used to sign and verify. */
export function isUsableSecret(secret: unknown): boolean {
	return typeof secret === 'string' && decodeSecret(secret) !== undefined;
}

function toBuffer(body: string | Buffer): Buffer {
	return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

function computeSignature(
	key: Buffer,
	msgId: string,
	timestamp: string,
	rawBody: string | Buffer,
): string {
	return createHmac('sha256', key)
		.update(`${msgId}.${timestamp}.`, 'utf8')
		.update(toBuffer(rawBody))
		.digest('base64');
}

/**
 * Signs a message: returns the `webhook-signature` value `v1,<base64>`. Throws when the secret
 * is not usable (the message does not include it).
 */
export function signWebhook(
	secret: string,
	msgId: string,
	timestampSeconds: number,
	rawBody: string | Buffer,
): string {
	const key = decodeSecret(secret);
	if (!key)
		throw new Error('The webhook signing secret is not valid: expected whsec_ followed by base64');
	return `v1,${computeSignature(key, msgId, String(Math.floor(timestampSeconds)), rawBody)}`;
}

function header(headers: WebhookHeaders, ...names: string[]): string | undefined {
	for (const name of names) {
		for (const key of Object.keys(headers)) {
			if (key.toLowerCase() !== name) continue;
			const value = headers[key];
			const text = Array.isArray(value) ? value.join(' ') : value;
			if (typeof text === 'string' && text.trim() !== '') return text.trim();
		}
	}
	return undefined;
}

function sameText(a: string, b: string): boolean {
	const left = Buffer.from(a, 'utf8');
	const right = Buffer.from(b, 'utf8');
	return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Verifies a delivery over its raw body. Returns `{ ok: true }` or a reason that can be logged
 * and returned to the sender (it never contains the secret or the expected signature).
 */
export function verifyWebhook(
	secret: string,
	headers: WebhookHeaders,
	rawBody: string | Buffer,
	options: VerifyOptions = {},
): VerifyResult {
	const key = decodeSecret(secret);
	if (!key)
		return {
			ok: false,
			reason: 'The signing secret is not valid (expected whsec_ followed by base64)',
		};

	const msgId = header(headers, 'webhook-id', 'svix-id');
	const timestamp = header(headers, 'webhook-timestamp', 'svix-timestamp');
	const signatures = header(headers, 'webhook-signature', 'svix-signature');
	const missing = [
		msgId === undefined ? 'webhook-id' : undefined,
		timestamp === undefined ? 'webhook-timestamp' : undefined,
		signatures === undefined ? 'webhook-signature' : undefined,
	].filter((name): name is string => name !== undefined);
	if (
		missing.length > 0 ||
		msgId === undefined ||
		timestamp === undefined ||
		signatures === undefined
	) {
		return {
			ok: false,
			reason: `Missing header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
		};
	}

	if (!/^\d{1,15}$/.test(timestamp)) {
		return {
			ok: false,
			reason: 'Invalid webhook-timestamp: expected Unix seconds',
		};
	}
	const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
	const now = Math.floor(options.nowSeconds ?? Date.now() / 1000);
	// Fail closed: a NaN tolerance or clock would make every timestamp pass the window check.
	if (!Number.isFinite(tolerance) || tolerance < 0) {
		return {
			ok: false,
			reason: 'Invalid timestamp tolerance: expected a number of seconds, 0 or more',
		};
	}
	if (!Number.isFinite(now)) return { ok: false, reason: 'Invalid current time' };
	const sent = Number(timestamp);
	if (now - sent > tolerance) {
		return {
			ok: false,
			reason: `Message timestamp too old (more than ${tolerance} s before now)`,
		};
	}
	if (sent - now > tolerance) {
		return {
			ok: false,
			reason: `Message timestamp too new (more than ${tolerance} s after now)`,
		};
	}

	const expected = computeSignature(key, msgId, timestamp, rawBody);
	let sawV1 = false;
	let matched = false;
	for (const entry of signatures.split(' ')) {
		const comma = entry.indexOf(',');
		if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
		sawV1 = true;
		// Compare every v1 entry (no early exit) so timing does not tell which one matched.
		if (sameText(entry.slice(comma + 1), expected)) matched = true;
	}
	if (matched) return { ok: true };
	return {
		ok: false,
		reason: sawV1
			? 'No matching signature found'
			: 'No v1 signature in the webhook-signature header',
	};
}
