/**
 * Signing, for tests only: the trigger only verifies. An HMAC of its own (node:crypto), not the
 * node's code, so the node is checked against it; test/unit/standardWebhooks.properties.test.ts
 * checks it against the `standardwebhooks` library.
 */
import { createHmac } from 'crypto';

import {
	readSignedMessage,
	signatureMatches,
	type WebhookHeaders,
} from '../../nodes/BusinessFinance/trigger/standardWebhooks';

/** The Standard Webhooks specification's test vector (a published secret, not a real one). */
export const STANDARD_VECTOR = {
	vectorWhsec: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
	id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
	timestamp: 1614265330,
	body: '{"test": 2432232314}',
	signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

/** Signs a message: the `webhook-signature` value `v1,<base64>`. Throws on an unusable secret. */
export function signWebhook(
	secret: string,
	msgId: string,
	timestampSeconds: number,
	rawBody: string | Buffer,
): string {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	if (key.length === 0) throw new Error('The webhook signing secret is not valid');
	const hmac = createHmac('sha256', key).update(`${msgId}.${Math.floor(timestampSeconds)}.`);
	return `v1,${hmac.update(rawBody).digest('base64')}`;
}

export const webhookHeaders = (id: string, timestamp: number | string, signature: string) => ({
	'webhook-id': id,
	'webhook-timestamp': String(timestamp),
	'webhook-signature': signature,
});

export function signedHeaders(
	secret: string,
	body: string,
	opts: { id: string; ts: number },
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
	return webhookHeaders(opts.id, opts.ts, signWebhook(secret, opts.id, opts.ts, body));
}

/** The same headers under the `svix-*` names Standard Webhooks receivers also accept. */
export function asSvix(headers: Record<string, string>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers))
		out[name.replace(/^webhook-/, 'svix-')] = value;
	return out;
}

/** What receive.ts checks of a delivery once it has the secret: the headers, then the signature. */
export function verifies(
	secret: string,
	headers: WebhookHeaders,
	rawBody: string | Buffer,
	options: Parameters<typeof readSignedMessage>[1],
): boolean {
	const read = readSignedMessage(headers, options);
	return read.ok && signatureMatches(secret, read.message, rawBody);
}
