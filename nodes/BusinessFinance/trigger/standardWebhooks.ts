/**
 * Standard Webhooks (https://www.standardwebhooks.com/) verification, as the service signs
 * (sandbox/API.md): `webhook-*` headers (or their `svix-*` aliases), HMAC-SHA256 of
 * `${id}.${timestamp}.${raw body}`, `v1,<base64>` entries compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'crypto';

interface VerifyOptions {
	/** Maximum age of `webhook-timestamp`, either way, in seconds. Default: DEFAULT_TOLERANCE_SECONDS. */
	toleranceSeconds?: number;
	/** The current time in Unix seconds (tests). Default: now. */
	nowSeconds?: number;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** What a delivery says about itself, once its headers passed every check that needs no secret. */
export interface SignedMessage {
	id: string;
	/** Unix seconds, as sent. */
	timestamp: number;
	/** The base64 part of every well-formed `v1,` entry. */
	signatures: string[];
}

type ReadResult =
	| { ok: true; message: SignedMessage }
	/** `unsigned`: no signature header; `outsideTolerance`: only the timestamp's distance is wrong. */
	| { ok: false; unsigned: boolean; reason: string; outsideTolerance?: boolean; id?: string };

export const DEFAULT_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';
/** An HMAC-SHA256 in standard base64: 32 bytes are 43 characters and one `=`. */
const V1_SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;
const TIMESTAMP = /^\d{1,15}$/;
/** Ids are short tokens (`msg_…`, `evt_…`); control characters or a huge id are never genuine. */
const MAX_ID_LENGTH = 256;
// Compared by code point: a regular expression with control characters is refused by the linter.
const hasControlCharacter = (text: string) =>
	[...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** The HMAC key of a secret (`whsec_<base64>` or bare base64); undefined when not usable. */
function decodeSecret(secret: string): Buffer | undefined {
	if (typeof secret !== 'string') return undefined;
	let encoded = secret.trim();
	if (encoded.startsWith(SECRET_PREFIX)) encoded = encoded.slice(SECRET_PREFIX.length);
	// Standard or URL-safe alphabet, optional padding.
	if (encoded === '' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) return undefined;
	const key = Buffer.from(encoded, 'base64');
	return key.length > 0 ? key : undefined;
}

/** The HMAC of a message, base64 (the part after `v1,`). */
function computeSignature(key: Buffer, message: SignedMessage, rawBody: string | Buffer): string {
	return createHmac('sha256', key)
		.update(`${message.id}.${message.timestamp}.`, 'utf8')
		.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
		.digest('base64');
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

/** The timestamp, or what is wrong with it: its form (a string), or its distance from now. */
function timestampProblem(
	timestamp: string,
	options: VerifyOptions,
): string | { outside: string } | { sent: number } {
	if (!TIMESTAMP.test(timestamp)) return 'Invalid webhook-timestamp: expected Unix seconds';
	const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
	const now = Math.floor(options.nowSeconds ?? Date.now() / 1000);
	// Fail closed: a NaN tolerance or clock would make every timestamp pass the window check.
	if (!Number.isFinite(tolerance) || tolerance < 0) {
		return 'Invalid timestamp tolerance: expected a number of seconds, 0 or more';
	}
	if (!Number.isFinite(now)) return 'Invalid current time';
	const sent = Number(timestamp);
	if (now - sent > tolerance) {
		return { outside: `Message timestamp too old (more than ${tolerance} s before now)` };
	}
	if (sent - now > tolerance) {
		return { outside: `Message timestamp too new (more than ${tolerance} s after now)` };
	}
	return { sent };
}

/** The base64 parts of the well-formed `v1,` entries; other versions and malformed ones are dropped. */
function v1Signatures(header: string): string[] {
	return header
		.split(' ')
		.filter((entry) => entry.startsWith('v1,'))
		.map((entry) => entry.slice('v1,'.length))
		.filter((value) => V1_SIGNATURE.test(value));
}

/** A delivery's identity and signatures, after every check that needs no secret (costs nothing). */
export function readSignedMessage(
	headers: WebhookHeaders,
	options: VerifyOptions = {},
): ReadResult {
	const msgId = header(headers, 'webhook-id', 'svix-id');
	const timestamp = header(headers, 'webhook-timestamp', 'svix-timestamp');
	const signatures = header(headers, 'webhook-signature', 'svix-signature');
	if (msgId === undefined || timestamp === undefined || signatures === undefined) {
		const names = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
		const missing = names.filter((_, i) => [msgId, timestamp, signatures][i] === undefined);
		const reason = `Missing header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`;
		return { ok: false, unsigned: signatures === undefined, reason, id: msgId };
	}
	if (msgId.length > MAX_ID_LENGTH || hasControlCharacter(msgId)) {
		return { ok: false, unsigned: false, reason: 'Invalid webhook-id' };
	}
	const time = timestampProblem(timestamp, options);
	if (typeof time === 'string') return { ok: false, unsigned: false, reason: time };
	if ('outside' in time) {
		return { ok: false, unsigned: false, reason: time.outside, outsideTolerance: true };
	}
	const v1 = v1Signatures(signatures);
	if (v1.length === 0) {
		const reason = /(^| )v1,/.test(signatures)
			? 'No matching signature found'
			: 'No v1 signature in the webhook-signature header';
		return { ok: false, unsigned: false, reason };
	}
	return { ok: true, message: { id: msgId, timestamp: time.sent, signatures: v1 } };
}

function sameText(a: string, b: string): boolean {
	const left = Buffer.from(a, 'utf8');
	const right = Buffer.from(b, 'utf8');
	return left.length === right.length && timingSafeEqual(left, right);
}

/** True when one of the message's signatures is the HMAC of its id, timestamp and body under `secret`. */
export function signatureMatches(
	secret: string,
	message: SignedMessage,
	rawBody: string | Buffer,
): boolean {
	const key = decodeSecret(secret);
	if (!key) return false;
	const expected = computeSignature(key, message, rawBody);
	// Compare every entry (map, no early exit) so timing does not tell which one matched.
	return message.signatures.map((signature) => sameText(signature, expected)).includes(true);
}
