// Removing secrets from text: as is, URL-encoded (any mix, either hex case) and inside base64
// (standard or URL-safe, at the three alignments a longer text such as "Bearer <key>" gives it).
const REDACTED = '[redacted]';
/** Shorter secrets are not searched for (they would match ordinary text). */
const MIN_SECRET_LENGTH = 6;

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `%2f` or `%2F` for one byte. */
function percentPattern(byte: number): string {
	const hex = byte.toString(16).padStart(2, '0');
	return `%${[...hex].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('')}`;
}

/** Each character as is or percent-encoded: encoding every byte is valid URL encoding too. */
function urlEncodedPattern(secret: string): string {
	const encoded = (char: string) => [...Buffer.from(char, 'utf8')].map(percentPattern).join('');
	return [...secret].map((char) => `(?:${escapeRegExp(char)}|${encoded(char)})`).join('');
}

/** The part of base64(`offset` bytes + secret) that depends on the secret alone. */
function base64Core(secret: string, offset: number, alphabet: 'base64' | 'base64url'): string {
	const bytes = Buffer.concat([Buffer.alloc(offset), Buffer.from(secret, 'utf8')]);
	const encoded = bytes.toString(alphabet);
	return encoded.slice(Math.ceil((offset * 8) / 6), Math.floor((bytes.length * 8) / 6));
}

function secretPatterns(secret: string): string[] {
	const alphabets = ['base64', 'base64url'] as const;
	const cores = [0, 1, 2].flatMap((offset) => alphabets.map((a) => base64Core(secret, offset, a)));
	return [urlEncodedPattern(secret), ...cores.map(escapeRegExp)];
}

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

/** At most `max` characters, redacted before and after the cut (a cut encoded key still leaks). */
export function redactedExcerpt(text: string, max: number, secrets: Array<string | undefined>) {
	const whole = redact(text, secrets);
	return redact(whole.length > max ? `${whole.slice(0, max)}…` : whole, secrets);
}
