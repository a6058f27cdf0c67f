/**
 * Failures without an HTTP answer (refused, reset, timed out): recognised in whatever the HTTP
 * layer threw, and turned into clear errors.
 */
import type { INode, NodeApiError } from 'n8n-workflow';

import { buildApiError, formatSeconds } from './errors';
import type { FailReason, HttpMethod } from './retry';

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
	/** Set when the transport's own total deadline ended the request. */
	deadlineMs?: number;
}

/** The failure for a request that the transport's total deadline ended. */
export function deadlineFailure(deadlineMs: number): NetworkFailure {
	return { code: 'ETIMEDOUT', notSent: false, kind: 'timeout', deadlineMs };
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
			return failure.deadlineMs === undefined
				? `The service at ${baseUrl} did not answer in time.`
				: `The service at ${baseUrl} did not finish answering within ${formatSeconds(failure.deadlineMs)}.`;
		case 'reset':
			return `The connection to ${baseUrl} was closed before the service answered.`;
		default:
			return `The connection to ${baseUrl} failed.`;
	}
}

export interface NetworkErrorArgs {
	node: INode;
	failure: NetworkFailure;
	method: HttpMethod;
	/** Attempts made, this one included. */
	attempts: number;
	reason: FailReason;
	baseUrl: string;
	itemIndex: number | undefined;
	secrets: Array<string | undefined>;
}

function whatHappenedToTheCreate(failure: NetworkFailure): string {
	return failure.notSent
		? 'The request did not reach the service, so nothing was created; it is safe to run again.'
		: 'The request may or may not have been processed by the service: check whether the record was created before running it again (a create is never retried automatically).';
}

export function networkFailureError(args: NetworkErrorArgs): NodeApiError {
	const { failure } = args;
	const extra: string[] = [];
	if (args.method === 'POST') extra.push(whatHappenedToTheCreate(failure));
	else if (args.attempts > 1) extra.push(`Tried ${args.attempts} times.`);
	if (args.reason === 'budget') {
		extra.push(
			'Not retried: the wait before the next try does not fit in the rate-limit wait budget.',
		);
	}
	return buildApiError({
		...args,
		code: failure.code,
		message: `Could not reach the Business Finance service (${failure.code})`,
		description: describeNetworkFailure(failure, args.baseUrl),
		extra: extra.join(' '),
		apiAnswer: false,
	});
}

/** Whatever else the HTTP layer threw. */
export function requestFailedError(
	node: INode,
	error: unknown,
	itemIndex: number | undefined,
	secrets: Array<string | undefined>,
): NodeApiError {
	const raw = error as { message?: unknown; description?: unknown } | undefined;
	const message = typeof raw?.message === 'string' ? raw.message : 'unknown error';
	const description =
		typeof raw?.description === 'string' && raw.description
			? raw.description
			: 'Check the Business Finance API credential and the Base URL.';
	return buildApiError({
		node,
		message: `The request to the Business Finance service failed: ${message}`,
		description,
		itemIndex,
		secrets,
		apiAnswer: false,
	});
}
