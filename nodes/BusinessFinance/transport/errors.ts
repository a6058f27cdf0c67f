/** Every message the transport shows users, in errors that never carry the key. */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT_WAIT_SECONDS } from '../helpers/constants';
import { redact, redactedExcerpt } from './redact';
import {
	type NetworkFailure,
	type NetworkKind,
	parseBody,
	type Parsed,
	parseServiceError,
	text,
} from './response';

/** What to do about each error code the service sends (the sandbox, sandbox/, sends them all). */
const ERROR_CODE_HINTS: Record<string, string> = {
	MISSING_API_KEY:
		'No API key reached the service. Open the Business Finance API credential and enter the key from the dashboard (Settings → API Keys).',
	INVALID_API_KEY:
		'The API key is invalid or has been revoked. Create a new key in the dashboard (Settings → API Keys) and paste it into the Business Finance API credential.',
	API_KEY_EXPIRED:
		'The API key has expired. Create a new key in the dashboard (Settings → API Keys) and update the Business Finance API credential.',
	RATE_LIMITED:
		"The service's rate limit for this API key was reached. The node waits for the rate-limit window automatically; raise the node option 'Max Wait for Rate Limits (Seconds)' or spread the work over time.",
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
// Both retry hints above are for requests that may be sent again: one sent once that got a 5xx
// has the unknown-outcome text instead (LostAnswer), which never invites a second try.

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
	// Own keys only: a code the service names `constructor` is no hint of ours.
	if (code && Object.prototype.hasOwnProperty.call(ERROR_CODE_HINTS, code))
		return ERROR_CODE_HINTS[code];
	if (status !== undefined && STATUS_HINTS[status]) return STATUS_HINTS[status];
	if (status !== undefined && status >= 500) return ERROR_CODE_HINTS.INTERNAL_ERROR;
	if (status !== undefined && status >= 400) return STATUS_HINTS[400];
	return 'Check the node parameters and the Business Finance API credential.';
}

const API_INFO = Symbol.for('businessFinance.apiErrorInfo');
/** Errors of a request sent once that may have been processed, with what to say about it. */
const outcomes = new WeakMap<Error, { person: string; model: string }>();

/**
 * What may have happened, when a request sent once failed after it may have been processed: for
 * a person (the error's own text) and for a model (a tool's answer).
 */
export const unknownOutcome = (error: Error) => outcomes.get(error);
export type ApiErrorInfo = { status?: number; code?: string; serviceMessage?: string };
type WithInfo = { [API_INFO]?: ApiErrorInfo };

/** Status, code and the service's own message (cut, redacted) of an API answer's error. */
export function getApiErrorInfo(error: unknown): ApiErrorInfo | undefined {
	const info = error && typeof error === 'object' ? (error as WithInfo)[API_INFO] : undefined;
	return info ? { ...info } : undefined;
}

interface ApiErrorArgs extends Scope {
	message: string;
	status?: number;
	code?: string;
	/** The service's own message, already cut and redacted. */
	serviceMessage?: string;
	description?: string;
	extra?: string;
	/** Set when a request sent once may have been processed (unknownOutcome). */
	lost?: LostAnswer;
}

// A `NodeApiError` built from a plain object that holds only status, code and message: no request
// options, headers or axios objects, so the key cannot leak through the error's properties.
// `description` (else `outcome`) replaces the hint; only an answer (with a status) gives getApiErrorInfo.
function buildApiError(args: ApiErrorArgs): NodeApiError {
	const { node, status, code, serviceMessage, itemIndex, secrets } = args;
	const message = redact(args.message, secrets);
	const outcome = args.lost && outcomeText(args.lost);
	const hint = args.description ?? outcome ?? hintFor(status, code);
	const description = redact([hint, args.extra].filter(Boolean).join(' '), secrets);
	const httpCode = status !== undefined ? String(status) : undefined;
	const errorResponse: JsonObject = { message };
	if (httpCode) errorResponse.httpCode = httpCode;
	if (code) errorResponse.code = code;
	if (serviceMessage) errorResponse.serviceMessage = serviceMessage;
	const options = { message, description, httpCode, itemIndex };
	const error = new NodeApiError(node, errorResponse, options);
	// NodeApiError may swap a message for a generic text when it mentions a Node.js error code;
	// keep ours, which already says what happened.
	error.message = message;
	error.description = description;
	error.messages = [];
	if (httpCode) {
		error.httpCode = httpCode;
		(error as unknown as WithInfo)[API_INFO] = { status, code, serviceMessage };
	}
	if (args.lost) remember(error, args.lost, secrets);
	return error;
}

