import fc from 'fast-check';
import type { ServerResponse } from 'http';
import { inspect } from 'util';

import { redact } from '../../nodes/BusinessFinance/transport/redact';
import { failure } from './transport-fakes';
import {
	getVendors,
	HTTP_KEY as KEY,
	okHeaders,
	serve,
	transportWithShiftableClock,
	useScriptedServer,
} from './transport-http';
import { answer } from '../helpers/scripted-server';

useScriptedServer();

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

/** `text` read every way it may carry the key: as is, percent-decoded, and each base64-looking
 * stretch decoded (either alphabet) from each of 4 starting points. */
function readings(text: string): string {
	const percentDecoded = text.replace(/(%[0-9a-f]{2})+/gi, (run) => {
		try {
			return decodeURIComponent(run);
		} catch {
			return run;
		}
	});
	const tokens = text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? [];
	const decoded = tokens
		.flatMap((token) => [0, 1, 2, 3].map((shift) => token.slice(shift)))
		.flatMap((token) => (['base64', 'base64url'] as const).map((a) => Buffer.from(token, a)))
		.map((bytes) => bytes.toString('latin1'));
	return [text, percentDecoded, ...decoded].join('\n');
}

/** The first 10 characters in a row of `key` that `text`, read every way, shows; if any. */
function leakedPiece(text: string, key: string): string | undefined {
	const all = readings(text);
	for (let i = 0; i + 10 <= key.length; i++) {
		if (all.includes(key.slice(i, i + 10))) return key.slice(i, i + 10);
	}
	return undefined;
}

describe('redact', () => {
	it.each(encodings)('property: a key embedded %s in any text cannot be read back', (_, encode) => {
		fc.assert(
			fc.property(key, text, text, (k, before, after) => {
				const out = redact(encode(`${before}Authorization: Bearer ${k}${after}`), [k]);
				expect(leakedPiece(out, k)).toBeUndefined();
			}),
			{ numRuns: 300 },
		);
	});

	it('leaves text without the key alone, and scrubs what looks like another key or a webhook secret', () => {
		expect(redact('amount must be at least 0.01', ['svc_dummy_abcdef012345'])).toBe(
			'amount must be at least 0.01',
		);
		expect(redact('key svc_dummy+other/key=1 and whsec_dummy+abc=', [])).toBe(
			'key svc_[redacted] and whsec_[redacted]',
		);
	});
});

describe('redaction', () => {
	/** Every byte percent-encoded (hex in mixed case) but each third, which stays a letter. */
	const percentEncoded = (key: string) =>
		[...Buffer.from(key)]
			.map((byte, i) => {
				const hex = byte.toString(16).padStart(2, '0');
				if (i % 3 === 0) return String.fromCharCode(byte);
				return `%${i % 2 ? hex : hex.toUpperCase()}`;
			})
			.join('');
	const base64Header = (header: string) =>
		Buffer.from(`Authorization: ${header}`).toString('base64');
	const apiAnswer = (status: number, code: string, message: string) => (res: ServerResponse) =>
		answer(res, status, { error: { code, message } }, okHeaders());

	// Through a transport: a service's message and a redirect's Location, as n8n-core's stack carries.
	it.each<[string, (header: string) => (res: ServerResponse) => void, RegExp]>([
		[
			// The cut falls 3 characters before the end of the encoded header: the rest of it would
			// still decode to most of the key if the message were cut before it is redacted.
			'in base64 where the message is cut at 300 characters',
			(header) => {
				const encoded = base64Header(header);
				const text = `${'Invalid API key.'.padEnd(300 - encoded.length + 3 - 1, '.')} ${encoded}`;
				return apiAnswer(401, 'INVALID_API_KEY', text);
			},
			/^INVALID_API_KEY: Invalid API key\.{10}/,
		],
		[
			'percent-encoded (mixed-case hex, letters too) in the Location of a redirect',
			() => (res) => {
				const location = `https://login.example.com/?key=${percentEncoded(KEY)}`;
				res.writeHead(302, { location, ...okHeaders() });
				res.end();
			},
			/^The service answered HTTP 302 \(a redirect to https:\/\/login\.example\.com\//,
		],
	])('a key echoed %s never reaches the error', async (_, echo, message) => {
		await serve((req, res) => echo(String(req.headers.authorization))(res));
		const { t } = transportWithShiftableClock();
		const error = await failure(getVendors(t));
		expect(error.message).toMatch(message);
		// wherever the error is shown or logged
		const shown = [error.message, error.description, JSON.stringify(error)];
		const text = [...shown, inspect(error, { depth: 10, showHidden: true })].join('\n');
		expect(leakedPiece(text, KEY)).toBeUndefined();
	});
});
