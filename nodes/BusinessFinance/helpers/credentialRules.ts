// What the credential must hold, by the same rules for requests and the Test button: a key that
// starts with svc_ and has no whitespace; a Base URL over https://, plain http:// only to loopback.

type CredentialProblem = { message: string; description: string };

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

function apiKeyProblem(key: unknown): CredentialProblem | null {
	if (typeof key !== 'string') return PREFIX_PROBLEM;
	// Checked first: " svc_…" is a pasting accident, and saying so helps more than "svc_".
	if ([...key].some((c) => /\s/.test(c) || c < ' ' || c === '\x7f')) return WHITESPACE_PROBLEM;
	return key.startsWith('svc_') && key.length > 'svc_'.length ? null : PREFIX_PROBLEM;
}

/** Without trailing slashes or `/v1` (paths start with it); undefined if not a plain http(s) URL. */
function normaliseBaseUrl(raw: unknown): string | undefined {
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

/** A literal loopback address or exactly `localhost` (`api.localhost` goes through DNS: no). */
function isLoopbackHost(hostname: string): boolean {
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

/** The key and base URL to use, or the first problem; `secret` is what to keep out of messages. */
export function readCredential(
	data: Record<string, unknown> | undefined,
): { apiKey: string; baseUrl: string } | { problem: CredentialProblem; secret?: string } {
	const apiKey = data?.apiKey;
	const secret = typeof apiKey === 'string' ? apiKey.trim() : undefined;
	const keyProblem = apiKeyProblem(apiKey);
	if (keyProblem) return { problem: keyProblem, secret };
	const baseUrl = normaliseBaseUrl(data?.baseUrl);
	if (!baseUrl) return { problem: INVALID_URL, secret };
	const parsed = new URL(baseUrl);
	if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
		const problem = {
			message: 'Refusing to send the API key over plain http:// to a remote host',
			description: `The Base URL "${baseUrl}" uses http://, which would expose the API key on the network. Use https:// (plain http:// is only allowed for 127.0.0.1, localhost or ::1).`,
		};
		return { problem, secret };
	}
	return { apiKey: apiKey as string, baseUrl };
}
