/**
 * Mapping one answer of the service to data, to an outcome for the retry decision (retry.ts), or,
 * when no retry follows, to a clear error.
 */
import type { IDataObject, INode, NodeApiError } from 'n8n-workflow';

import { buildApiError, parseServiceError } from './errors';
import { headerValue } from './headers';
import type { FullResponse } from './request';
import {
	type FailReason,
	type HttpMethod,
	nextRateLimitStreak,
	type Outcome,
	type RateLimitStreak,
	rateLimitedWait,
	serverRetryAfterMs,
} from './retry';

type Parsed =
	{ kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; text: string };

function bodyText(body: unknown): string | undefined {
	if (typeof body === 'string') return body;
	if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
	if (ArrayBuffer.isView(body)) return new TextDecoder().decode(body as Uint8Array);
	return undefined;
}

function parseBody(body: unknown): Parsed {
	if (body === undefined || body === null) return { kind: 'empty' };
	const text = bodyText(body);
	if (text === undefined) return { kind: 'json', value: body }; // already parsed by the helper
	if (text.trim() === '') return { kind: 'empty' };
	try {
		return { kind: 'json', value: JSON.parse(text) as unknown };
	} catch {
		return { kind: 'invalid', text };
	}
}

export type Reading = { kind: 'data'; data: IDataObject } | { kind: 'outcome'; outcome: Outcome };

export interface ReadingContext {
	nowMs: number;
	/** This call's 429s so far (grows the backoff of a 429 that names no new window). */
	rateLimitStreak?: RateLimitStreak;
	random: number;
}

export function statusOf(response: FullResponse): number {
	return Number(response.statusCode ?? 0);
}

/** Data for a 2xx answer that can be read; otherwise what happened, for the retry decision. */
export function readAnswer(response: FullResponse, at: ReadingContext): Reading {
	const status = statusOf(response);
	const outcome = (o: Outcome): Reading => ({ kind: 'outcome', outcome: o });
	if (status >= 200 && status < 300) {
		const parsed = parseBody(response.body);
		if (parsed.kind === 'empty') return { kind: 'data', data: {} };
		if (parsed.kind === 'invalid') return outcome({ kind: 'unreadable' });
		const { value } = parsed;
		const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
		return {
			kind: 'data',
			data: isObject ? (value as IDataObject) : { data: value as IDataObject },
		};
	}
	if (status === 429) {
		const { headers } = response;
		const streak = nextRateLimitStreak(at.rateLimitStreak, headers, at.nowMs);
		const wait = rateLimitedWait(headers, at.nowMs, streak.times, at.random);
		return outcome({ kind: 'rateLimited', ...wait, streak });
	}
	if (status >= 500) {
		return outcome({
			kind: 'serverError',
			retryAfterMs: serverRetryAfterMs(response.headers, at.nowMs),
		});
	}
	return outcome({ kind: 'final' });
}

export interface AnswerErrorArgs {
	node: INode;
	response: FullResponse;
	method: HttpMethod;
	/** Attempts made, this one included (429s not counted). */
	attempts: number;
	reason: FailReason;
	itemIndex: number | undefined;
	secrets: Array<string | undefined>;
}

/** What a failed create, repeated tries or a used-up budget add to the description. */
function afterwards(args: AnswerErrorArgs, status: number): string {
	const sentences: string[] = [];
	if (status >= 500 && args.method === 'POST') {
		sentences.push(
			'The create may or may not have been processed: check whether the record exists before running it again (a create is never retried automatically).',
		);
	}
	if (args.attempts > 1) sentences.push(`Tried ${args.attempts} times.`);
	if (args.reason === 'budget') {
		sentences.push(
			'Not retried: the wait before the next try does not fit in the rate-limit wait budget.',
		);
	}
	return sentences.join(' ');
}

function unreadableError(args: AnswerErrorArgs, status: number): NodeApiError {
	return buildApiError({
		...args,
		status,
		message: `The service answered HTTP ${status} with a body that is not valid JSON`,
		description:
			args.method === 'POST'
				? 'The create was probably processed, but its answer could not be read: check whether the record exists before running it again.'
				: 'Check that the Base URL points at the Business Finance API (not a web page or proxy).',
		extra: args.method === 'POST' ? undefined : afterwards(args, status),
	});
}

function redirectError(args: AnswerErrorArgs, status: number): NodeApiError {
	const location = headerValue(args.response.headers, 'location');
	return buildApiError({
		...args,
		status,
		message: `The service answered HTTP ${status} (a redirect${location ? ` to ${location}` : ''}), which the node does not follow`,
		description:
			'Redirects are not followed so that the API key is never sent to another address. Set the Base URL in the credential to the final address of the service (for example with https:// instead of http://).',
	});
}

function htmlTitle(text: string): string | undefined {
	const match = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text);
	return match ? match[1].trim() : undefined;
}

/** An answer without the service's `{error:{code,message}}`: a proxy's page, plain text, nothing. */
function unknownAnswerError(args: AnswerErrorArgs, status: number, parsed: Parsed): NodeApiError {
	const text = parsed.kind === 'invalid' ? parsed.text : undefined;
	const looksHtml = text !== undefined && /<html|<!doctype/i.test(text);
	const title = looksHtml ? htmlTitle(text) : undefined;
	let what = '';
	if (looksHtml) what = ` with an HTML page${title ? ` ("${title}")` : ''}`;
	else if (text !== undefined) what = ' with a body that is not JSON';
	const proxy = looksHtml
		? 'The answer came from something other than the API (for example a proxy or gateway): check the Base URL.'
		: '';
	return buildApiError({
		...args,
		status,
		message: `The service answered HTTP ${status || 'with no status'}${what}`,
		extra: [proxy, afterwards(args, status)].filter(Boolean).join(' '),
	});
}

/** The error for an answer after which no retry follows. */
export function answerError(args: AnswerErrorArgs): NodeApiError {
	const status = statusOf(args.response);
	const parsed = parseBody(args.response.body);
	if (status >= 200 && status < 300) return unreadableError(args, status);
	if (status >= 300 && status < 400) return redirectError(args, status);
	const serviceError = parsed.kind === 'json' ? parseServiceError(parsed.value) : undefined;
	if (!serviceError) return unknownAnswerError(args, status, parsed);
	return buildApiError({
		...args,
		status,
		code: serviceError.code,
		serviceMessage: serviceError.message,
		extra: afterwards(args, status) || undefined,
	});
}
