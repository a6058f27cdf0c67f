// The credential, by the same rules for requests and the Test button (code: a declarative `test`
// could not tell INVALID_API_KEY from API_KEY_EXPIRED): no whitespace, https:// but to loopback.
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import * as errors from './errors';
import { classifyNetworkError, parseBody, parseServiceError } from './response';
import { redact } from './redact';

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

const CREDENTIAL_TEST_TIMEOUT_MS = 15_000;

/** OK, or the message that says what is wrong (with the hint the nodes give), for an answer. */
function judge(status: number, body: unknown, baseUrl: string): INodeCredentialTestResult | string {
	const { code, message } = parseServiceError(body) ?? {};
	const ok = (text: string): INodeCredentialTestResult => ({ status: 'OK', message: text });
	if (status >= 200 && status < 300) {
		const isList = Array.isArray((body as { data?: unknown } | undefined)?.data);
		if (isList) return ok('Connection successful: the API key was accepted');
		return `${baseUrl} answered HTTP ${status}, but not like the Business Finance API. Check the Base URL (the service address, without a path).`;
	}
	// Authentication is checked before the rate limit, so a 429 means the key itself works.
	if (status === 429 && !/API_KEY/.test(code ?? ''))
		return ok('The API key was accepted (the service is rate limiting this key right now)');
	if (status >= 300 && status < 400)
		return `${baseUrl} answers with a redirect (HTTP ${status}). Set the Base URL to the final address of the service (for example https:// instead of http://); redirects are not followed so the key is never sent elsewhere.`;
	if (status === 404 || status === 405)
		return `${baseUrl}/v1/vendors was not found (HTTP ${status}). Check the Base URL: it should be the service address without a path.`;
	const hint = errors.hintFor(status, code);
	// The service's own sentence only where the hint does not already say it.
	const said = message && hint.toLowerCase().startsWith(message.toLowerCase().replace(/\.$/, ''));
	const detail = code ? ` (${code}${message && !said ? `: ${message}` : ''})` : '';
	return `The service answered HTTP ${status}${detail}. ${hint}`;
}

export async function businessFinanceApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const checked = readCredential(credential?.data);
	const secret = 'problem' in checked ? checked.secret : checked.apiKey;
	const fail = (message: string): INodeCredentialTestResult => ({
		status: 'Error',
		message: redact(message, [secret]),
	});
	if ('problem' in checked)
		return fail(`${checked.problem.message}. ${checked.problem.description}`);
	const { apiKey, baseUrl } = checked;
	// Credential tests get only the legacy `request` helper (n8n-core's CredentialTestContext
	// offers nothing else); it runs through n8n's axios like httpRequest does.
	const { helpers } = this;
	let response: { statusCode?: number; body?: unknown } | undefined;
	try {
		response = (await helpers.request({
			method: 'GET',
			uri: `${baseUrl}/v1/vendors`,
			qs: { limit: 1 },
			headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
			json: false,
			simple: false,
			resolveWithFullResponse: true,
			timeout: CREDENTIAL_TEST_TIMEOUT_MS,
			followRedirect: false,
			followAllRedirects: false,
		})) as typeof response;
	} catch (error) {
		const failure = classifyNetworkError(error);
		const why = error instanceof Error ? error.message : String(error);
		if (!failure) return fail(`Could not connect to ${baseUrl}: ${why}`);
		return fail(
			`Could not connect (${failure.code}). ${errors.describeNetworkFailure(failure, baseUrl)}`,
		);
	}
	const parsed = parseBody(response?.body);
	const body = parsed.kind === 'json' ? parsed.value : undefined;
	const verdict = judge(Number(response?.statusCode ?? 0), body, baseUrl);
	return typeof verdict === 'string' ? fail(verdict) : verdict;
}
