import {
	decodeSecret,
	readSignedMessage,
	verifyWebhook,
} from '../../nodes/BusinessFinance/helpers/standardWebhooks';
import { isUsableSecret, signWebhook } from '../helpers/standardWebhooks';

// The Standard Webhooks specification's test vector.
const VECTOR_WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const MSG_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

const headers = (signature = SIGNATURE, timestamp = String(TIMESTAMP), id = MSG_ID) => ({
	'webhook-id': id,
	'webhook-timestamp': timestamp,
	'webhook-signature': signature,
});
const at = (nowSeconds: number, toleranceSeconds?: number) => ({ nowSeconds, toleranceSeconds });

describe('signWebhook', () => {
	it('signs the test vector', () => {
		expect(signWebhook(VECTOR_WHSEC, MSG_ID, TIMESTAMP, BODY)).toBe(SIGNATURE);
	});

	it('accepts the secret without its whsec_ prefix and a Buffer body', () => {
		expect(
			signWebhook(VECTOR_WHSEC.slice('whsec_'.length), MSG_ID, TIMESTAMP, Buffer.from(BODY)),
		).toBe(SIGNATURE);
	});

	it('refuses an unusable secret without repeating it', () => {
		expect(() => signWebhook('whsec_', MSG_ID, TIMESTAMP, BODY)).toThrow(/not valid/);
		expect(() => signWebhook('whsec_not base64!!', MSG_ID, TIMESTAMP, BODY)).toThrow(
			expect.objectContaining({ message: expect.not.stringContaining('not base64!!') }),
		);
	});
});

