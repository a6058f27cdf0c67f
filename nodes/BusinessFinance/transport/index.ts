/**
 * The only code that talks HTTP to the Business Finance service: credential checks, base URL,
 * error mapping, rate-limit waiting (shared per API key), retries and pagination.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	NodeApiError,
} from 'n8n-workflow';

import {
	buildApiError,
	buildOperationError,
	classifyNetworkError,
	describeNetworkFailure,
	parseServiceError,
} from './errors';
import {
	acquire,
	backoffMs,
	clock,
	getKeyState,
	headerValue,
	parseRetryAfter,
	recordHeaders,
	resetFromHeaders,
	serverClockOffset,
	recordRateLimited,
	WaitAbortedError,
	WaitBudget,
	WaitBudgetExceededError,
} from './rateLimit';
import type { KeyState } from './rateLimit';
import { API_KEY_PREFIX_PROBLEM, checkBaseUrl, hasApiKeyPrefix } from './url';

export { getApiErrorInfo, ERROR_CODE_HINTS, redact } from './errors';
export {
	clock,
	resetRateLimitState,
	rateLimitStateKeys,
	getKeyState,
	keyId,
	parseResetHeader,
	parseRetryAfter,
} from './rateLimit';
export { normaliseBaseUrl, isLoopbackHost, checkBaseUrl, hasApiKeyPrefix } from './url';
export { businessFinanceApiTest } from './credentialTest';

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
	/** Put on thrown errors (NodeApiError/NodeOperationError itemIndex). */
	itemIndex?: number;
	/** Total time this call may spend waiting for rate limits; default 300_000 (5 minutes). */
	waitBudgetMs?: number;
}

export const CREDENTIAL_NAME = 'businessFinanceApi';

/** Default total wait for rate limits per call (5 minutes). */
export const DEFAULT_WAIT_BUDGET_MS = 300_000;
/** Attempts for GET/PATCH/DELETE on 5xx, malformed 2xx bodies and network errors. */
export const MAX_ATTEMPTS = 4;
/** Base and cap of the jittered exponential backoff between retries. */
export const RETRY_BASE_MS = 500;
export const RETRY_CAP_MS = 8_000;
/** Base and cap of the backoff on a 429 that carries neither Retry-After nor X-RateLimit-Reset. */
export const RATE_BACKOFF_BASE_MS = 1_000;
export const RATE_BACKOFF_CAP_MS = 60_000;
/** Page size used when listing (the API's maximum). */
export const PAGE_SIZE = 100;
/** Hard cap on pages fetched by one listing, whatever the server says. */
export const MAX_PAGES = 10_000;
/** Per-request timeout. */
export const REQUEST_TIMEOUT_MS = 60_000;

interface FullResponse {
	body?: unknown;
	headers?: Record<string, unknown>;
	statusCode?: number;
}

interface Prepared {
	apiKey: string;
	baseUrl: string;
	state: KeyState;
	budget: WaitBudget;
}

function waitBudgetOf(options: ApiRequestOptions | undefined): number {
	const value = options?.waitBudgetMs;
	return typeof value === 'number' && Number.isFinite(value) && value >= 0
		? value
		: DEFAULT_WAIT_BUDGET_MS;
}

function cancelSignal(ctx: ApiContext): { aborted: boolean } | undefined {
	const getter = (ctx as { getExecutionCancelSignal?: () => { aborted: boolean } | undefined })
		.getExecutionCancelSignal;
	return typeof getter === 'function' ? getter.call(ctx) : undefined;
}

async function prepare(
	ctx: ApiContext,
	options: ApiRequestOptions | undefined,
	budget?: WaitBudget,
): Promise<Prepared> {
	const getCredentials = ctx.getCredentials as (
		type: string,
		itemIndex?: number,
	) => Promise<ICredentialDataDecryptedObject>;
	const credentials = await getCredentials.call(ctx, CREDENTIAL_NAME, options?.itemIndex);
	const apiKey = typeof credentials?.apiKey === 'string' ? credentials.apiKey.trim() : '';
	if (!hasApiKeyPrefix(apiKey)) {
		throw buildOperationError(ctx.getNode(), API_KEY_PREFIX_PROBLEM, options?.itemIndex, [apiKey]);
	}
	const checked = checkBaseUrl(credentials.baseUrl);
	if ('problem' in checked) {
		throw buildOperationError(ctx.getNode(), checked.problem, options?.itemIndex, [apiKey]);
	}
	return {
		apiKey,
		baseUrl: checked.url,
		state: getKeyState(apiKey),
		budget: budget ?? new WaitBudget(waitBudgetOf(options), cancelSignal(ctx)),
	};
}

