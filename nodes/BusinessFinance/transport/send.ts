// One API call: wait for the key's limiter, send with a total deadline, read the answer, retry or
// fail. After a 429 the limiter alone decides the wait; other failures are retried here.
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../helpers/constants';
import { isPlainObject } from '../helpers/resourceFields';
import {
	backoffMs,
	CancelledError,
	type Deadline,
	OverBudgetError,
	untilAborted,
} from './deadline';
import * as errors from './errors';
import { type Headers, headerValue, type KeyLimiter, retryAfterAtMs } from './limiter';
import { classifyNetworkError, type NetworkFailure, parseBody } from './response';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type ApiContext =
	IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

/** Total time one attempt may take, from sending to the last byte of the answer. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Attempts on 5xx, unreadable 2xx bodies and network failures, for requests not sent once. */
const MAX_ATTEMPTS = 4;
const RETRY_BASE_MS = 500;
const RETRY_CAP_MS = 8_000;
const MAX_SERVER_RETRY_AFTER_MS = 30_000;

export interface Call extends errors.Scope {
	ctx: ApiContext;
	baseUrl: string;
	limiter: KeyLimiter;
	deadline: Deadline;
	requestTimeoutMs: number;
	/** ApiRequestOptions.lost (index.ts). */
	lost?: errors.LostAnswer;
}

type FullResponse = { body?: unknown; headers?: Headers; statusCode?: number };

/** A failed attempt, for the retry decision (a 429 is the limiter's); `final`: 4xx, a redirect. */
type Failure =
	{ kind: 'serverError'; retryAfterMs?: number } | { kind: 'unreadable' | 'network' | 'final' };

type Decision = { action: 'retry'; waitMs: number } | { action: 'fail'; reason: errors.FailReason };

/** `attempt`: attempts failed so far. A request sent once is not retried: it may have been processed. */
function decideRetry(
	failure: Failure,
	once: boolean,
	attempt: number,
	timeLeftMs: number,
	random: number,
): Decision {
	if (failure.kind === 'final') return { action: 'fail', reason: 'final' };
	if (once) return { action: 'fail', reason: 'once' };
	if (attempt >= MAX_ATTEMPTS) return { action: 'fail', reason: 'attempts' };
	const askedMs = failure.kind === 'serverError' ? failure.retryAfterMs : undefined;
	const waitMs =
		askedMs !== undefined
			? Math.min(askedMs, MAX_SERVER_RETRY_AFTER_MS)
			: backoffMs(attempt - 1, RETRY_BASE_MS, RETRY_CAP_MS, random);
	return waitMs <= timeLeftMs ? { action: 'retry', waitMs } : { action: 'fail', reason: 'budget' };
}

/** `error`: what to throw when no retry follows. */
type Attempt =
	| { kind: 'data'; data: IDataObject }
	| { kind: 'rateLimited'; untilMs: number }
	| { kind: 'failed'; failure: Failure; error: (ending: errors.Ending) => Error };

class AttemptTimeout extends Error {
	constructor(readonly timeoutMs: number) {
		super(`the request did not finish within ${timeoutMs} ms`);
	}
}

