import type { IDataObject } from 'n8n-workflow';
/** What came back from the HTTP layer, read without trusting it. */

/** A non-empty string, or undefined: what a field of an answer is read as. */
export const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** The `data` of a `{data: ...}` answer; an answer without it is passed through as it is. */
export function dataOf(response: IDataObject): IDataObject | IDataObject[] {
	if (response && typeof response === 'object' && 'data' in response)
		return response.data as IDataObject | IDataObject[];
	return response;
}

export type Parsed =
	{ kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; text: string };

/** An answer's body: nothing, JSON (parsed here or by the helper), or text that is not JSON. */
export function parseBody(body: unknown): Parsed {
	if (body === undefined || body === null) return { kind: 'empty' };
	const binary = body instanceof ArrayBuffer || ArrayBuffer.isView(body);
	if (typeof body !== 'string' && !binary) return { kind: 'json', value: body };
	const text = binary ? new TextDecoder().decode(body as ArrayBuffer) : (body as string);
	if (text.trim() === '') return { kind: 'empty' };
	try {
		return { kind: 'json', value: JSON.parse(text) as unknown };
	} catch {
		return { kind: 'invalid', text };
	}
}

/** The `{error:{code,message}}` of a body, if it has that shape. */
export function parseServiceError(body: unknown): { code?: string; message?: string } | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const error = (body as { error?: unknown }).error;
	if (!error || typeof error !== 'object') return undefined;
	const { code, message } = error as { code?: unknown; message?: unknown };
	return text(code) || text(message) ? { code: text(code), message: text(message) } : undefined;
}

/** Failures without an HTTP answer, recognised in whatever the HTTP layer threw. */
const NETWORK_CODES = new Set(
	`ECONNRESET ECONNREFUSED ECONNABORTED ETIMEDOUT ESOCKETTIMEDOUT EPIPE ENOTFOUND EAI_AGAIN
	EHOSTUNREACH ENETUNREACH ENETDOWN EADDRNOTAVAIL UND_ERR_SOCKET UND_ERR_CONNECT_TIMEOUT
	UND_ERR_HEADERS_TIMEOUT UND_ERR_BODY_TIMEOUT ERR_SOCKET_CONNECTION_TIMEOUT ERR_NETWORK
	ETIMEOUT`.split(/\s+/),
);

export type NetworkKind = 'refused' | 'reset' | 'timeout' | 'dns' | 'unreachable' | 'cut' | 'other';

/**
 * An answer that began and broke off: the connection closed mid-body, a body that does not
 * decompress, a head the HTTP parser refuses (a garbage status line, an oversized header).
 */
const CUT_CODES = /^(ERR_BAD_RESPONSE|ERR_STREAM_PREMATURE_CLOSE|Z_[A-Z_]+|HPE_[A-Z_]+)$/;
/** `notSent`: certainly not processed; `deadlineMs`: the transport's own deadline ended it. */
export interface NetworkFailure {
	code: string;
	notSent: boolean;
	kind: NetworkKind;
	deadlineMs?: number;
}

function collectCodes(error: unknown, depth = 0, out: string[] = []): string[] {
	if (!error || typeof error !== 'object' || depth > 4) return out;
	const e = error as Record<string, unknown>;
	out.push(...[e.code, e.errno].filter((c): c is string => typeof c === 'string'));
	const messages = [e.message, ...(Array.isArray(e.messages) ? e.messages : [])];
	for (const message of messages.filter((m): m is string => typeof m === 'string')) {
		const match = /\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+)\b/.exec(message);
		if (match) out.push(match[1]);
		if (/socket hang up/i.test(message)) out.push('ECONNRESET');
		if (/timeout of \d+ms exceeded|timed out/i.test(message)) out.push('ETIMEDOUT');
	}
	for (const key of ['cause', 'error', 'reason']) collectCodes(e[key], depth + 1, out);
	if (Array.isArray(e.errors)) for (const inner of e.errors) collectCodes(inner, depth + 1, out);
	return out;
}

function kindOf(code: string): NetworkKind {
	if (code === 'ECONNREFUSED') return 'refused';
	if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return 'reset';
	if (/TIMEDOUT|TIMEOUT|ECONNABORTED/.test(code)) return 'timeout';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
	if (/UNREACH|ENETDOWN|EADDRNOTAVAIL/.test(code)) return 'unreachable';
	return 'other';
}

/**
 * What the HTTP layer threw, when it is the network's or a broken answer's; undefined for what
 * no request caused. An error carrying a response is an answer that broke off: with
 * ignoreHttpStatusErrors a complete answer is returned, never thrown.
 */
export function classifyNetworkError(error: unknown): NetworkFailure | undefined {
	if (!error || typeof error !== 'object') return undefined;
	const e = error as { response?: unknown; cause?: { response?: unknown } };
	const codes = collectCodes(error).map((c) => c.toUpperCase());
	const answered =
		(e.response && typeof e.response === 'object') ||
		(e.cause && typeof e.cause === 'object' && e.cause.response);
	const cut = codes.find((c) => CUT_CODES.test(c));
	if (answered || cut)
		return { code: cut ?? codes[0] ?? 'ERR_BAD_RESPONSE', notSent: false, kind: 'cut' };
	const code = codes.find((c) => NETWORK_CODES.has(c));
	if (!code) return undefined;
	const kind = kindOf(code);
	const notSent =
		['refused', 'dns', 'unreachable'].includes(kind) || code === 'UND_ERR_CONNECT_TIMEOUT';
	return { code, notSent, kind };
}
