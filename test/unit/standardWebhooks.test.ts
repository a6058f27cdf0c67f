import {
	readSignedMessage,
	signatureMatches,
	type WebhookHeaders,
} from '../../nodes/BusinessFinance/trigger/standardWebhooks';
import { signWebhook, STANDARD_VECTOR, verifies } from '../helpers/standardWebhooks';

const {
	vectorWhsec: SECRET,
	id: ID,
	timestamp: TS,
	body: BODY,
	signature: SIGNATURE,
} = STANDARD_VECTOR;
const MESSAGE = { id: ID, timestamp: TS, signatures: [SIGNATURE.slice(3)] };

const headers = (signature = SIGNATURE, timestamp = String(TS), id = ID): WebhookHeaders => ({
	'webhook-id': id,
	'webhook-timestamp': timestamp,
	'webhook-signature': signature,
});
const withId = (id: string) => headers(SIGNATURE, String(TS), id);
const at = (nowSeconds: number, toleranceSeconds?: number) => ({ nowSeconds, toleranceSeconds });
const read = (h: WebhookHeaders, now = TS, tolerance?: number) =>
	readSignedMessage(h, at(now, tolerance));
const otherKey = 'whsec_' + Buffer.from('old key').toString('base64');

it('signs and verifies the test vector (secret with or without whsec_), not under another id or timestamp', () => {
	expect(signWebhook(SECRET, ID, TS, BODY)).toBe(SIGNATURE);
	expect(verifies(SECRET, headers(), BODY, at(TS))).toBe(true);
	expect(verifies(SECRET.slice('whsec_'.length), headers(), BODY, at(TS))).toBe(true);
	for (const unusable of ['', 'whsec_', 'whsec_abc def', 'whsec_%%%']) {
		expect(signatureMatches(unusable, MESSAGE, BODY)).toBe(false);
	}
	expect(verifies(SECRET, withId('msg_other'), BODY, at(TS))).toBe(false);
	expect(verifies(SECRET, headers(SIGNATURE, String(TS + 1)), BODY, at(TS))).toBe(false);
});

it.each<[string, number, number | undefined, true | RegExp | string]>([
	['300 s old, tolerance 300', TS + 300, undefined, true],
	['301 s old', TS + 301, undefined, /^Message timestamp too old/],
	['300 s ahead', TS - 300, undefined, true],
	['301 s ahead', TS - 301, undefined, /^Message timestamp too new/],
	['10 s old, tolerance 5', TS + 10, 5, /too old/],
	['now, tolerance 0', TS, 0, true],
	['tolerance NaN', TS, Number.NaN, /^Invalid timestamp tolerance/],
	['tolerance -1', TS, -1, /^Invalid timestamp tolerance/],
	['tolerance Infinity', TS, Infinity, /^Invalid timestamp tolerance/],
	['a clock that is NaN', Number.NaN, undefined, 'Invalid current time'],
])('the window, both ways and failing closed: %s', (_name, now, tolerance, expected) => {
	const result = read(headers(), now, tolerance);
	if (expected === true) expect(result).toEqual({ ok: true, message: MESSAGE });
	else {
		// told apart from a malformed request only outside the window (the log blames the clock)
		const outsideTolerance = /too (old|new)/.test(String(expected)) || undefined;
		const reason = expect.stringMatching(expected);
		expect(result).toEqual({ ok: false, unsigned: false, reason, outsideTolerance });
	}
});

it('uses the real clock by default: the 2021 vector is too old now', () => {
	expect(readSignedMessage(headers())).toMatchObject({ ok: false, outsideTolerance: true });
});

it.each([`${TS}000.5`, '1614265330.5', '-1614265330', '1614265330abc', '2021-02-25T15:02:10Z'])(
	'refuses the timestamp %s (not Unix seconds)',
	(bad) => {
		expect(read(headers(SIGNATURE, bad))).toEqual({
			ok: false,
			unsigned: false,
			reason: 'Invalid webhook-timestamp: expected Unix seconds',
		});
	},
);