function remember(error: Error, lost: LostAnswer, secrets: Scope['secrets']): void {
	const [person, model] = [outcomeText(lost), outcomeForModel(lost)];
	outcomes.set(error, { person: redact(person, secrets), model: redact(model, secrets) });
}

/** A `NodeOperationError` for problems found before sending (bad credential, unsafe URL). */
export function buildOperationError(
	{ node, itemIndex, secrets }: Scope,
	problem: { message: string; description: string },
): NodeOperationError {
	const message = redact(problem.message, secrets);
	const description = redact(problem.description, secrets);
	const error = new NodeOperationError(node, message, { description, itemIndex });
	error.message = message;
	return error;
}

export const formatSeconds = (ms: number): string => `${Math.round(ms / 100) / 10}s`;

export interface Scope {
	node: INode;
	itemIndex: number | undefined;
	secrets: Array<string | undefined>;
}

export type FailReason = 'final' | 'once' | 'attempts' | 'budget';

/** A wait that did not fit in the budget: for the next window, or behind a slow first request. */
export function rateLimitedError(
	scope: Scope,
	{ spentMs, budgetMs }: { spentMs: number; budgetMs: number },
	{ neededMs, untilWoken }: { neededMs: number; untilWoken: boolean },
	reportedLimit: number | undefined,
): NodeApiError {
	const limit = reportedLimit
		? ` (${reportedLimit} request${reportedLimit === 1 ? '' : 's'} per window, as the service reports in X-RateLimit-Limit)`
		: '';
	const waited = `after waiting ${formatSeconds(spentMs)} (wait budget ${formatSeconds(budgetMs)}`;
	const message = untilWoken
		? `RATE_LIMITED: gave up ${waited}) for the first request on this API key, which the service has not answered yet`
		: `RATE_LIMITED: still rate limited ${waited}; the next window opens in ${formatSeconds(neededMs)})`;
	const description = untilWoken
		? "Requests on one key wait for the first one, whose answer tells them the rate-limit window, and the service is slow to answer it. Check the service, or raise the node option 'Max Wait for Rate Limits (Seconds)'."
		: `This run needs more requests than the service's rate limit for this API key${limit} allows in that time. Raise the node option 'Max Wait for Rate Limits (Seconds)' (Options, default ${DEFAULT_RATE_LIMIT_WAIT_SECONDS}), run fewer items or executions at once on this key, or use a separate key for heavy workflows.`;
	return buildApiError({ ...scope, status: 429, code: 'RATE_LIMITED', message, description });
}

/** `request`: the one on its way when the execution was cancelled, if any. */
export function cancelledError(scope: Scope, request?: Target): NodeOperationError {
	const lost = request?.once ? lostAnswer(request) : undefined;
	const error = buildOperationError(scope, {
		message: `The execution was cancelled while ${request ? 'a request was on its way' : 'waiting for the rate limit'}`,
		description: request
			? ['The request was abandoned.', lost && outcomeText(lost)].filter(Boolean).join(' ')
			: 'No request was sent.',
	});
	if (lost) remember(error, lost, scope.secrets);
	return error;
}

export function unsafePathError(scope: Scope, path: unknown): NodeOperationError {
	return buildOperationError(scope, {
		message: `Invalid API path "${redactedExcerpt(String(path), 200, scope.secrets)}"`,
		description:
			'An ID used in the request contains characters that cannot be part of a URL path (such as "/", "?", "#", spaces or ".."). Check the ID passed to the node.',
	});
}

const NETWORK_TEXT: Record<NetworkKind, (url: string) => string> = {
	refused: (url) =>
		`Nothing is listening at ${url}. Check the Base URL in the credential and that the service is running.`,
	dns: (url) => `The host of ${url} could not be resolved. Check the Base URL in the credential.`,
	unreachable: (url) =>
		`The host of ${url} cannot be reached from n8n. Check the Base URL and the network.`,
	timeout: (url) => `The service at ${url} did not answer in time.`,
	reset: (url) => `The connection to ${url} was closed before the service answered.`,
	cut: (url) =>
		`The service at ${url} began to answer, but the answer broke off or could not be read (the connection closed mid-answer, a body that does not decompress, or a malformed head).`,
	other: (url) => `The connection to ${url} failed.`,
};

