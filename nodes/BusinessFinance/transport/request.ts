/**
 * Building one request, and sending it once with a total deadline: from handing it over to the
 * last byte of the answer (the HTTP layer's own timeout only notices a silent connection, so an
 * answer trickled a byte at a time would otherwise never end), and with the execution's
 * cancellation.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../helpers/constants';
import { CancelledError } from './budget';
import type { Clock } from './clock';
import type { Headers } from './headers';
import type { HttpMethod } from './retry';

export { CREDENTIAL_NAME };
/** Total time one attempt may take, from sending to the last byte of the answer. */
export const REQUEST_TIMEOUT_MS = 60_000;

export type ApiContext =
	IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export interface FullResponse {
	body?: unknown;
	headers?: Headers;
	statusCode?: number;
}

/** The request did not finish within its deadline. */
export class DeadlineError extends Error {
	constructor(readonly timeoutMs: number) {
		super(`the request did not finish within ${timeoutMs} ms`);
	}
}

/** `/v1/...` made of plain segments: no `..`, query, fragment, spaces or control characters. */
export function isSafePath(path: unknown): path is string {
	if (typeof path !== 'string' || !/^\/v1(\/[A-Za-z0-9._~%:@!$&'()*+,;=-]+)*$/.test(path)) {
		return false;
	}
	return path
		.split('/')
		.every((segment) => segment !== '.' && segment !== '..' && !/%2e%2e|%2f|%5c/i.test(segment));
}

function cleanQs(qs: IDataObject | undefined): IDataObject | undefined {
	if (!qs) return undefined;
	const entries = Object.entries(qs).filter(([, v]) => v !== undefined && v !== null && v !== '');
	return entries.length ? Object.fromEntries(entries) : undefined;
}

export function buildRequest(
	method: HttpMethod,
	url: string,
	body: IDataObject | undefined | null,
	qs: IDataObject | undefined,
): IHttpRequestOptions {
	const hasBody = body !== undefined && body !== null;
	const request: IHttpRequestOptions = {
		method,
		url,
		headers: hasBody
			? { Accept: 'application/json', 'Content-Type': 'application/json' }
			: { Accept: 'application/json' },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		encoding: 'text',
		json: false,
		// A redirect could carry the Authorization header to another host (or to plain http):
		// never follow one; answer.ts reports it instead.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	const query = cleanQs(qs);
	if (query) request.qs = query;
	// An empty object would be dropped by the HTTP layer, leaving a JSON Content-Type with no body.
	if (hasBody) request.body = Object.keys(body).length ? body : '{}';
	return request;
}

/**
 * n8n's httpRequestWithAuthentication replaces `abortSignal` with the execution's cancel signal
 * when the context has one. Hand it a context whose cancel signal is ours (the deadline or the
 * cancellation, whichever comes first), so the connection is really closed at the deadline.
 */
function withCancelSignal(ctx: ApiContext, signal: AbortSignal): ApiContext {
	return Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }) as ApiContext;
}

/** Rejects when `signal` aborts, even if the HTTP layer ignored the signal. */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	let onAbort!: () => void;
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(signal.reason as Error);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	promise.catch(() => undefined); // its rejection after the abort is of no interest
	try {
		return await Promise.race([promise, aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/** One attempt. Throws DeadlineError, CancelledError, or whatever the HTTP layer threw. */
export async function sendOnce(
	ctx: ApiContext,
	request: IHttpRequestOptions,
	clock: Clock,
	timeoutMs: number,
	cancelSignal: AbortSignal | undefined,
): Promise<FullResponse> {
	if (cancelSignal?.aborted) throw new CancelledError();
	const stop = new AbortController();
	const onCancel = () => stop.abort(new CancelledError());
	cancelSignal?.addEventListener('abort', onCancel, { once: true });
	const timer = new AbortController();
	clock.sleep(timeoutMs, timer.signal).then(
		() => stop.abort(new DeadlineError(timeoutMs)),
		() => undefined,
	);
	try {
		// A copy per attempt: the HTTP layer may change the options it is given.
		const options = { ...request, headers: { ...request.headers }, abortSignal: stop.signal };
		if (request.qs) options.qs = { ...request.qs };
		const scoped = withCancelSignal(ctx, stop.signal);
		const sent = Promise.resolve().then(
			async () =>
				(await ctx.helpers.httpRequestWithAuthentication.call(
					scoped,
					CREDENTIAL_NAME,
					options,
				)) as FullResponse,
		);
		return (await untilAborted(sent, stop.signal)) ?? {};
	} catch (error) {
		throw stop.signal.aborted ? (stop.signal.reason as Error) : error;
	} finally {
		timer.abort();
		cancelSignal?.removeEventListener('abort', onCancel);
	}
}