const NO_SIGNATURE = 'Missing header: webhook-signature';
const NO_V1 = 'No v1 signature in the webhook-signature header';
it.each<[string, WebhookHeaders, string, boolean]>([
	['none', {}, 'Missing headers: webhook-id, webhook-timestamp, webhook-signature', true],
	['no signature', { 'webhook-id': ID, 'webhook-timestamp': String(TS) }, NO_SIGNATURE, true],
	['an empty signature', headers(''), NO_SIGNATURE, true],
	[
		'only a signature',
		{ 'svix-signature': SIGNATURE },
		'Missing headers: webhook-id, webhook-timestamp',
		false,
	],
	['a v2 signature', headers(SIGNATURE.replace('v1,', 'v2,')), NO_V1, false],
	['another scheme', headers('sha256=abc'), NO_V1, false],
	['a control character in the id', withId('msg\u0000x'), 'Invalid webhook-id', false],
	['an id of 257 characters', withId('m'.repeat(257)), 'Invalid webhook-id', false],
])(
	'headers with %s: refused with a fixed reason, unsigned (with the claimed id) only without a signature',
	(_n, h, reason, unsigned) => {
		// Without a signature, the id the delivery claims is passed on for the duplicate lookup.
		const id = unsigned ? h['webhook-id'] : undefined;
		expect(read(h)).toEqual({ ok: false, unsigned, reason, id });
	},
);

it('keeps only well-formed v1 signatures, any of which may match', () => {
	const other = signWebhook(otherKey, ID, TS, BODY);
	expect(verifies(SECRET, headers(`${other} ${SIGNATURE}`), BODY, at(TS))).toBe(true);
	expect(verifies(SECRET, headers(`${SIGNATURE} ${other}`), BODY, at(TS))).toBe(true);
	expect(verifies(SECRET, headers(`v2,abc ${SIGNATURE}`), BODY, at(TS))).toBe(true);
	expect(read(headers(`v1,AAAA ${other} v1,`))).toMatchObject({
		ok: true,
		message: { signatures: [other.slice(3)] },
	});
	for (const changed of [
		SIGNATURE.slice(0, -1),
		SIGNATURE.slice(0, -2),
		`${SIGNATURE}A`,
		`${SIGNATURE}=`,
		`${SIGNATURE}AAAA`,
		`v1a,${SIGNATURE.slice(3)}`,
	]) {
		expect(read(headers(changed))).toMatchObject({ ok: false, unsigned: false });
	}
	expect(read(withId('m'.repeat(256))).ok).toBe(true);
});

it('reads headers in any case, as arrays, under svix-* names, a webhook-* name winning', () => {
	const forms: WebhookHeaders[] = [
		{ 'Webhook-Id': ID, 'WEBHOOK-TIMESTAMP': String(TS), 'Webhook-Signature': SIGNATURE },
		{
			'webhook-id': [ID],
			'webhook-timestamp': [String(TS)],
			'webhook-signature': ['v1,AAAA', SIGNATURE],
		},
		{ 'svix-id': ID, 'svix-timestamp': String(TS), 'svix-signature': SIGNATURE },
		{ 'svix-id': ID, 'webhook-timestamp': String(TS), 'svix-signature': SIGNATURE },
		{ ...headers(), 'svix-id': 'msg_other' },
	];
	for (const form of forms) {
		expect(read(form)).toEqual({ ok: true, message: MESSAGE });
		expect(verifies(SECRET, form, BODY, at(TS))).toBe(true);
	}
	const swapped = { ...withId('msg_other'), 'svix-id': ID };
	expect(verifies(SECRET, swapped, BODY, at(TS))).toBe(false);
});

it('never puts the secret or the signature into a reason', () => {
	for (const h of [headers('v1,AAAA'), headers(), headers(SIGNATURE, 'x'), {}]) {
		for (const now of [TS + 1000, TS - 1000]) {
			const result = read(h, now);
			expect(result.ok).toBe(false);
			expect(JSON.stringify(result)).not.toMatch(/MfKQ9r8GKYqrTwjUPD8I|g0hM9SsE/);
		}
	}
});
