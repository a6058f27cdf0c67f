/**
 * Reading the service's rate-limit headers. Every value is hostile until parsed: what cannot be
 * read gives `undefined`, never NaN, and every time comes back as epoch ms on our own clock.
 */

export type Headers = Record<string, unknown>;

const MS_PER_SECOND = 1_000;
/** A difference between the service's `Date` and our clock beyond this is corrected. */
const CLOCK_SKEW_THRESHOLD_MS = 5_000;
/** X-RateLimit-Reset at or above this is Unix milliseconds, not seconds. */
const EPOCH_MS_THRESHOLD = 1e12;
/** X-RateLimit-Reset at or above this (and below the one above) is Unix seconds. */
const EPOCH_SECONDS_THRESHOLD = 1e9;

/** The one conversion from (possibly fractional) seconds to milliseconds. */
function secondsToMs(seconds: number): number {
	return Math.round(seconds * MS_PER_SECOND);
}

/** A header's value, whatever the case of its name; the first of a repeated header. */
export function headerValue(headers: Headers | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted) continue;
		const first: unknown = Array.isArray(value) ? value[0] : value;
		return first === undefined || first === null ? undefined : String(first);
	}
	return undefined;
}

const isPlainNumber = (text: string): boolean => /^\d+(\.\d+)?$/.test(text);

/**
 * X-RateLimit-Reset as epoch ms. Accepts Unix seconds (what the service sends), Unix milliseconds,
 * an HTTP date and, for tolerance, a small number meaning "seconds from now".
 */
export function parseResetHeader(value: string | undefined, nowMs: number): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	if (!isPlainNumber(text)) return parseDate(text);
	const n = Number(text);
	if (n >= EPOCH_MS_THRESHOLD) return Math.round(n);
	if (n >= EPOCH_SECONDS_THRESHOLD) return secondsToMs(n);
	return nowMs + secondsToMs(n);
}

/** Retry-After as epoch ms: delta seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	return isPlainNumber(text) ? nowMs + secondsToMs(Number(text)) : parseDate(text);
}

function parseDate(text: string): number | undefined {
	const ms = Date.parse(text);
	return Number.isNaN(ms) ? undefined : ms;
}

/** A non-negative whole count (X-RateLimit-Remaining, X-RateLimit-Limit). */
function parseCount(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const n = Number(value.trim());
	return Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
}

/** How far the service's clock (its `Date` header) is ahead of ours, when clearly so. */
function serverClockOffsetMs(headers: Headers | undefined, nowMs: number): number {
	const date = parseDate(headerValue(headers, 'date') ?? '');
	if (date === undefined) return 0;
	const offset = date - nowMs;
	return Math.abs(offset) > CLOCK_SKEW_THRESHOLD_MS ? offset : 0;
}

/** When the service says it may be called again, on our clock: Retry-After, else undefined. */
export function retryAfterAtMs(headers: Headers | undefined, nowMs: number): number | undefined {
	const offset = serverClockOffsetMs(headers, nowMs);
	const at = parseRetryAfter(headerValue(headers, 'retry-after'), nowMs + offset);
	return at === undefined ? undefined : at - offset;
}

export interface RateHeaders {
	limit?: number;
	remaining?: number;
	/** X-RateLimit-Reset on our clock. */
	resetAtMs?: number;
	/** The reset was sent as whole Unix seconds (what window learning needs). */
	resetInWholeSeconds: boolean;
}

export function readRateHeaders(headers: Headers | undefined, nowMs: number): RateHeaders {
	const offset = serverClockOffsetMs(headers, nowMs);
	const rawReset = headerValue(headers, 'x-ratelimit-reset');
	const reset = parseResetHeader(rawReset, nowMs + offset);
	return {
		limit: parseCount(headerValue(headers, 'x-ratelimit-limit')),
		remaining: parseCount(headerValue(headers, 'x-ratelimit-remaining')),
		resetAtMs: reset === undefined ? undefined : reset - offset,
		resetInWholeSeconds: /^\s*\d{9,10}\s*$/.test(rawReset ?? ''),
	};
}
