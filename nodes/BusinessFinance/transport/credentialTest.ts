/**
 * The credential test (`methods.credentialTest.businessFinanceApiTest` on the node). It calls
 * `GET /v1/vendors?limit=1` and turns each way of failing into a message that says what to fix.
 * A declarative `test` on the credential cannot do this: it cannot tell INVALID_API_KEY from
 * API_KEY_EXPIRED, nor explain an unreachable host.
 */
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { classifyNetworkError, describeNetworkFailure, parseServiceError, redact } from './errors';
import { API_KEY_PREFIX_PROBLEM, checkBaseUrl, hasApiKeyPrefix } from './url';

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

export const CREDENTIAL_TEST_TIMEOUT_MS = 15_000;

export async function businessFinanceApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential?.data ?? {};
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey.trim() : '';
	const fail = (message: string): INodeCredentialTestResult => ({
		status: 'Error',
		message: redact(message, [apiKey]),
	});

	if (!hasApiKeyPrefix(apiKey))
		return fail(`${API_KEY_PREFIX_PROBLEM.message}. ${API_KEY_PREFIX_PROBLEM.description}`);
	const checked = checkBaseUrl(data.baseUrl);
	if ('problem' in checked)
		return fail(`${checked.problem.message}. ${checked.problem.description}`);
	const baseUrl = checked.url;

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
		const message = error instanceof Error ? error.message : String(error);
		return fail(`Could not connect to ${baseUrl}: ${message}`);
	}

	const status = Number(response?.statusCode ?? 0);
	const body = parse(response?.body);
	const serviceError = parseServiceError(body);
	const code = serviceError?.code;

	if (status >= 200 && status < 300) {
		if (body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data)) {
			return { status: 'OK', message: 'Connection successful: the API key was accepted' };
		}
		return fail(
			`${baseUrl} answered HTTP ${status}, but not like the Business Finance API. Check the Base URL (the service address, without a path).`,
		);
	}
	if (code === 'INVALID_API_KEY') {
		return fail(
			'INVALID_API_KEY: the API key is invalid or has been revoked. Create a new key in the dashboard (Settings → API Keys) and paste it here.',
		);
	}
	if (code === 'API_KEY_EXPIRED') {
		return fail(
			'API_KEY_EXPIRED: the API key has expired. Create a new key in the dashboard (Settings → API Keys) and paste it here.',
		);
	}
	if (code === 'MISSING_API_KEY') {
		return fail(
			'MISSING_API_KEY: the service received no API key. Enter the key from the dashboard (Settings → API Keys).',
		);
	}
	if (status === 429) {
		// Authentication is checked before the rate limit, so the key itself works.
		return {
			status: 'OK',
			message: 'The API key was accepted (the service is rate limiting this key right now)',
		};
	}
	if (status === 401 || status === 403) {
		return fail(
			`The service refused the API key (HTTP ${status}${code ? `, ${code}` : ''}). Check the key in the dashboard (Settings → API Keys).`,
		);
	}
	if (status >= 300 && status < 400) {
		return fail(
			`${baseUrl} answers with a redirect (HTTP ${status}). Set the Base URL to the final address of the service (for example https:// instead of http://); redirects are not followed so the key is never sent elsewhere.`,
		);
	}
	if (status === 404 || status === 405) {
		return fail(
			`${baseUrl}/v1/vendors was not found (HTTP ${status}). Check the Base URL: it should be the service address without a path.`,
		);
	}
	if (status >= 500) {
		return fail(
			`The service answered HTTP ${status}${code ? ` (${code})` : ''}; it may be temporarily unavailable. Try again in a few minutes.`,
		);
	}
	return fail(
		`The service answered HTTP ${status}${code ? ` (${code}${serviceError?.message ? `: ${serviceError.message}` : ''})` : ''}. Check the Base URL and the API key.`,
	);
}