function cleanQs(qs: IDataObject | undefined): IDataObject | undefined {
	if (!qs) return undefined;
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(qs)) {
		if (value === undefined || value === null || value === '') continue;
		out[key] = value;
	}
	return Object.keys(out).length ? out : undefined;
}

function bodyText(body: unknown): string | undefined {
	if (body === undefined || body === null) return undefined;
	if (typeof body === 'string') return body;
	if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
	if (ArrayBuffer.isView(body)) return new TextDecoder().decode(body as Uint8Array);
	return undefined;
}

type Parsed =
	| { kind: 'empty' }
	| { kind: 'json'; value: unknown }
	| { kind: 'invalid'; text: string };

function parseBody(body: unknown): Parsed {
	const text = bodyText(body);
	if (text === undefined) {
		if (body === undefined || body === null) return { kind: 'empty' };
		return { kind: 'json', value: body }; // already parsed by whoever answered
	}
	if (text.trim() === '') return { kind: 'empty' };
	try {
		return { kind: 'json', value: JSON.parse(text) as unknown };
	} catch {
		return { kind: 'invalid', text };
	}
}

function htmlTitle(text: string): string | undefined {
	const match = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text);
	return match ? match[1].trim() : undefined;
}

/** `/v1/...` made of plain segments: no `..`, query, fragment, spaces or control characters. */
export function isSafePath(path: unknown): path is string {
	if (typeof path !== 'string' || !/^\/v1(\/[A-Za-z0-9._~%:@!$&'()*+,;=-]+)*$/.test(path))
		return false;
	return path
		.split('/')
		.every((segment) => segment !== '.' && segment !== '..' && !/%2e%2e|%2f|%5c/i.test(segment));
}

function isIdempotent(method: HttpMethod): boolean {
	return method !== 'POST';
}

const SECONDS = (ms: number) => `${Math.round(ms / 100) / 10}s`;

function budgetError(
	ctx: ApiContext,
	p: Prepared,
	itemIndex: number | undefined,
	neededMs: number,
): NodeApiError {
	return buildApiError({
		node: ctx.getNode(),
		status: 429,
		code: 'RATE_LIMITED',
		message: `RATE_LIMITED: still rate limited after waiting ${SECONDS(p.budget.waitedMs)} (wait budget ${SECONDS(p.budget.budgetMs)}; the next window opens in ${SECONDS(neededMs)})`,
		description:
			'The service allows 100 requests per minute per API key, and this run needs more. Raise the node option "Max Wait for Rate Limits (Seconds)" (Options, default 300), run fewer items or executions at once on this key, or use a separate key for heavy workflows.',
		itemIndex,
		secrets: [p.apiKey],
	});
}

/** One request, with all waiting and retrying. Throws NodeApiError / NodeOperationError. */
async function send(
	ctx: ApiContext,
	p: Prepared,
	method: HttpMethod,
	path: string,
	body: IDataObject | undefined,
	qs: IDataObject | undefined,
	itemIndex: number | undefined,
): Promise<IDataObject> {
	const node = ctx.getNode();
	const secrets = [p.apiKey];
	if (!isSafePath(path)) {
		throw buildOperationError(
			node,
			{
				message: `Invalid API path "${String(path).slice(0, 200)}"`,
				description:
					'An ID used in the request contains characters that cannot be part of a URL path (such as "/", "?", "#", spaces or ".."). Check the ID passed to the node.',
			},
			itemIndex,
			secrets,
		);
	}
	const url = `${p.baseUrl}${path}`;
	const headers: IDataObject = { Accept: 'application/json' };
	if (body !== undefined && body !== null) headers['Content-Type'] = 'application/json';
	const query = cleanQs(qs);
	const request: IHttpRequestOptions = {
		method,
		url,
		headers,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		encoding: 'text',
		json: false,
		timeout: REQUEST_TIMEOUT_MS,
		// A redirect could carry the Authorization header to another host (or to plain http):
		// never follow one; it is reported below instead.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	if (query) request.qs = { ...query };
	// An empty object would be dropped by the HTTP layer, leaving a JSON Content-Type with no body.
	if (body !== undefined && body !== null) request.body = Object.keys(body).length ? body : '{}';
	let attempt = 0; // failed attempts that count against MAX_ATTEMPTS
	let rateLimitedTimes = 0;

	for (;;) {
		let ticket;
		try {
			ticket = await acquire(p.state, p.budget);
		} catch (error) {
			if (error instanceof WaitBudgetExceededError)
				throw budgetError(ctx, p, itemIndex, error.neededMs);
			if (error instanceof WaitAbortedError) {
				throw buildOperationError(
					node,
					{
						message: 'The execution was cancelled while waiting for the rate limit',
						description: 'No request was sent.',
					},
					itemIndex,
					secrets,
				);
			}
			throw buildOperationError(
				node,
				{
					message: 'Waiting for the rate limit failed',
					description: String((error as Error)?.message ?? error),
				},
				itemIndex,
				secrets,
			);
		}

		let response: FullResponse;
		const sentAt = clock.now();
		try {
			// A copy per attempt: the HTTP layer may change the options it is given.
			const options: IHttpRequestOptions = {
				...request,
				headers: { ...headers },
				qs: request.qs ? { ...request.qs } : undefined,
			};
			response = (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL_NAME,
				options,
			)) as FullResponse;
		} catch (error) {
			ticket.release();
			const failure = classifyNetworkError(error);
			if (failure && isIdempotent(method) && attempt + 1 < MAX_ATTEMPTS) {
				attempt += 1;
				ctx.logger?.debug?.(
					`Business Finance: ${method} ${path} failed (${failure.code}); retry ${attempt} of ${MAX_ATTEMPTS - 1}`,
				);
				await clock.sleep(backoffMs(attempt - 1, RETRY_BASE_MS, RETRY_CAP_MS));
				continue;
			}
			if (failure) {
				let extra = '';
				if (method === 'POST') {
					extra = failure.notSent
						? 'The request did not reach the service, so nothing was created; it is safe to run again.'
						: 'The request may or may not have been processed by the service: check whether the record was created before running it again (a create is never retried automatically).';
				} else if (attempt > 0) {
					extra = `Tried ${attempt + 1} times.`;
				}
				throw buildApiError({
					node,
					code: failure.code,
					message: `Could not reach the Business Finance service (${failure.code})`,
					description: describeNetworkFailure(failure, p.baseUrl),
					extra,
					itemIndex,
					secrets,
					apiAnswer: false,
				});
			}
			const raw = error as { message?: unknown; description?: unknown };
			throw buildApiError({
				node,
				message: `The request to the Business Finance service failed: ${typeof raw?.message === 'string' ? raw.message : 'unknown error'}`,
				description:
					typeof raw?.description === 'string' && raw.description
						? raw.description
						: 'Check the Business Finance API credential and the Base URL.',
				itemIndex,
				secrets,
				apiAnswer: false,
			});
		}

		const status = Number(response?.statusCode ?? 0);
		const responseHeaders = (response?.headers ?? {}) as Record<string, unknown>;
		try {
			recordHeaders(p.state, responseHeaders, { sentAt, receivedAt: clock.now() });
		} finally {
			ticket.release(); // always, or callers queued on this key would wait forever
		}
		const parsed = parseBody(response?.body);

		if (status >= 200 && status < 300) {
			if (parsed.kind === 'empty') return {};
			if (parsed.kind === 'json') {
				const value = parsed.value;
				if (value && typeof value === 'object' && !Array.isArray(value))
					return value as IDataObject;
				return { data: value as IDataObject };
			}
			// A 2xx body that is not JSON.
			if (isIdempotent(method) && attempt + 1 < MAX_ATTEMPTS) {
				attempt += 1;
				await clock.sleep(backoffMs(attempt - 1, RETRY_BASE_MS, RETRY_CAP_MS));
				continue;
			}
			throw buildApiError({
				node,
				status,
				message: `The service answered HTTP ${status} with a body that is not valid JSON`,
				description:
					method === 'POST'
						? 'The create was probably processed, but its answer could not be read: check whether the record exists before running it again.'
						: `Check that the Base URL points at the Business Finance API (not a web page or proxy).${attempt > 0 ? ` Tried ${attempt + 1} times.` : ''}`,
				itemIndex,
				secrets,
			});
		}

		const serviceError = parsed.kind === 'json' ? parseServiceError(parsed.value) : undefined;

		if (status === 429) {
			rateLimitedTimes += 1;
			const now = clock.now();
			const offset = serverClockOffset(responseHeaders, now);
			let until = parseRetryAfter(headerValue(responseHeaders, 'retry-after'), now + offset);
			if (until !== undefined) until -= offset;
			if (until === undefined || until <= now) {
				const reset = resetFromHeaders(responseHeaders, now);
				if (reset !== undefined && reset > now) until = reset + 50;
			}
			if (until === undefined || until <= now) {
				until = now + backoffMs(rateLimitedTimes - 1, RATE_BACKOFF_BASE_MS, RATE_BACKOFF_CAP_MS);
			}
			const needed = until - now;
			if (p.budget.waitedMs + needed > p.budget.budgetMs) {
				recordRateLimited(p.state, until);
				throw budgetError(ctx, p, itemIndex, needed);
			}
			recordRateLimited(p.state, until);
			ctx.logger?.debug?.(
				`Business Finance: rate limited; waiting ${SECONDS(needed)} before retrying ${method} ${path}`,
			);
			continue; // acquire() waits until the block ends, counted against the budget
		}

		if (status >= 500 && isIdempotent(method) && attempt + 1 < MAX_ATTEMPTS) {
			attempt += 1;
			const now = clock.now();
			const retryAt = parseRetryAfter(headerValue(responseHeaders, 'retry-after'), now);
			const backoff = backoffMs(attempt - 1, RETRY_BASE_MS, RETRY_CAP_MS);
			const wait =
				retryAt !== undefined && retryAt > now ? Math.min(retryAt - now, 30_000) : backoff;
			ctx.logger?.debug?.(
				`Business Finance: ${method} ${path} answered ${status}; retry ${attempt} of ${MAX_ATTEMPTS - 1}`,
			);
			await clock.sleep(wait);
			continue;
		}

		if (status >= 300 && status < 400) {
			const location = headerValue(responseHeaders, 'location');
			throw buildApiError({
				node,
				status,
				message: `The service answered HTTP ${status} (a redirect${location ? ` to ${location}` : ''}), which the node does not follow`,
				description:
					'Redirects are not followed so that the API key is never sent to another address. Set the Base URL in the credential to the final address of the service (for example with https:// instead of http://).',
				itemIndex,
				secrets,
			});
		}

		// A final error answer.
		let extra: string | undefined;
		if (status >= 500) {
			extra =
				method === 'POST'
					? 'The create may or may not have been processed: check whether the record exists before running it again (a create is never retried automatically).'
					: attempt > 0
						? `Tried ${attempt + 1} times.`
						: undefined;
		}
		if (serviceError) {
			throw buildApiError({
				node,
				status,
				code: serviceError.code,
				serviceMessage: serviceError.message,
				extra,
				itemIndex,
				secrets,
			});
		}
		const text = parsed.kind === 'invalid' ? parsed.text : undefined;
		const title = text ? htmlTitle(text) : undefined;
		const looksHtml = text ? /<html|<!doctype/i.test(text) : false;
		throw buildApiError({
			node,
			status,
			message: `The service answered HTTP ${status || 'with no status'}${
				looksHtml
					? ` with an HTML page${title ? ` ("${title}")` : ''}`
					: parsed.kind === 'invalid'
						? ' with a body that is not JSON'
						: ''
			}`,
			extra: [
				looksHtml
					? 'The answer came from something other than the API (for example a proxy or gateway): check the Base URL.'
					: '',
				extra ?? '',
			]
				.filter(Boolean)
				.join(' '),
			itemIndex,
			secrets,
		});
	}
}

/** One request; returns the parsed JSON body (e.g. {data: ...}); {} for an empty 2xx body (204). */
export async function apiRequest(
	this: ApiContext,
	method: HttpMethod,
	path: string,
	body?: IDataObject,
	qs?: IDataObject,
	options?: ApiRequestOptions,
): Promise<IDataObject> {
	const prepared = await prepare(this, options);
	return await send(this, prepared, method, path, body, qs, options?.itemIndex);
}

function realId(item: unknown): string | undefined {
	if (item && typeof item === 'object' && 'id' in item) {
		const id = (item as { id?: unknown }).id;
		if (typeof id === 'string' || typeof id === 'number') return String(id);
	}
	return undefined;
}

function idOf(item: unknown): string {
	return realId(item) ?? JSON.stringify(item);
}

/** GET a list endpoint page by page; returns the concatenated `data` elements. */
export async function apiRequestAllItems(
	this: ApiContext,
	path: string,
	qs: IDataObject,
	options: ApiRequestOptions & { returnAll: boolean; limit?: number },
): Promise<IDataObject[]> {
	const node = this.getNode();
	const itemIndex = options?.itemIndex;
	const returnAll = options?.returnAll === true;
	let limit = Number.POSITIVE_INFINITY;
	if (!returnAll) {
		const raw = options?.limit;
		const n = typeof raw === 'string' ? Number(raw) : raw;
		if (typeof n !== 'number' || !Number.isFinite(n) || n < 1) {
			throw buildOperationError(
				node,
				{
					message: `Limit must be a whole number of at least 1 (got ${String(raw)})`,
					description: 'Set "Limit" to how many items to return, or turn on "Return All".',
				},
				itemIndex,
				[],
			);
		}
		limit = Math.floor(n);
	}
	const prepared = await prepare(this, options);
	const pageSize = Math.min(PAGE_SIZE, limit);
	const baseQs: IDataObject = { ...(qs ?? {}) };
	delete baseQs.page;
	delete baseQs.limit;

	const results: IDataObject[] = [];
	const seen = new Set<string>();
	const firstIds = new Set<string>();
	const emitted = new Set<string>();
	let maxPages = MAX_PAGES;
	const stop = (message: string, description: string): NodeApiError =>
		buildApiError({
			node,
			message,
			description,
			itemIndex,
			secrets: [prepared.apiKey],
			apiAnswer: false,
		});

	for (let page = 1; ; page++) {
		if (page > maxPages) {
			throw stop(
				`The service kept reporting more pages after page ${page - 1} (expected at most ${maxPages})`,
				'The list never ended, so the listing was stopped to avoid an endless loop. Narrow the list with filters or report this to the service provider.',
			);
		}
		const response = await send(
			this,
			prepared,
			'GET',
			path,
			undefined,
			{ ...baseQs, page, limit: pageSize },
			itemIndex,
		);
		const data = (response as { data?: unknown }).data;
		if (!Array.isArray(data)) {
			throw stop(
				`The service answered ${path} without a list in "data"`,
				'Check that the Base URL points at the Business Finance API.',
			);
		}
		const meta = ((response as { meta?: unknown }).meta ?? {}) as {
			has_more?: unknown;
			total?: unknown;
			limit?: unknown;
		};
		if (data.length > 0) {
			const ids = data.map(idOf);
			if (firstIds.has(ids[0]) || ids.every((id) => seen.has(id))) {
				throw stop(
					`The service returned page ${page} of ${path} again (items already received)`,
					'The service repeated a page, so the listing was stopped to avoid an endless loop and duplicates. Try again later or report this to the service provider.',
				);
			}
			firstIds.add(ids[0]);
			for (const id of ids) seen.add(id);
		}
		for (const item of data) {
			if (results.length >= limit) break;
			// An item that moved to the next page while paging (offset paging) is returned once.
			const id = realId(item);
			if (id !== undefined) {
				if (emitted.has(id)) continue;
				emitted.add(id);
			}
			results.push(item as IDataObject);
		}
		if (results.length >= limit) break;
		if (data.length === 0) break;
		// A server may use a smaller page than asked for: judge the page count by what it did.
		const effective =
			typeof meta.limit === 'number' && meta.limit > 0
				? meta.limit
				: Math.max(1, Math.min(pageSize, data.length));
		let hasMore: boolean;
		if (typeof meta.has_more === 'boolean') hasMore = meta.has_more;
		else if (typeof meta.total === 'number') hasMore = page * effective < meta.total;
		else hasMore = data.length >= pageSize;
		if (!hasMore) break;
		if (typeof meta.total === 'number' && meta.total >= 0) {
			maxPages = Math.min(MAX_PAGES, Math.ceil(meta.total / effective) + 1);
		}
	}
	return results;
}
