/** Redaction (redact.ts): the key in every form a service may echo it in, never in an error. */
import fc from 'fast-check';

import { redact } from '../../nodes/BusinessFinance/transport/redact';

const keyChar = fc.constantFrom(
	...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-.~'.split(''),
);
const key = fc
	.array(keyChar, { minLength: 12, maxLength: 48 })
	.map((chars) => `svc_${chars.join('')}`);
const text = fc.string({ maxLength: 20 });

const encodings: Array<[string, (s: string) => string]> = [
	['as is', (s) => s],
	['URL-encoded', encodeURIComponent],
	[
		'URL-encoded, lower-case hex',
		(s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
	],
	[
		'with every byte percent-encoded, hex in mixed case',
		(s) =>
			[...Buffer.from(s)]
				.map((b) => `%${b.toString(16).padStart(2, '0')}`)
				.map((e, i) => (i % 2 ? e.toUpperCase() : e))
				.join(''),
	],
	['base64', (s) => Buffer.from(s).toString('base64')],
	['base64url', (s) => Buffer.from(s).toString('base64url')],
];

/** Whether the key's secret part (after svc_) can be read back from `out` in the given form. */
function readable(out: string, secret: string, name: string): boolean {
	if (name.startsWith('base64')) {
		const alphabet = name === 'base64' ? 'base64' : 'base64url';
		const tokens = out.match(/[A-Za-z0-9+/_=-]{6,}/g) ?? [];
		return tokens.some((t) =>
			[0, 1, 2, 3].some((shift) =>
				Buffer.from(t.slice(shift), alphabet).toString('latin1').includes(secret),
			),
		);
	}
	return decodeURIComponentSafe(out).includes(secret);
}

function decodeURIComponentSafe(s: string): string {
	try {
		return decodeURIComponent(s);
	} catch {
		return s;
	}
}

describe('redact', () => {
	it.each(encodings)(
		'property: a key embedded %s in any text cannot be read back',
		(name, encode) => {
			fc.assert(
				fc.property(key, text, text, (k, before, after) => {
					const out = redact(encode(`${before}Authorization: Bearer ${k}${after}`), [k]);
					expect(readable(out, k.slice(4, 16), name)).toBe(false);
				}),
				{ numRuns: 300 },
			);
		},
	);

	it('leaves text without the key alone, and scrubs what looks like another key or a webhook secret', () => {
		expect(redact('amount must be at least 0.01', ['svc_dummy_abcdef012345'])).toBe(
			'amount must be at least 0.01',
		);
		expect(redact('key svc_dummy+other/key=1 and whsec_dummy+abc=', [])).toBe(
			'key svc_[redacted] and whsec_[redacted]',
		);
	});
});