export function describeNetworkFailure(failure: NetworkFailure, baseUrl: string): string {
	return failure.deadlineMs === undefined
		? NETWORK_TEXT[failure.kind](baseUrl)
		: `The service at ${baseUrl} did not finish answering within ${formatSeconds(failure.deadlineMs)}.`;
}

/** The request on its way: `once` when it must not be sent twice; `lost`: what its lost answer means. */
export type Target = { method: string; path: string; once: boolean; lost?: LostAnswer };

/** How a call that ends without data failed: its request, attempts (429s not counted), why no retry. */
export type Ending = Target & { attempts: number; reason: FailReason };

/**
 * What a request sent once may have done when its answer was lost: `may` (what may exist or have
 * changed), `check` (where a person can see it), `again` (what a second request could do). Each
 * operation sent once gives its own (actions/); the API cannot read receivables or payables back.
 */
export type LostAnswer = { may: string; check: string; again: string };

// Where an operation says nothing of its own (each create and send does): no business text here.
const SOME_EFFECT: LostAnswer = {
	may: 'the request may have taken effect',
	check: 'look in the dashboard',
	again: 'a second request may repeat it',
};

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const UNKNOWN = 'Outcome unknown: the service may have received and processed this request, so';

/** For a person (the node's error). */
function outcomeText(lost: LostAnswer): string {
	return `${UNKNOWN} ${lost.may}. ${capital(lost.check)}. ${capital(lost.again)}. It is never retried automatically.`;
}

/** For a model (a tool's `outcome`): it has no dashboard, so it is told what to do instead. */
function outcomeForModel(lost: LostAnswer): string {
	return `${UNKNOWN} ${lost.may}. Do not call this tool again for this item: ${lost.again}. Tell the user that ${lost.may}, and that a person should check it: ${lost.check}.`;
}

// The outcome when a request sent once may have been processed: `once` is send.ts's reason for
// not retrying it after a 5xx, an unreadable 2xx or the network (4xx are `final`).
const lostAnswer = (target: Target) => target.lost ?? SOME_EFFECT;
const uncertain = (ending: Ending) => (ending.reason === 'once' ? lostAnswer(ending) : undefined);

/** What the tries and the budget add. */
function afterwards({ attempts, reason }: Ending): string {
	const budget =
		'Not retried: the wait before the next try does not fit in the rate-limit wait budget.';
	return [attempts > 1 && `Tried ${attempts} times.`, reason === 'budget' && budget]
		.filter(Boolean)
		.join(' ');
}

export function networkFailureError(
	scope: Scope,
	ending: Ending,
	failure: NetworkFailure,
	url: string,
) {
	const nothing = ending.method === 'POST' ? 'nothing was created' : 'nothing was changed';
	const notSent = `The request did not reach the service, so ${nothing}; it is safe to run again.`;
	const lost = failure.notSent ? undefined : uncertain(ending);
	const sent = ending.once ? (lost ? outcomeText(lost) : notSent) : undefined;
	return buildApiError({
		...scope,
		code: failure.code,
		message:
			failure.kind === 'cut'
				? `The answer of the Business Finance service broke off (${failure.code})`
				: `Could not reach the Business Finance service (${failure.code})`,
		description: describeNetworkFailure(failure, url),
		extra: [sent, afterwards(ending)].filter(Boolean).join(' '),
		lost,
	});
}

export function requestFailedError(scope: Scope, error: unknown): NodeApiError {
	const raw = error as { message?: unknown; description?: unknown } | undefined;
	const message = `The request to the Business Finance service failed: ${text(raw?.message) ?? 'unknown error'}`;
	const description =
		text(raw?.description) ?? 'Check the Business Finance API credential and the Base URL.';
	return buildApiError({ ...scope, message, description });
}

/** An answer without the service's `{error:{code,message}}`: a proxy's page, plain text, nothing. */
function unknownAnswerError(scope: Scope, ending: Ending, status: number, parsed: Parsed) {
	const text = parsed.kind === 'invalid' ? parsed.text : undefined;
	const looksHtml = text !== undefined && /<html|<!doctype/i.test(text);
	const title = looksHtml && /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text)?.[1].trim();
	let what = '';
	if (looksHtml) what = ` with an HTML page${title ? ` ("${title}")` : ''}`;
	else if (text !== undefined) what = ' with a body that is not JSON';
	const proxy = looksHtml
		? 'The answer came from something other than the API (for example a proxy or gateway): check the Base URL.'
		: '';
	const lost = uncertain(ending);
	return buildApiError({
		...scope,
		status,
		message: `The service answered HTTP ${status || 'with no status'}${what}`,
		// an uncertain request's text replaces the status's hint ("Try again later")
		description: lost && [proxy, outcomeText(lost)].filter(Boolean).join(' '),
		extra: lost ? afterwards(ending) : [proxy, afterwards(ending)].filter(Boolean).join(' '),
		lost,
	});
}

