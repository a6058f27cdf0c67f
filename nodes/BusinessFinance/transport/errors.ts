/** Turning service answers and network failures into clear n8n errors that never carry the key. */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** What to do about each service error code (spec part 7 and the contract). */
export const ERROR_CODE_HINTS: Record<string, string> = {
	MISSING_API_KEY:
		'No API key reached the service. Open the Business Finance API credential and enter the key from the dashboard (Settings → API Keys).',
	INVALID_API_KEY:
		'The API key is invalid or has been revoked. Create a new key in the dashboard (Settings → API Keys) and paste it into the Business Finance API credential.',
	API_KEY_EXPIRED:
		'The API key has expired. Create a new key in the dashboard (Settings → API Keys) and update the Business Finance API credential.',
	RATE_LIMITED:
		'The service allows 100 requests per minute per API key. The node waits for the rate-limit window automatically; raise the node option "Max Wait for Rate Limits (Seconds)" or spread the work over time.',
	VALIDATION_ERROR:
		'The service rejected a value. Check the field named in the message and correct it in the node parameters or the incoming data.',
	INVALID_JSON:
		'The service could not read the request body as JSON. Check expressions that produce the body fields for invalid values.',
	NOT_FOUND:
		'The resource or route does not exist. Check the ID (it may have been deleted) and that the Base URL points at the Business Finance service; an optional endpoint may not exist on this service.',
	METHOD_NOT_ALLOWED:
		'The service does not support this operation on this resource. The endpoint may be an extension that this service does not offer.',
	INVALID_STATUS_TRANSITION:
		'The resource is in a status that does not allow this change (for example a paid receivable cannot be cancelled). Fetch its current status and choose an allowed action.',
	PAYLOAD_TOO_LARGE:
		'The request body is larger than the service accepts (1 MiB). Shorten long text fields such as notes.',
	UNSUPPORTED_MEDIA_TYPE:
		'The service expects a JSON body with Content-Type: application/json. This is a problem in the node; please report it.',
	INTERNAL_ERROR:
		'The service failed while handling the request. Try again later; if it keeps failing, contact the service provider.',
	SERVICE_UNAVAILABLE:
		'The service is temporarily unavailable. Try again in a few minutes, or enable "Retry On Fail" in the node settings.',
};

const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request. Check the node parameters.',
	401: 'Authentication failed. Check the API key in the Business Finance API credential.',
	403: 'The API key is not allowed to do this. Check the key’s permissions in the dashboard.',
	404: ERROR_CODE_HINTS.NOT_FOUND,
	405: ERROR_CODE_HINTS.METHOD_NOT_ALLOWED,
	409: ERROR_CODE_HINTS.INVALID_STATUS_TRANSITION,
	413: ERROR_CODE_HINTS.PAYLOAD_TOO_LARGE,
	415: ERROR_CODE_HINTS.UNSUPPORTED_MEDIA_TYPE,
	429: ERROR_CODE_HINTS.RATE_LIMITED,
};

export function hintFor(status: number | undefined, code: string | undefined): string {
	if (code && ERROR_CODE_HINTS[code]) return ERROR_CODE_HINTS[code];
	if (status !== undefined && STATUS_HINTS[status]) return STATUS_HINTS[status];
	if (status !== undefined && status >= 500) return ERROR_CODE_HINTS.INTERNAL_ERROR;
	if (status !== undefined && status >= 400) return STATUS_HINTS[400];
	return 'Check the node parameters and the Business Finance API credential.';
}

/** Marker kept on errors that the transport created, so `getApiErrorInfo` can read them. */
const API_INFO = Symbol.for('businessFinance.apiErrorInfo');

export interface ApiErrorInfo {
	status?: number;
	code?: string;
}

type WithInfo = { [API_INFO]?: ApiErrorInfo };

/** Status and service error code of an error thrown by apiRequest (undefined if not an API answer). */
export function getApiErrorInfo(error: unknown): ApiErrorInfo | undefined {
	if (error && typeof error === 'object') {
		const info = (error as WithInfo)[API_INFO];
		if (info) return { ...info };
	}
	return undefined;
}

/** Removes every occurrence of the secrets from a string. */
export function redact(text: string, secrets: Array<string | undefined>): string {
	let out = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 6) out = out.split(secret).join('[redacted]');
	}
	out = out.replace(/Bearer\s+[A-Za-z0-9_\-.~+/=]+/g, 'Bearer [redacted]');
	out = out.replace(/whsec_[A-Za-z0-9+/=_-]{4,}/g, 'whsec_[redacted]');
	return out.replace(/svc_[A-Za-z0-9_-]{4,}/g, 'svc_[redacted]');
}

function truncate(text: string, max = 300): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The `{error:{code,message}}` of a body, if it has that shape. */
export function parseServiceError(body: unknown): { code?: string; message?: string } | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const error = (body as { error?: unknown }).error;
	if (!error || typeof error !== 'object') return undefined;
	const { code, message } = error as { code?: unknown; message?: unknown };
	const out: { code?: string; message?: string } = {};
	if (typeof code === 'string' && code) out.code = code;
	if (typeof message === 'string' && message) out.message = message;
	return out.code || out.message ? out : undefined;
}

export interface BuildApiErrorArgs {
	node: INode;
	status?: number;
	code?: string;
	serviceMessage?: string;
	/** Message to use instead of `CODE: service message`. */
	message?: string;
	/** Description to use instead of the code's hint. */
	description?: string;
	/** Extra sentence appended to the description. */
	extra?: string;
	itemIndex?: number;
	secrets: Array<string | undefined>;
	/** False for failures that are not a service answer (network errors): no getApiErrorInfo. */
	apiAnswer?: boolean;
}

