/** Turning service answers and network failures into clear n8n errors that never carry the key. */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT_WAIT_SECONDS, RATE_LIMIT_TEXT } from '../helpers/constants';
import { redact, redactedExcerpt } from './redact';

/** What to do about each error code the service sends (the sandbox, sandbox/, sends them all). */
export const ERROR_CODE_HINTS: Record<string, string> = {
	MISSING_API_KEY:
		'No API key reached the service. Open the Business Finance API credential and enter the key from the dashboard (Settings → API Keys).',
	INVALID_API_KEY:
		'The API key is invalid or has been revoked. Create a new key in the dashboard (Settings → API Keys) and paste it into the Business Finance API credential.',
	API_KEY_EXPIRED:
		'The API key has expired. Create a new key in the dashboard (Settings → API Keys) and update the Business Finance API credential.',
	RATE_LIMITED: `The service allows ${RATE_LIMIT_TEXT}. The node waits for the rate-limit window automatically; raise the node option 'Max Wait for Rate Limits (Seconds)' or spread the work over time.`,
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
		"The service is temporarily unavailable. Try again in a few minutes, or enable 'Retry On Fail' in the node settings.",
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

function hintFor(status: number | undefined, code: string | undefined): string {
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
	/** The service's own message (truncated, redacted), not the node's wording around it. */
	serviceMessage?: string;
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

/** The service's message on one line, at most 300 characters, without the key. */
function serviceExcerpt(text: string, secrets: Array<string | undefined>): string {
	return redactedExcerpt(text.replace(/\s+/g, ' ').trim(), 300, secrets);
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
		? serviceExcerpt(args.serviceMessage, secrets)
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
	if (args.apiAnswer !== false) {
		(error as unknown as WithInfo)[API_INFO] = { status, code, serviceMessage };
	}
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

/** `12.3s`: how waits are shown in messages. */
export function formatSeconds(ms: number): string {
	return `${Math.round(ms / 100) / 10}s`;
}

const RATE_LIMIT_ADVICE = `Raise the node option 'Max Wait for Rate Limits (Seconds)' (Options, default ${DEFAULT_RATE_LIMIT_WAIT_SECONDS}), run fewer items or executions at once on this key, or use a separate key for heavy workflows.`;

export interface WaitErrorArgs {
	node: INode;
	itemIndex: number | undefined;
	secrets: Array<string | undefined>;
	/** The call's whole time so far, which the budget is charged with. */
	spentMs: number;
	budgetMs: number;
}

/** A wait that did not fit in the budget: for the next window, or behind a slow first request. */
export function rateLimitedError(
	args: WaitErrorArgs & { neededMs: number; behindProbe: boolean },
): NodeApiError {
	const waited = `after waiting ${formatSeconds(args.spentMs)} (wait budget ${formatSeconds(args.budgetMs)}`;
	const message = args.behindProbe
		? `RATE_LIMITED: gave up ${waited}) for the first request on this API key, which the service has not answered yet`
		: `RATE_LIMITED: still rate limited ${waited}; the next window opens in ${formatSeconds(args.neededMs)})`;
	const description = args.behindProbe
		? "Requests on one key wait for the first one, whose answer tells them the rate-limit window, and the service is slow to answer it. Check the service, or raise the node option 'Max Wait for Rate Limits (Seconds)'."
		: `The service allows ${RATE_LIMIT_TEXT}, and this run needs more. ${RATE_LIMIT_ADVICE}`;
	return buildApiError({ ...args, status: 429, code: 'RATE_LIMITED', message, description });
}

/** The execution was cancelled while this call waited or while its request was on its way. */
export function cancelledError(
	node: INode,
	itemIndex: number | undefined,
	secrets: Array<string | undefined>,
	duringRequest: boolean,
): NodeOperationError {
	return buildOperationError(
		node,
		duringRequest
			? {
					message: 'The execution was cancelled while a request was on its way',
					description:
						'The request was abandoned. A create (POST) may or may not have been processed: check before running it again.',
				}
			: {
					message: 'The execution was cancelled while waiting for the rate limit',
					description: 'No request was sent.',
				},
		itemIndex,
		secrets,
	);
}