/** The error for an answer after which no retry follows; `location`: a redirect's target. */
export function answerError(
	scope: Scope,
	ending: Ending,
	answer: { status: number; body: unknown; location?: string },
): NodeApiError {
	const { status, location } = answer;
	const lost = uncertain(ending);
	if (status >= 200 && status < 300) {
		return buildApiError({
			...scope,
			status,
			message: `The service answered HTTP ${status} with a body that is not valid JSON`,
			description:
				(lost && outcomeText(lost)) ??
				'Check that the Base URL points at the Business Finance API (not a web page or proxy).',
			extra: afterwards(ending),
			lost,
		});
	}
	if (status >= 300 && status < 400) {
		return buildApiError({
			...scope,
			status,
			message: `The service answered HTTP ${status} (a redirect${location ? ` to ${location}` : ''}), which the node does not follow`,
			description:
				'Redirects are not followed so that the API key is never sent to another address. Set the Base URL in the credential to the final address of the service (for example with https:// instead of http://).',
		});
	}
	const parsed = parseBody(answer.body);
	const serviceError = parsed.kind === 'json' ? parseServiceError(parsed.value) : undefined;
	if (!serviceError) return unknownAnswerError(scope, ending, status, parsed);
	const { code } = serviceError;
	const said = serviceError.message?.replace(/\s+/g, ' ').trim();
	const serviceMessage = said ? redactedExcerpt(said, 300, scope.secrets) : undefined;
	const message = serviceErrorMessage(status, code, serviceMessage);
	// an uncertain request's text replaces the code's hint ("Try again in a few minutes, or …")
	const extra = afterwards(ending);
	return buildApiError({ ...scope, status, code, serviceMessage, message, extra, lost });
}

function serviceErrorMessage(status: number, code?: string, said?: string): string {
	if (said) return [code ?? (status ? `HTTP ${status}` : ''), said].filter(Boolean).join(': ');
	if (code) return status ? `${code} (HTTP ${status})` : code;
	return status ? `The service answered HTTP ${status}` : 'The request to the service failed';
}

/** A listing that went wrong (never a short or endless success): a message of LISTING. */
export const listingError = (scope: Scope, [message, description]: string[]) =>
	buildApiError({ ...scope, message, description });
const REPORT = 'Try again later or report this to the service provider.';

export const LISTING = {
	notAList: (path: string) => [
		`The service answered ${path} without a list in "data"`,
		'Check that the Base URL points at the Business Finance API.',
	],
	notObjects: (path: string, index: number, element: unknown) => [
		`The service answered ${path} with a list whose element ${index} is not an object (${element === null ? 'null' : typeof element})`,
		'Each element of a list must be a record. Check that the Base URL points at the Business Finance API, or report this to the service provider.',
	],
	repeatedPage: (path: string, page: number) => [
		`The service returned page ${page} of ${path} again (items already received)`,
		`The service repeated a page, so the listing was stopped to avoid an endless loop and duplicates. ${REPORT}`,
	],
	endless: (page: number, maxPages: number) => [
		`The service kept reporting more pages after page ${page} (expected at most ${maxPages})`,
		'The list never ended, so the listing was stopped to avoid an endless loop. Narrow the list with filters or report this to the service provider.',
	],
	/** A list a reader needs oldest first, in another order (`field` of two elements, in order). */
	unordered: (path: string, field: string, earlier: string, later: string) => [
		`The service does not list ${path} oldest first: ${field} ${earlier} comes before ${later}`,
		`The polling trigger finds new items at the end of the list, so it needs the list ordered oldest first by ${field}; read in this order, old items would be taken as new. Nothing was emitted. Use the Business Finance Trigger (webhooks) with this service, or report this to the service provider.`,
	],
	/** An empty page while the answer says more remain (`said`: what it said). */
	endedEarly: (path: string, page: number, said: string, received: number) => [
		`The service answered page ${page} of ${path} with no items but said more remain (${said}; ${received} received before it)`,
		`The list ended early, so the listing was stopped instead of returning part of it. ${REPORT}`,
	],
};
