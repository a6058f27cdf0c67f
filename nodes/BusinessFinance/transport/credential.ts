// The credential's Test button, in code: a declarative `test` could not tell INVALID_API_KEY from
// API_KEY_EXPIRED. It checks the credential by the requests' rules (helpers/credentialRules.ts).
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { readCredential } from '../helpers/credentialRules';
import * as errors from './errors';
import { classifyNetworkError, parseBody, parseServiceError } from './response';
import { redact } from './redact';

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
