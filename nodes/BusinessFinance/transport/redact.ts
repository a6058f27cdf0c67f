/**
 * Removing secrets from text: the key as is, URL-encoded (any mix of encoded and plain characters,
 * every byte encoded or none, either case of hex) and inside base64 (standard or URL-safe, at any
 * of the three alignments a longer encoded text such as "Authorization: Bearer <key>" can give
 * it), plus anything that looks like a key or a webhook secret.
 */

const REDACTED = '[redacted]';
/** Shorter secrets are not searched for (they would match ordinary text). */
const MIN_SECRET_LENGTH = 6;
const BASE64_ALIGNMENTS = [0, 1, 2];

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `%2f` or `%2F` for one byte. */
function percentPattern(byte: number): string {
	const hex = byte.toString(16).padStart(2, '0');
	return `%${[...hex].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('')}`;
}

/**
 * Matches the secret with each character either as is or percent-encoded: encoding every byte,
 * unreserved ones included, is valid URL encoding too.
 */
function urlEncodedPattern(secret: string): string {
	let pattern = '';
	for (const char of secret) {
		const encoded = [...Buffer.from(char, 'utf8')].map(percentPattern).join('');
		pattern += `(?:${escapeRegExp(char)}|${encoded})`;
	}
	return pattern;
}

/**
 * The part of base64(prefix + secret) that depends on the secret alone, for a prefix of `offset`
 * bytes: it appears in the base64 of any text that holds the secret at that alignment.
 */
function base64Core(secret: string, offset: number, alphabet: 'base64' | 'base64url'): string {
	const bytes = Buffer.concat([Buffer.alloc(offset), Buffer.from(secret, 'utf8')]);
	const encoded = bytes.toString(alphabet);
	return encoded.slice(Math.ceil((offset * 8) / 6), Math.floor((bytes.length * 8) / 6));
}

function secretPatterns(secret: string): string[] {
	const patterns = [urlEncodedPattern(secret)];
	for (const offset of BASE64_ALIGNMENTS) {
		for (const alphabet of ['base64', 'base64url'] as const) {
			patterns.push(escapeRegExp(base64Core(secret, offset, alphabet)));
		}
	}
	return patterns;
}

/** Removes every occurrence of the secrets, in any of the forms above. */
export function redact(text: string, secrets: Array<string | undefined>): string {
	let out = text;
	for (const secret of secrets) {
		if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
		out = out.replace(new RegExp(secretPatterns(secret).join('|'), 'g'), REDACTED);
	}
	out = out.replace(/Bearer\s+[A-Za-z0-9_\-.~+/=%]+/g, `Bearer ${REDACTED}`);
	out = out.replace(/whsec_[A-Za-z0-9+/=_%-]{4,}/g, `whsec_${REDACTED}`);
	return out.replace(/svc_[A-Za-z0-9_\-.~+/=%]{4,}/g, `svc_${REDACTED}`);
}

/**
 * At most `max` characters of `text`, redacted before the cut and again after it: a cut through
 * an encoded key leaves a piece that no pattern matches any more but that still decodes to most
 * of the key.
 */
export function redactedExcerpt(
	text: string,
	max: number,
	secrets: Array<string | undefined>,
): string {
	const whole = redact(text, secrets);
	return redact(whole.length > max ? `${whole.slice(0, max)}…` : whole, secrets);
}