/** `/v1/...` made of plain segments: no `..`, query, fragment, spaces or control characters. */
function isSafePath(path: unknown): path is string {
	if (typeof path !== 'string' || !/^\/v1(\/[A-Za-z0-9._~%:@!$&'()*+,;=-]+)*$/.test(path))
		return false;
	return path.split('/').every((s) => s !== '.' && s !== '..' && !/%2e%2e|%2f|%5c/i.test(s));
}

function buildRequest(method: HttpMethod, url: string, body?: IDataObject, qs?: IDataObject) {
	const hasBody = body !== undefined && body !== null;
	const request: IHttpRequestOptions = {
		method,
		url,
		headers: { Accept: 'application/json', ...(hasBody && { 'Content-Type': 'application/json' }) },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		encoding: 'text',
		json: false,
		// A redirect could carry the Authorization header to another host (or to plain http):
		// never follow one; it is reported instead (errors.ts).
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	const query = Object.entries(qs ?? {}).filter(
		([, v]) => v !== undefined && v !== null && v !== '',
	);
	if (query.length) request.qs = Object.fromEntries(query);
	// An empty object would be dropped by the HTTP layer, leaving a JSON Content-Type with no body.
	if (hasBody) request.body = Object.keys(body).length ? body : '{}';
	return request;
}

/** One attempt, ended by cancellation or at `timeoutMs` to the last byte (not only silence). */
async function sendOnce(call: Call, request: IHttpRequestOptions, timeoutMs: number) {
	const { ctx, deadline } = call;
	deadline.throwIfCancelled();
	const stop = new AbortController();
	const onCancel = () => stop.abort(new CancelledError());
	deadline.cancelSignal?.addEventListener('abort', onCancel, { once: true });
	const timer = new AbortController();
	deadline.clock.sleep(timeoutMs, timer.signal).then(
		() => stop.abort(new AttemptTimeout(timeoutMs)),
		() => undefined,
	);
	try {
		// A copy per attempt: the HTTP layer may change the options it is given.
		const options = { ...request, headers: { ...request.headers }, abortSignal: stop.signal };
		if (request.qs) options.qs = { ...request.qs };
		// n8n's httpRequestWithAuthentication replaces `abortSignal` with the execution's cancel
		// signal when the context has one: hand it ours, so the connection really is closed.
		const scoped = Object.create(ctx, {
			getExecutionCancelSignal: { value: () => stop.signal },
		}) as ApiContext;
		const http = ctx.helpers.httpRequestWithAuthentication;
		const sent = Promise.resolve().then(
			async () => await http.call(scoped, CREDENTIAL_NAME, options),
		);
		return ((await untilAborted(sent, stop.signal)) as FullResponse | undefined) ?? {};
	} catch (error) {
		throw stop.signal.aborted ? (stop.signal.reason as Error) : error;
	} finally {
		timer.abort();
		deadline.cancelSignal?.removeEventListener('abort', onCancel);
	}
}

/** A wait of the call, its Deadline's errors turned into what the user sees. */
async function waited<T>(call: Call, wait: Promise<T>): Promise<T> {
	try {
		return await wait;
	} catch (error) {
		throw waitError(call, error);
	}
}

function waitError(call: Call, error: unknown): Error {
	if (error instanceof CancelledError) return errors.cancelledError(call);
	if (!(error instanceof OverBudgetError)) return error as Error;
	return errors.rateLimitedError(call, call.deadline, error, call.limiter.reportedLimit);
}

/** A failed attempt without an answer; throws for a cancellation or what is not the network's. */
function networkFailure(call: Call, error: unknown, target: errors.Target): Attempt {
	if (error instanceof CancelledError) throw errors.cancelledError(call, target);
	const network: NetworkFailure | undefined =
		error instanceof AttemptTimeout
			? { code: 'ETIMEDOUT', notSent: false, kind: 'timeout', deadlineMs: error.timeoutMs }
			: classifyNetworkError(error);
	if (!network) throw errors.requestFailedError(call, error);
	return failedNetwork(call, network);
}

function failedNetwork(call: Call, network: NetworkFailure): Attempt {
	const error = (e: errors.Ending) => errors.networkFailureError(call, e, network, call.baseUrl);
	return { kind: 'failed', failure: { kind: 'network' }, error };
}

function readResponse(call: Call, response: FullResponse, receivedAtMs: number): Attempt {
	const { statusCode, headers, body } = response;
	const status = Number(statusCode ?? 0);
	const location = headerValue(headers, 'location');
	const error = (e: errors.Ending) => errors.answerError(call, e, { status, body, location });
	const answer = (failure: Failure): Attempt => ({ kind: 'failed', failure, error });
	if (status >= 200 && status < 300) {
		const parsed = parseBody(body);
		if (parsed.kind === 'empty') return { kind: 'data', data: {} };
		if (parsed.kind === 'invalid') return answer({ kind: 'unreadable' });
		const { value } = parsed;
		return { kind: 'data', data: isPlainObject(value) ? value : { data: value as IDataObject } };
	}
	if (status < 500) return answer({ kind: 'final' });
	const retryAtMs = retryAfterAtMs(headers, receivedAtMs);
	const retryAfterMs =
		retryAtMs !== undefined && retryAtMs > receivedAtMs ? retryAtMs - receivedAtMs : undefined;
	return answer({ kind: 'serverError', retryAfterMs });
}

/** Wait for the limiter, send once, record the answer on the ticket; past the deadline, send nothing. */
async function attempt(
	call: Call,
	request: IHttpRequestOptions,
	target: errors.Target,
	notBeforeMs: number,
): Promise<Attempt> {
	const { limiter, deadline } = call;
	const ticket = await waited(call, limiter.acquire(deadline, notBeforeMs));
	try {
		const timeoutMs = Math.min(call.requestTimeoutMs, deadline.untilEndMs);
		if (timeoutMs <= 0)
			return failedNetwork(call, { code: 'ETIMEDOUT', notSent: true, kind: 'timeout' });
		const response = await sendOnce(call, request, timeoutMs);
		const receivedAtMs = deadline.clock.now();
		const status = Number(response.statusCode ?? 0);
		const untilMs = ticket.answered(status, response.headers, receivedAtMs);
		return untilMs === undefined
			? readResponse(call, response, receivedAtMs)
			: { kind: 'rateLimited', untilMs };
	} catch (error) {
		return networkFailure(call, error, target);
	} finally {
		ticket.release(); // always, or callers queued on this key would wait for nothing
	}
}

/** One request with all its waiting and retrying; throws NodeApiError / NodeOperationError. */
export async function send(
	call: Call,
	method: HttpMethod,
	path: string,
	body?: IDataObject,
	qs?: IDataObject,
): Promise<IDataObject> {
	if (!isSafePath(path)) throw errors.unsafePathError(call, path);
	const request = buildRequest(method, `${call.baseUrl}${path}`, body, qs);
	const log = (what: string, waitMs: number) =>
		call.ctx.logger?.debug?.(
			`Business Finance: ${method} ${path} ${what}; retrying in ${errors.formatSeconds(waitMs)}`,
		);
	const { deadline, lost } = call;
	const target = { method, path, once: method === 'POST' || lost !== undefined, lost };
	let attempts = 0; // failed attempts other than 429, which only the deadline bounds
	let notBeforeMs = 0;
	for (;;) {
		const last = await attempt(call, request, target, notBeforeMs);
		if (last.kind === 'data') return last.data;
		if (last.kind === 'rateLimited') {
			notBeforeMs = last.untilMs;
			log('rateLimited', notBeforeMs - deadline.clock.now());
			continue;
		}
		attempts += 1;
		const random = deadline.clock.random();
		const decision = decideRetry(last.failure, target.once, attempts, deadline.leftMs, random);
		if (decision.action === 'fail')
			throw last.error({ ...target, attempts, reason: decision.reason });
		log(last.failure.kind, decision.waitMs);
		await waited(call, deadline.wait(decision.waitMs));
	}
}