/**
 * A `NodeApiError` built from a plain object that holds only status, code and message: no request
 * options, headers or axios objects, so the key cannot leak through the error's properties.
 */
export function buildApiError(args: BuildApiErrorArgs): NodeApiError {
	const { node, status, code, itemIndex, secrets } = args;
	const serviceMessage = args.serviceMessage
		? redact(truncate(args.serviceMessage), secrets)
		: undefined;
	let message = args.message;
	if (!message) {
		if (code && serviceMessage) message = `${code}: ${serviceMessage}`;
		else if (code) message = status ? `${code} (HTTP ${status})` : code;
		else if (serviceMessage)
			message = status ? `HTTP ${status}: ${serviceMessage}` : serviceMessage;
		else
			message = status
				? `The service answered HTTP ${status}`
				: 'The request to the service failed';
	}
	message = redact(message, secrets);
	let description = args.description ?? hintFor(status, code);
	if (args.extra) description = `${description} ${args.extra}`;
	description = redact(description, secrets);

	const errorResponse: JsonObject = { message };
	if (status !== undefined) errorResponse.httpCode = String(status);
	if (code) errorResponse.code = code;
	if (serviceMessage) errorResponse.serviceMessage = serviceMessage;

	const error = new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode: status !== undefined ? String(status) : undefined,
		itemIndex,
	});
	// NodeApiError may swap a message for a generic text when it mentions a Node.js error code;
	// keep ours, which already says what happened.
	error.message = message;
	error.description = description;
	error.messages = [];
	if (status !== undefined) error.httpCode = String(status);
	if (args.apiAnswer !== false) (error as unknown as WithInfo)[API_INFO] = { status, code };
	return error;
}

/** A `NodeOperationError` for problems found before sending (bad credential, unsafe URL). */
export function buildOperationError(
	node: INode,
	problem: { message: string; description: string },
	itemIndex: number | undefined,
	secrets: Array<string | undefined>,
): NodeOperationError {
	const error = new NodeOperationError(node, redact(problem.message, secrets), {
		description: redact(problem.description, secrets),
		itemIndex,
	});
	error.message = redact(problem.message, secrets);
	return error;
}

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'EADDRNOTAVAIL',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ERR_NETWORK',
	'ETIMEOUT',
]);

export interface NetworkFailure {
	code: string;
	/** True when the request certainly did not reach the server (nothing can have been processed). */
	notSent: boolean;
	kind: 'refused' | 'reset' | 'timeout' | 'dns' | 'unreachable' | 'other';
}

function collectCodes(error: unknown, depth = 0, out: string[] = []): string[] {
	if (!error || typeof error !== 'object' || depth > 4) return out;
	const e = error as Record<string, unknown>;
	for (const key of ['code', 'errno']) {
		if (typeof e[key] === 'string') out.push(e[key] as string);
	}
	if (typeof e.message === 'string') {
		const match = /\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+)\b/.exec(e.message);
		if (match) out.push(match[1]);
		if (/socket hang up/i.test(e.message)) out.push('ECONNRESET');
		if (/timeout of \d+ms exceeded|timed out/i.test(e.message)) out.push('ETIMEDOUT');
	}
	if (Array.isArray(e.messages)) {
		for (const m of e.messages)
			if (typeof m === 'string') collectCodes({ message: m }, depth + 1, out);
	}
	for (const key of ['cause', 'error', 'reason']) collectCodes(e[key], depth + 1, out);
	if (Array.isArray(e.errors)) for (const inner of e.errors) collectCodes(inner, depth + 1, out);
	return out;
}

/** Recognises a connection-level failure (no HTTP answer) in whatever the helper threw. */
export function classifyNetworkError(error: unknown): NetworkFailure | undefined {
	if (!error || typeof error !== 'object') return undefined;
	const e = error as Record<string, unknown> & {
		response?: unknown;
		cause?: { response?: unknown };
	};
	// An HTTP answer is not a network failure (with ignoreHttpStatusErrors this should not happen).
	if (e.response && typeof e.response === 'object' && 'status' in (e.response as object))
		return undefined;
	if (e.cause && typeof e.cause === 'object' && e.cause.response) return undefined;
	const codes = collectCodes(error).map((c) => c.toUpperCase());
	const code = codes.find((c) => NETWORK_CODES.has(c));
	if (!code) return undefined;
	let kind: NetworkFailure['kind'] = 'other';
	if (code === 'ECONNREFUSED') kind = 'refused';
	else if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') kind = 'reset';
	else if (/TIMEDOUT|TIMEOUT|ECONNABORTED/.test(code)) kind = 'timeout';
	else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') kind = 'dns';
	else if (/UNREACH|ENETDOWN|EADDRNOTAVAIL/.test(code)) kind = 'unreachable';
	const notSent =
		kind === 'refused' ||
		kind === 'dns' ||
		kind === 'unreachable' ||
		code === 'UND_ERR_CONNECT_TIMEOUT';
	return { code, notSent, kind };
}

export function describeNetworkFailure(failure: NetworkFailure, baseUrl: string): string {
	switch (failure.kind) {
		case 'refused':
			return `Nothing is listening at ${baseUrl}. Check the Base URL in the credential and that the service is running.`;
		case 'dns':
			return `The host of ${baseUrl} could not be resolved. Check the Base URL in the credential.`;
		case 'unreachable':
			return `The host of ${baseUrl} cannot be reached from n8n. Check the Base URL and the network.`;
		case 'timeout':
			return `The service at ${baseUrl} did not answer in time.`;
		case 'reset':
			return `The connection to ${baseUrl} was closed before the service answered.`;
		default:
			return `The connection to ${baseUrl} failed.`;
	}
}