describe('decodeSecret', () => {
	it('decodes whsec_ and bare base64, refuses empty or non-base64 text', () => {
		expect(decodeSecret(VECTOR_WHSEC)?.toString('base64')).toBe('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
		expect(decodeSecret('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')?.length).toBe(24);
		expect(decodeSecret('')).toBeUndefined();
		expect(decodeSecret('whsec_')).toBeUndefined();
		expect(decodeSecret('whsec_abc def')).toBeUndefined();
		expect(isUsableSecret(VECTOR_WHSEC)).toBe(true);
		expect(isUsableSecret(undefined)).toBe(false);
	});
});

describe('verifyWebhook', () => {
	it('accepts the test vector at its own time', () => {
		const verified = {
			ok: true,
			message: { id: MSG_ID, timestamp: TIMESTAMP, signatures: [SIGNATURE.slice(3)] },
		};
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP))).toEqual(verified);
		expect(verifyWebhook(VECTOR_WHSEC, headers(), Buffer.from(BODY), at(TIMESTAMP))).toEqual(
			verified,
		);
	});

	it('uses the real clock by default: the 2021 vector is too old now', () => {
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY)).toEqual({
			ok: false,
			reason: expect.stringMatching(/too old/),
		});
	});

	it('refuses a forged signature (made with another secret)', () => {
		const forged = signWebhook(
			'whsec_' + Buffer.from('attacker key').toString('base64'),
			MSG_ID,
			TIMESTAMP,
			BODY,
		);
		expect(verifyWebhook(VECTOR_WHSEC, headers(forged), BODY, at(TIMESTAMP))).toEqual({
			ok: false,
			reason: 'No matching signature found',
		});
	});

	it('refuses a tampered body, id or timestamp', () => {
		expect(verifyWebhook(VECTOR_WHSEC, headers(), '{"test": 2432232315}', at(TIMESTAMP)).ok).toBe(
			false,
		);
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY + ' ', at(TIMESTAMP)).ok).toBe(false);
		expect(
			verifyWebhook(
				VECTOR_WHSEC,
				headers(SIGNATURE, String(TIMESTAMP), 'msg_other'),
				BODY,
				at(TIMESTAMP),
			).ok,
		).toBe(false);
		expect(
			verifyWebhook(VECTOR_WHSEC, headers(SIGNATURE, String(TIMESTAMP + 1)), BODY, at(TIMESTAMP))
				.ok,
		).toBe(false);
	});

	it('refuses every single-character change of the body and of the signature', () => {
		for (let i = 0; i < BODY.length; i++) {
			const changed = BODY.slice(0, i) + (BODY[i] === 'x' ? 'y' : 'x') + BODY.slice(i + 1);
			expect(verifyWebhook(VECTOR_WHSEC, headers(), changed, at(TIMESTAMP)).ok).toBe(false);
		}
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=,';
		for (let i = 0; i < SIGNATURE.length; i++) {
			for (const char of alphabet) {
				if (char === SIGNATURE[i]) continue;
				const changed = SIGNATURE.slice(0, i) + char + SIGNATURE.slice(i + 1);
				expect(verifyWebhook(VECTOR_WHSEC, headers(changed), BODY, at(TIMESTAMP)).ok).toBe(false);
			}
		}
	});

	it('applies the tolerance either way, bounds included', () => {
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP + 300)).ok).toBe(true);
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP + 301))).toEqual({
			ok: false,
			reason: expect.stringMatching(/^Message timestamp too old/),
		});
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP - 300)).ok).toBe(true);
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP - 301))).toEqual({
			ok: false,
			reason: expect.stringMatching(/^Message timestamp too new/),
		});
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP + 10, 5)).ok).toBe(false);
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP + 10, 10)).ok).toBe(true);
	});

	it('fails closed on a tolerance or clock that is not a number', () => {
		for (const tolerance of [Number.NaN, -1, Infinity]) {
			expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP, tolerance))).toEqual({
				ok: false,
				reason: 'Invalid timestamp tolerance: expected a number of seconds, 0 or more',
			});
		}
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(Number.NaN)).ok).toBe(false);
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP, 0)).ok).toBe(true);
		expect(verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP + 1, 0)).ok).toBe(false);
	});

	it('checks the timestamp before the signature, so a stale replay is refused as stale', () => {
		const stale = TIMESTAMP - 3600;
		const signature = signWebhook(VECTOR_WHSEC, MSG_ID, stale, BODY);
		expect(
			verifyWebhook(VECTOR_WHSEC, headers(signature, String(stale)), BODY, at(TIMESTAMP)),
		).toEqual({
			ok: false,
			reason: expect.stringMatching(/too old/),
		});
	});

	it('refuses a timestamp that is not Unix seconds', () => {
		for (const bad of [
			'abc',
			'1614265330.5',
			'-1614265330',
			'1614265330abc',
			'2021-02-25T15:02:10Z',
		]) {
			expect(verifyWebhook(VECTOR_WHSEC, headers(SIGNATURE, bad), BODY, at(TIMESTAMP))).toEqual({
				ok: false,
				reason: 'Invalid webhook-timestamp: expected Unix seconds',
			});
		}
	});

	it('names the missing headers of an unsigned delivery', () => {
		expect(verifyWebhook(VECTOR_WHSEC, {}, BODY, at(TIMESTAMP))).toEqual({
			ok: false,
			reason: 'Missing headers: webhook-id, webhook-timestamp, webhook-signature',
		});
		expect(
			verifyWebhook(
				VECTOR_WHSEC,
				{ 'webhook-id': MSG_ID, 'webhook-timestamp': String(TIMESTAMP) },
				BODY,
				at(TIMESTAMP),
			),
		).toEqual({ ok: false, reason: 'Missing header: webhook-signature' });
		expect(verifyWebhook(VECTOR_WHSEC, headers(''), BODY, at(TIMESTAMP))).toEqual({
			ok: false,
			reason: 'Missing header: webhook-signature',
		});
	});

	it('accepts a header with several signatures when one matches, in any position', () => {
		const other = signWebhook(
			'whsec_' + Buffer.from('old key').toString('base64'),
			MSG_ID,
			TIMESTAMP,
			BODY,
		);
		expect(
			verifyWebhook(VECTOR_WHSEC, headers(`${other} ${SIGNATURE}`), BODY, at(TIMESTAMP)).ok,
		).toBe(true);
		expect(
			verifyWebhook(VECTOR_WHSEC, headers(`${SIGNATURE} ${other}`), BODY, at(TIMESTAMP)).ok,
		).toBe(true);
		expect(
			verifyWebhook(VECTOR_WHSEC, headers(`v1,AAAA ${other} v1,`), BODY, at(TIMESTAMP)),
		).toEqual({
			ok: false,
			reason: 'No matching signature found',
		});
	});

	it('ignores signatures of other versions', () => {
		const v2 = SIGNATURE.replace('v1,', 'v2,');
		expect(verifyWebhook(VECTOR_WHSEC, headers(v2), BODY, at(TIMESTAMP))).toEqual({
			ok: false,
			reason: 'No v1 signature in the webhook-signature header',
		});
		expect(
			verifyWebhook(VECTOR_WHSEC, headers(`v1a,${SIGNATURE.slice(3)}`), BODY, at(TIMESTAMP)).ok,
		).toBe(false);
		expect(verifyWebhook(VECTOR_WHSEC, headers(`${v2} ${SIGNATURE}`), BODY, at(TIMESTAMP)).ok).toBe(
			true,
		);
	});

	it('reads headers in any case, as arrays, and under their svix-* names', () => {
		const upper = {
			'Webhook-Id': MSG_ID,
			'WEBHOOK-TIMESTAMP': String(TIMESTAMP),
			'Webhook-Signature': SIGNATURE,
		};
		expect(verifyWebhook(VECTOR_WHSEC, upper, BODY, at(TIMESTAMP)).ok).toBe(true);
		const arrays = {
			'webhook-id': [MSG_ID],
			'webhook-timestamp': [String(TIMESTAMP)],
			'webhook-signature': ['v1,AAAA', SIGNATURE],
		};
		expect(verifyWebhook(VECTOR_WHSEC, arrays, BODY, at(TIMESTAMP)).ok).toBe(true);
		const svix = {
			'svix-id': MSG_ID,
			'svix-timestamp': String(TIMESTAMP),
			'svix-signature': SIGNATURE,
		};
		expect(verifyWebhook(VECTOR_WHSEC, svix, BODY, at(TIMESTAMP)).ok).toBe(true);
	});

	it('accepts the secret as bare base64 and refuses an unusable one', () => {
		expect(
			verifyWebhook('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', headers(), BODY, at(TIMESTAMP)).ok,
		).toBe(true);
		expect(verifyWebhook('whsec_%%%', headers(), BODY, at(TIMESTAMP))).toEqual({
			ok: false,
			reason: expect.stringMatching(/signing secret is not valid/),
		});
	});

	it('never puts the secret or the expected signature into a reason', () => {
		const cases = [
			verifyWebhook(VECTOR_WHSEC, headers('v1,AAAA'), BODY, at(TIMESTAMP)),
			verifyWebhook(VECTOR_WHSEC, headers(), 'tampered', at(TIMESTAMP)),
			verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP + 1000)),
			verifyWebhook(VECTOR_WHSEC, headers(), BODY, at(TIMESTAMP - 1000)),
			verifyWebhook(VECTOR_WHSEC, {}, BODY, at(TIMESTAMP)),
			verifyWebhook(VECTOR_WHSEC, headers(SIGNATURE, 'x'), BODY, at(TIMESTAMP)),
			verifyWebhook('whsec_MfKQ9r8GKYqrTwjUPD8I%%', headers(), BODY, at(TIMESTAMP)),
		];
		for (const result of cases) {
			expect(result.ok).toBe(false);
			const reason = result.ok ? '' : result.reason;
			expect(reason).not.toContain('MfKQ9r8GKYqrTwjUPD8I');
			expect(reason).not.toContain('g0hM9SsE');
		}
	});
});

