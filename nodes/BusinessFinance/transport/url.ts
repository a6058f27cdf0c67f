/** Base-URL handling and the "no key over plain HTTP to a remote host" rule. */

/**
 * Normalise the credential's base URL: trims spaces, drops trailing slashes and a trailing `/v1`
 * (the paths passed to the transport already start with `/v1`). Returns `undefined` when the
 * value is not an absolute http(s) URL.
 */
export function normaliseBaseUrl(raw: unknown): string | undefined {
	if (typeof raw !== 'string') return undefined;
	let value = raw.trim();
	for (;;) {
		const before = value;
		value = value.replace(/\/+$/, '');
		value = value.replace(/\/v1$/i, '');
		if (value === before) break;
	}
	if (!/^https?:\/\/[^/?#]+/i.test(value)) return undefined;
	let parsed: URL;
	try {
		parsed = new URL(value);
	} catch {
		return undefined;
	}
	if (parsed.search || parsed.hash || parsed.username || parsed.password) return undefined;
	return value;
}

/** 127.0.0.0/8, localhost (and *.localhost), ::1. */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
	if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
	return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export type BaseUrlProblem = { message: string; description: string };

/**
 * Checks a base URL before any key is sent to it. Returns the normalised URL, or the problem
 * (an invalid URL, or plain `http://` to a host that is not loopback).
 */
export function checkBaseUrl(raw: unknown): { url: string } | { problem: BaseUrlProblem } {
	const url = normaliseBaseUrl(raw);
	if (!url) {
		return {
			problem: {
				message: 'The Base URL in the Business Finance API credential is not a valid http(s) URL',
				description:
					'Set Base URL to the service address without a path, for example https://api.example.com (a trailing "/" or "/v1" is accepted).',
			},
		};
	}
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

export const API_KEY_PREFIX = 'svc_';

/** True when the value looks like a service API key (`svc_` followed by something). */
export function hasApiKeyPrefix(key: unknown): key is string {
	return (
		typeof key === 'string' && key.startsWith(API_KEY_PREFIX) && key.length > API_KEY_PREFIX.length
	);
}

export const API_KEY_PREFIX_PROBLEM: BaseUrlProblem = {
	message: 'The API key in the Business Finance API credential must start with "svc_"',
	description:
		'Copy the full key from the dashboard (Settings → API Keys). Keys always begin with "svc_"; a key is shown only once, when it is created, so create a new one if you no longer have it.',
};
