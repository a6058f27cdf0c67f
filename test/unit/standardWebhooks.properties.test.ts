import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';

import { signWebhook, verifies, webhookHeaders } from '../helpers/standardWebhooks';

const secretArb = fc
	.uint8Array({ minLength: 1, maxLength: 64 })
	.map((bytes) => 'whsec_' + Buffer.from(bytes).toString('base64'));
const idArb = fc
	.string({ minLength: 1, maxLength: 40 })
	.filter((id) => id.trim() === id && id !== '');
const timestampArb = fc.integer({ min: 0, max: 4_000_000_000 });
// Bodies as text (what the library signs: it turns a Buffer into a string first), any code point.
const bodyArb = fc.oneof(
	fc.json(),
	fc.string({ unit: 'binary', maxLength: 300 }),
	fc.string({ maxLength: 300 }),
);

const RUNS = { numRuns: 300 };

describe('standardWebhooks against the standardwebhooks library', () => {
	it('signs exactly as the library does', () => {
		fc.assert(
			fc.property(secretArb, idArb, timestampArb, bodyArb, (secret, id, timestamp, body) => {
				const theirs = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
				expect(signWebhook(secret, id, timestamp, body)).toBe(theirs);
				expect(signWebhook(secret, id, timestamp, Buffer.from(body, 'utf8'))).toBe(theirs);
			}),
			RUNS,
		);
	});

	it('rejects every one-byte change of the body', () => {
		fc.assert(
			fc.property(
				secretArb,
				idArb,
				timestampArb,
				fc.uint8Array({ minLength: 1, maxLength: 200 }),
				fc.nat(),
				fc.integer({ min: 1, max: 255 }),
				(secret, id, timestamp, bytes, position, delta) => {
					const body = Buffer.from(bytes);
					const signature = signWebhook(secret, id, timestamp, body);
					const changed = Buffer.from(body);
					const index = position % changed.length;
					changed[index] = (changed[index] + delta) % 256;
					const headers = webhookHeaders(id, timestamp, signature);
					expect(verifies(secret, headers, body, { nowSeconds: timestamp })).toBe(true);
					expect(verifies(secret, headers, changed, { nowSeconds: timestamp })).toBe(false);
				},
			),
			RUNS,
		);
	});

	it('rejects every one-character change of the signature, as the library does', () => {
		const base64Chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';
		fc.assert(
			fc.property(
				secretArb,
				idArb,
				bodyArb,
				fc.nat(),
				fc.constantFrom(...base64Chars.split('')),
				(secret, id, body, position, replacement) => {
					const now = Math.floor(Date.now() / 1000);
					const signature = signWebhook(secret, id, now, body);
					const index = 3 + (position % (signature.length - 3));
					fc.pre(signature[index] !== replacement);
					const changed = signature.slice(0, index) + replacement + signature.slice(index + 1);
					const headers = webhookHeaders(id, now, changed);
					expect(verifies(secret, headers, body, { nowSeconds: now })).toBe(false);
					expect(() => new Webhook(secret).verify(body, headers, { jsonParse: false })).toThrow(
						/No matching signature/,
					);
				},
			),
			RUNS,
		);
	});
});
