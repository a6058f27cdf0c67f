/**
 * The credential test (`methods.credentialTest.businessFinanceApiTest` on the node). It calls
 * `GET /v1/vendors?limit=1` and turns each way of failing into a message that says what to fix.
 * A declarative `test` on the credential cannot do this: it cannot tell INVALID_API_KEY from
 * API_KEY_EXPIRED, nor explain an unreachable host. It checks the key by the same rules as the
 * requests (credentialData.ts) and sends it exactly as stored, as the credential's `authenticate`
 * does, so a key that passes here works in the node.
 */
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { readCredential } from './credentialData';
import { parseServiceError } from './errors';
import { classifyNetworkError, describeNetworkFailure } from './network';
import { redact } from './redact';

const CREDENTIAL_TEST_TIMEOUT_MS = 15_000;

interface LegacyFullResponse {
	statusCode?: number;
	body?: unknown;
}

function parse(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return undefined;
	}
}

const KEY_CODE_MESSAGES: Record<string, string> = {
	INVALID_API_KEY:
		'INVALID_API_KEY: the API key is invalid or has been revoked. Create a new key in the dashboard (Settings → API Keys) and paste it here.',
	API_KEY_EXPIRED:
		'API_KEY_EXPIRED: the API key has expired. Create a new key in the dashboard (Settings → API Keys) and paste it here.',
	MISSING_API_KEY:
		'MISSING_API_KEY: the service received no API key. Enter the key from the dashboard (Settings → API Keys).',
};

/** OK, or the message that says what is wrong, for an answer of the service. */
function judge(status: number, body: unknown, baseUrl: string): INodeCredentialTestResult | string {
	const serviceError = parseServiceError(body);
	const code = serviceError?.code;
	if (status >= 200 && status < 300) {
		if (Array.isArray((body as { data?: unknown } | undefined)?.data)) {
			return { status: 'OK', message: 'Connection successful: the API key was accepted' };
		}
		return `${baseUrl} answered HTTP ${status}, but not like the Business Finance API. Check the Base URL (the service address, without a path).`;
	}
	if (code && KEY_CODE_MESSAGES[code]) return KEY_CODE_MESSAGES[code];
	// Authentication is checked before the rate limit, so a 429 means the key itself works.
	if (status === 429) {
		return {
			status: 'OK',
			message: 'The API key was accepted (the service is rate limiting this key right now)',
		};
	}
	if (status === 401 || status === 403) {
		return `The service refused the API key (HTTP ${status}${code ? `, ${code}` : ''}). Check the key in the dashboard (Settings → API Keys).`;
	}
	if (status >= 300 && status < 400) {
		return `${baseUrl} answers with a redirect (HTTP ${status}). Set the Base URL to the final address of the service (for example https:// instead of http://); redirects are not followed so the key is never sent elsewhere.`;
	}
	if (status === 404 || status === 405) {
		return `${baseUrl}/v1/vendors was not found (HTTP ${status}). Check the Base URL: it should be the service address without a path.`;
	}
	if (status >= 500) {
		return `The service answered HTTP ${status}${code ? ` (${code})` : ''}; it may be temporarily unavailable. Try again in a few minutes.`;
	}
	const detail = code
		? ` (${code}${serviceError?.message ? `: ${serviceError.message}` : ''})`
		: '';
	return `The service answered HTTP ${status}${detail}. Check the Base URL and the API key.`;
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
	let response: LegacyFullResponse;
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
		})) as LegacyFullResponse;
	} catch (error) {
		const failure = classifyNetworkError(error);
		if (failure)
			return fail(
				`Could not connect (${failure.code}). ${describeNetworkFailure(failure, baseUrl)}`,
			);
		return fail(
			`Could not connect to ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
	const verdict = judge(Number(response?.statusCode ?? 0), parse(response?.body), baseUrl);
	return typeof verdict === 'string' ? fail(verdict) : verdict;
}
