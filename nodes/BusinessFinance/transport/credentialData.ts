/**
 * The credential's two values, checked before any key is sent, by the same rules for the requests
 * and the credential test: the key is sent exactly as stored (so it must have no whitespace: a
 * test that passed would otherwise be followed by 401s), and only over https:// except to a
 * literal loopback address or `localhost`.
 */

export type CredentialProblem = { message: string; description: string };

const API_KEY_PREFIX = 'svc_';

const PREFIX_PROBLEM: CredentialProblem = {
	message: 'The API key in the Business Finance API credential must start with "svc_"',
	description:
		'Copy the full key from the dashboard (Settings → API Keys). Keys always begin with "svc_"; a key is shown only once, when it is created, so create a new one if you no longer have it.',
};

const WHITESPACE_PROBLEM: CredentialProblem = {
	message: 'The API key in the Business Finance API credential contains a space or line break',
	description:
		'Remove the spaces or line breaks before, after or inside the key (they usually come with copying). The key is sent exactly as entered.',
};

const isSpaceOrControl = (char: string): boolean =>
	/\s/.test(char) || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f;

/** Null when the key can be sent as it is. */
function apiKeyProblem(key: unknown): CredentialProblem | null {
	if (typeof key !== 'string') return PREFIX_PROBLEM;
	// Checked first: " svc_…" is a pasting accident, and saying so helps more than "svc_".
	if ([...key].some(isSpaceOrControl)) return WHITESPACE_PROBLEM;
	if (!key.startsWith(API_KEY_PREFIX) || key.length <= API_KEY_PREFIX.length) return PREFIX_PROBLEM;
	return null;
}

/**
 * Trims spaces, drops trailing slashes and a trailing `/v1` (paths passed to the transport start
 * with `/v1`). Undefined when the value is not an absolute http(s) URL without query, fragment
 * or user info.
 */
export function normaliseBaseUrl(raw: unknown): string | undefined {
	if (typeof raw !== 'string' || /[?#]/.test(raw)) return undefined;
	const value = raw.trim().replace(/(\/+|\/v1)+$/i, '');
	if (!/^https?:\/\/[^/]+/i.test(value)) return undefined;
	try {
		// Rebuilt from the parsed URL: what is checked is what the HTTP layer will connect to.
		const parsed = new URL(value);
		if (parsed.username || parsed.password) return undefined;
		return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
	} catch {
		return undefined;
	}
}

/**
 * A literal loopback address (127.0.0.0/8, ::1, ::ffff:127.x.y.z) or exactly `localhost`, as the
 * URL parser gives it. Names such as `api.localhost` are resolved through DNS and not trusted.
 */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	if (host === 'localhost' || host === '[::1]') return true;
	if (/^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)) return true;
	return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

const INVALID_URL: CredentialProblem = {
	message: 'The Base URL in the Business Finance API credential is not a valid http(s) URL',
	description:
		'Set Base URL to the service address without a path, query or fragment, for example https://api.example.com (a trailing "/" or "/v1" is accepted).',
};

/** The normalised base URL, or why no key may be sent to it. */
export function checkBaseUrl(raw: unknown): { url: string } | { problem: CredentialProblem } {
	const url = normaliseBaseUrl(raw);
	if (!url) return { problem: INVALID_URL };
	const parsed = new URL(url);
	if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
		return {
			problem: {
				message: 'Refusing to send the API key over plain http:// to a remote host',
				description: `The Base URL "${url}" uses http://, which would expose the API key on the network. Use https:// (plain http:// is only allowed for 127.0.0.1, localhost or ::1).`,
			},
		};
	}
	return { url };
}

/** The key and base URL to use, or the first problem; `secret` is what to keep out of messages. */
export function readCredential(
	data: Record<string, unknown> | undefined,
): { apiKey: string; baseUrl: string } | { problem: CredentialProblem; secret?: string } {
	const apiKey = data?.apiKey;
	const secret = typeof apiKey === 'string' ? apiKey.trim() : undefined;
	const keyProblem = apiKeyProblem(apiKey);
	if (keyProblem) return { problem: keyProblem, secret };
	const checked = checkBaseUrl(data?.baseUrl);
	if ('problem' in checked) return { problem: checked.problem, secret };
	return { apiKey: apiKey as string, baseUrl: checked.url };
}