describe('readSignedMessage', () => {
	it('returns the identity that is verified, whatever the header names', () => {
		const message = { id: MSG_ID, timestamp: TIMESTAMP, signatures: [SIGNATURE.slice(3)] };
		const mixes = [
			headers(),
			{ 'svix-id': MSG_ID, 'svix-timestamp': String(TIMESTAMP), 'svix-signature': SIGNATURE },
			{ 'svix-id': MSG_ID, 'webhook-timestamp': String(TIMESTAMP), 'svix-signature': SIGNATURE },
			{ 'Webhook-Id': MSG_ID, 'SVIX-TIMESTAMP': String(TIMESTAMP), 'webhook-signature': SIGNATURE },
		];
		for (const mix of mixes) {
			expect(readSignedMessage(mix, at(TIMESTAMP))).toEqual({ ok: true, message });
			expect(verifyWebhook(VECTOR_WHSEC, mix, BODY, at(TIMESTAMP))).toEqual({ ok: true, message });
		}
	});

	it('a webhook-* header wins over its svix-* alias, and the signature covers that one', () => {
		const both = { ...headers(), 'svix-id': 'msg_other' };
		expect(readSignedMessage(both, at(TIMESTAMP))).toMatchObject({
			ok: true,
			message: { id: MSG_ID },
		});
		const swapped = { ...headers(SIGNATURE, String(TIMESTAMP), 'msg_other'), 'svix-id': MSG_ID };
		expect(verifyWebhook(VECTOR_WHSEC, swapped, BODY, at(TIMESTAMP)).ok).toBe(false);
	});

	it('tells an unsigned request (no signature under any name) from a badly signed one', () => {
		expect(readSignedMessage({}, at(TIMESTAMP))).toMatchObject({ ok: false, unsigned: true });
		expect(
			readSignedMessage(
				{ 'webhook-id': MSG_ID, 'webhook-timestamp': String(TIMESTAMP) },
				at(TIMESTAMP),
			),
		).toMatchObject({ ok: false, unsigned: true });
		for (const signed of [
			{ 'svix-signature': SIGNATURE },
			{ 'webhook-signature': SIGNATURE },
			headers('v1,AAAA'),
			{ ...headers(), 'webhook-signature': undefined, 'svix-signature': 'v2,abc' },
			headers(SIGNATURE, String(TIMESTAMP - 1000)),
		]) {
			expect(readSignedMessage(signed, at(TIMESTAMP))).toMatchObject({
				ok: false,
				unsigned: false,
			});
		}
	});

	it('tells a timestamp outside the tolerance (a clock or a late retry) from a malformed request', () => {
		for (const ts of [TIMESTAMP - 301, TIMESTAMP + 301]) {
			expect(readSignedMessage(headers(SIGNATURE, String(ts)), at(TIMESTAMP))).toMatchObject({
				ok: false,
				outsideTolerance: true,
			});
		}
		for (const malformed of [
			headers(SIGNATURE, `${TIMESTAMP}000.5`),
			headers('sha256=abc'),
			{ 'webhook-signature': SIGNATURE },
		]) {
			const read = readSignedMessage(malformed, at(TIMESTAMP));
			expect(read.ok).toBe(false);
			expect(read.ok === false && read.outsideTolerance).toBeFalsy();
		}
	});

	it('refuses an id with control characters or longer than 256 characters', () => {
		expect(
			readSignedMessage(headers(SIGNATURE, String(TIMESTAMP), 'msg\u0000x'), at(TIMESTAMP)),
		).toEqual({
			ok: false,
			unsigned: false,
			reason: 'Invalid webhook-id',
		});
		expect(
			readSignedMessage(headers(SIGNATURE, String(TIMESTAMP), 'm'.repeat(257)), at(TIMESTAMP)).ok,
		).toBe(false);
		expect(
			readSignedMessage(headers(SIGNATURE, String(TIMESTAMP), 'm'.repeat(256)), at(TIMESTAMP)).ok,
		).toBe(true);
	});

	it('keeps only well-formed v1 signatures: truncated or extended ones never match', () => {
		for (const changed of [
			SIGNATURE.slice(0, -1),
			SIGNATURE.slice(0, -2),
			`${SIGNATURE}A`,
			`${SIGNATURE}=`,
			`${SIGNATURE}AAAA`,
			`${SIGNATURE.slice(0, -1)}A`,
		]) {
			expect(verifyWebhook(VECTOR_WHSEC, headers(changed), BODY, at(TIMESTAMP))).toEqual({
				ok: false,
				reason: 'No matching signature found',
			});
		}
	});
});
