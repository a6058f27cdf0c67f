/**
 * Signing, for tests only: the trigger only verifies. Built on the node's own HMAC
 * (`computeSignature`), which test/unit/standardWebhooks.properties.test.ts checks against the
 * `standardwebhooks` library.
 */
import {
	computeSignature,
	decodeSecret,
} from '../../nodes/BusinessFinance/helpers/standardWebhooks';

/** True when the secret can be used to sign and verify. */
export function isUsableSecret(secret: unknown): boolean {
	return typeof secret === 'string' && decodeSecret(secret) !== undefined;
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

/** The three headers of a delivery signed with `secret`, under `webhook-*` names. */
export function signedHeaders(
	secret: string,
	body: string,
	opts: { id: string; ts: number },
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
	return {
		'webhook-id': opts.id,
		'webhook-timestamp': String(opts.ts),
		'webhook-signature': signWebhook(secret, opts.id, opts.ts, body),
	};
}

/** The same headers under the `svix-*` names Standard Webhooks receivers also accept. */
export function asSvix(headers: Record<string, string>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers))
		out[name.replace(/^webhook-/, 'svix-')] = value;
	return out;
}
