/**
 * The only code that talks HTTP to the Business Finance service. By job:
 * credentialData.ts (which key and base URL may be used), request.ts (one request, sent once with
 * a total deadline), gate.ts and window.ts (the per-key rate-limit gate), budget.ts (every wait
 * charged to the call's budget), retry.ts (the retry decision), answer.ts and network.ts (answers
 * and failures to data or errors), send.ts (one call), pagination.ts (listing), errors.ts and
 * redact.ts (errors that never carry the key), credentialTest.ts (the credential's Test button).
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT_WAIT_SECONDS } from '../helpers/constants';
import { Budget } from './budget';
import { type Clock, systemClock } from './clock';
import { readCredential } from './credentialData';
import { buildOperationError } from './errors';
import { GateRegistry } from './gate';
import { listAll } from './pagination';
import { type ApiContext, CREDENTIAL_NAME, REQUEST_TIMEOUT_MS } from './request';
import type { HttpMethod } from './retry';
import { type Call, send } from './send';

export { getApiErrorInfo, ERROR_CODE_HINTS } from './errors';
export { isLoopbackHost, normaliseBaseUrl } from './credentialData';
export { businessFinanceApiTest } from './credentialTest';
export { MAX_ATTEMPTS } from './retry';
export { CREDENTIAL_NAME, systemClock };
export type { Clock, HttpMethod };

/** Default total wait per call: the node option's default. */
export const DEFAULT_WAIT_BUDGET_MS = DEFAULT_RATE_LIMIT_WAIT_SECONDS * 1000;

export interface ApiRequestOptions {
	/** Put on thrown errors (NodeApiError/NodeOperationError itemIndex). */
	itemIndex?: number;
	/** Total time this call may spend waiting; default DEFAULT_WAIT_BUDGET_MS. */
	waitBudgetMs?: number;
	/**
	 * Total time this call may take, waits and requests together (default: none; each attempt
	 * then has the transport's own deadline). For callers someone is waiting on, such as a
	 * webhook delivery that needs a secret: a service that hangs cannot hold them longer.
	 */
	deadlineMs?: number;
}

export interface ListOptions extends ApiRequestOptions {
	returnAll: boolean;
	limit?: number;
	/** What each item becomes, applied as its page arrives (default: the item as it came). */
	shapeItem?: (item: IDataObject) => IDataObject;
}

export interface TransportOptions {
	clock?: Clock;
	/** Total time one attempt may take; default REQUEST_TIMEOUT_MS. */
	requestTimeoutMs?: number;
	/** Learn window lengths (window.ts); turned off only to measure what it gains. */
	learnWindows?: boolean;
}

const isDuration = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0;

function waitBudgetOf(options: ApiRequestOptions | undefined): number {
	const value = options?.waitBudgetMs;
	return isDuration(value) ? value : DEFAULT_WAIT_BUDGET_MS;
}

function deadlineAtOf(options: ApiRequestOptions | undefined, clock: Clock): number {
	const value = options?.deadlineMs;
	return isDuration(value) ? clock.now() + value : Number.POSITIVE_INFINITY;
}

function cancelSignalOf(ctx: ApiContext): AbortSignal | undefined {
	const getter = (ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	return typeof getter === 'function' ? getter.call(ctx) : undefined;
}

/** The limit of a listing that does not return all: a whole number of at least 1. */
function listLimit(ctx: ApiContext, options: ListOptions): number {
	if (options.returnAll === true) return Number.POSITIVE_INFINITY;
	const raw = options.limit;
	const n = typeof raw === 'string' ? Number(raw) : raw;
	if (typeof n === 'number' && Number.isFinite(n) && n >= 1) return Math.floor(n);
	const problem = {
		message: `Limit must be a whole number of at least 1 (got ${String(raw)})`,
		description: "Set 'Limit' to how many items to return, or turn on 'Return All'.",
	};
	throw buildOperationError(ctx.getNode(), problem, options.itemIndex, []);
}

/** What every call of one transport shares. */
interface TransportState {
	clock: Clock;
	requestTimeoutMs: number;
	gates: GateRegistry;
	onWaited: (ms: number) => void;
}

/** Reads and checks the credential, and gives the call its key's gate and its own budget. */
async function openCall(
	state: TransportState,
	ctx: ApiContext,
	options: ApiRequestOptions | undefined,
): Promise<Call> {
	const getCredentials = ctx.getCredentials as (
		type: string,
		itemIndex?: number,
	) => Promise<ICredentialDataDecryptedObject>;
	const itemIndex = options?.itemIndex;
	const credential = readCredential(await getCredentials.call(ctx, CREDENTIAL_NAME, itemIndex));
	if ('problem' in credential) {
		throw buildOperationError(ctx.getNode(), credential.problem, itemIndex, [credential.secret]);
	}
	const { clock, requestTimeoutMs, gates, onWaited } = state;
	const budget = new Budget(
		clock,
		waitBudgetOf(options),
		cancelSignalOf(ctx),
		onWaited,
		deadlineAtOf(options, clock),
	);
	const gate = gates.for(credential.apiKey);
	const node = ctx.getNode();
	return { ctx, node, ...credential, gate, budget, clock, requestTimeoutMs, itemIndex };
}

/**
 * A transport: its own rate-limit gates and clock. The package uses the one below; tests and
 * measurements make their own with a fake clock or short deadlines.
 */
export function createTransport(options: TransportOptions = {}) {
	let waitedMs = 0;
	const clock = options.clock ?? systemClock;
	const state: TransportState = {
		clock,
		requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
		gates: new GateRegistry(clock, options.learnWindows ?? true),
		onWaited: (ms) => (waitedMs += ms),
	};

	/** One request; the parsed JSON body (e.g. {data: ...}), {} for an empty 2xx body (204). */
	async function apiRequest(
		this: ApiContext,
		method: HttpMethod,
		path: string,
		body?: IDataObject,
		qs?: IDataObject,
		options?: ApiRequestOptions,
	): Promise<IDataObject> {
		return await send(await openCall(state, this, options), method, path, body, qs);
	}

	/** GET a list endpoint page by page; the `data` elements of all pages (at most `limit`). */
	async function apiRequestAllItems(
		this: ApiContext,
		path: string,
		qs: IDataObject,
		options: ListOptions,
	): Promise<IDataObject[]> {
		const limit = listLimit(this, options);
		const call = await openCall(state, this, options);
		return await listAll(call, path, qs, limit, options.shapeItem);
	}

	/** `waitedMs`: total time every call of this transport has waited (the benchmark reads it). */
	return { apiRequest, apiRequestAllItems, gates: state.gates, waitedMs: () => waitedMs };
}

export type Transport = ReturnType<typeof createTransport>;

/** The transport of the nodes: one per n8n process, so every execution shares the key's gate. */
const shared = createTransport();

export const apiRequest = shared.apiRequest;
export const apiRequestAllItems = shared.apiRequestAllItems;
/** Total rate-limit and retry waiting of the nodes' transport so far (bench/run.ts). */
export const rateLimitWaitedMs = shared.waitedMs;
/** Forget every key's rate-limit state, as a freshly started n8n (tests and bench/run.ts). */
export const resetRateLimitState = (): void => shared.gates.clear();
