/** The only code that talks HTTP to the Business Finance service (docs/transport.md). */
import type { IDataObject } from 'n8n-workflow';

import {
	API_MAX_PAGE_SIZE,
	CREDENTIAL_NAME,
	DEFAULT_RATE_LIMIT_WAIT_SECONDS,
} from '../helpers/constants';
import { readCredential } from '../helpers/credentialRules';
import { type Clock, Deadline, systemClock } from './deadline';
import { buildOperationError, type LostAnswer } from './errors';
import { limiterFor, type Limiters } from './limiter';
import { listAll, PageWalker } from './pagination';
import { type ApiContext, type Call, type HttpMethod, REQUEST_TIMEOUT_MS, send } from './send';

export { getApiErrorInfo, LISTING, unknownOutcome } from './errors';
export type { ApiErrorInfo, LostAnswer } from './errors';
export type { Page } from './pagination';
export { settledWithin } from './deadline';
export { dataOf } from './response';
export type { HttpMethod };

// `waitBudgetMs`: time this call may take before a wait or retry is refused (default: the
// option's). `deadlineMs`: time it may take at all (default: none), for callers someone is waiting
// on, such as a webhook delivery that needs a secret: a service that hangs cannot hold them longer.
// `lost`: what the request may have done when its answer is lost (each create and send gives its
// own, a status change too); given, it is sent once, as every POST is.
export interface ApiRequestOptions {
	itemIndex?: number;
	waitBudgetMs?: number;
	deadlineMs?: number;
	lost?: LostAnswer;
}

// `limit`: a whole number of at least 1, checked with the node's parameters (checkPaging in
// actions/input.ts); ignored with `returnAll`.
interface ListOptions extends ApiRequestOptions {
	returnAll: boolean;
	limit: number;
	shapeItem?: (item: IDataObject) => IDataObject;
}

type TransportOptions = { clock?: Clock; requestTimeoutMs?: number; limiters?: Limiters };

const isDuration = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** Reads and checks the credential; gives the call its key's limiter and its own deadline. */
async function openCall(
	{ clock, requestTimeoutMs, limiters }: Required<TransportOptions>,
	ctx: ApiContext,
	callOptions: ApiRequestOptions | undefined,
): Promise<Call> {
	const getCredentials = ctx.getCredentials as (type: string, i?: number) => Promise<IDataObject>;
	const { itemIndex, waitBudgetMs, deadlineMs, lost } = callOptions ?? {};
	const node = ctx.getNode();
	const credential = readCredential(await getCredentials.call(ctx, CREDENTIAL_NAME, itemIndex));
	if ('problem' in credential) {
		const scope = { node, itemIndex, secrets: [credential.secret] };
		throw buildOperationError(scope, credential.problem);
	}
	const cancel = (ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	const deadline = new Deadline(
		clock,
		isDuration(waitBudgetMs) ? waitBudgetMs : DEFAULT_RATE_LIMIT_WAIT_SECONDS * 1000,
		typeof cancel === 'function' ? cancel.call(ctx) : undefined,
		isDuration(deadlineMs) ? clock.now() + deadlineMs : Number.POSITIVE_INFINITY,
	);
	const { apiKey, baseUrl } = credential;
	const limiter = limiterFor(limiters, apiKey, clock);
	const secrets = [apiKey];
	return { ctx, node, itemIndex, secrets, baseUrl, limiter, deadline, requestTimeoutMs, lost };
}

/** A transport with its own per-key limiters and clock (tests make theirs with fake clocks). */
export function createTransport({
	clock = systemClock,
	requestTimeoutMs = REQUEST_TIMEOUT_MS,
	limiters = new Map(),
}: TransportOptions = {}) {
	const resolved = { clock, requestTimeoutMs, limiters };

	/** One request; the parsed JSON body (e.g. {data: ...}), {} for an empty 2xx body (204). */
	async function apiRequest(
		this: ApiContext,
		method: HttpMethod,
		path: string,
		body?: IDataObject,
		qs?: IDataObject,
		options?: ApiRequestOptions,
	): Promise<IDataObject> {
		return await send(await openCall(resolved, this, options), method, path, body, qs);
	}

	/** GET a list endpoint page by page; the `data` elements of all pages (at most `limit`). */
	async function apiRequestAllItems(
		this: ApiContext,
		path: string,
		qs: IDataObject,
		options: ListOptions,
	): Promise<IDataObject[]> {
		const limit = options.returnAll ? Number.POSITIVE_INFINITY : options.limit;
		const call = await openCall(resolved, this, options);
		return await listAll(call, path, qs, limit, options.shapeItem);
	}

	/** One list's pages on one call (one deadline and wait budget): a poll's walker, and `all`. */
	async function apiPages(
		this: ApiContext,
		path: string,
		filters: IDataObject,
		options?: ApiRequestOptions,
	) {
		const call = await openCall(resolved, this, options);
		const walker = new PageWalker(call, path, filters, API_MAX_PAGE_SIZE);
		const all = async () => await listAll(call, path, filters, Number.POSITIVE_INFINITY);
		return { walker, all };
	}

	return { apiRequest, apiRequestAllItems, apiPages };
}

/** The transport of the nodes: one per n8n process, so every execution shares the key's limiter. */
export const { apiRequest, apiRequestAllItems, apiPages } = createTransport();
