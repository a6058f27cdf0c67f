/**
 * A tiny HTTP client for tests, on Node's global `fetch`. It never throws on a status code: every
 * answer comes back as `{status, headers, text, body}` (body = parsed JSON, or undefined when the
 * text is empty or not JSON). Network errors (connection reset, refused) do throw.
 *
 * Generic on purpose: anything that talks to a loopback HTTP server in tests may reuse it.
 */

export type Query = Record<string, string | number | boolean | undefined | null>;

interface HttpRequestOptions {
	/** Query string values; undefined/null entries are left out. */
	query?: Query;
	/** A JSON body: serialized and sent with `Content-Type: application/json`. */
	body?: unknown;
	/** A raw body sent as is (no Content-Type is added unless given in `headers`). */
	rawBody?: string | Buffer;
	/** Extra headers (win over the defaults). */
	headers?: Record<string, string>;
	/** Bearer key for this request; `null` sends no Authorization header at all. */
	apiKey?: string | null;
}

export interface HttpResponse<T = any> {
	status: number;
	/** Header names lower-cased. */
	headers: Record<string, string>;
	text: string;
	/** Parsed JSON, or undefined when the body is empty or not JSON. */
	body: T;
	/** Wall-clock duration of the request in ms. */
	durationMs: number;
}

function buildUrl(baseUrl: string, path: string, query?: Query): string {
	const url = new URL(baseUrl.replace(/\/+$/, '') + path);
	for (const [key, value] of Object.entries(query ?? {})) {
		if (value !== undefined && value !== null) url.searchParams.append(key, String(value));
	}
	return url.toString();
}

export type HttpClient = ReturnType<typeof createHttpClient>;

export function createHttpClient(
	baseUrl: string,
	defaults: { apiKey?: string | null; headers?: Record<string, string> } = {},
) {
	async function request<T = any>(
		method: string,
		path: string,
		options: HttpRequestOptions = {},
	): Promise<HttpResponse<T>> {
		const headers: Record<string, string> = { ...(defaults.headers ?? {}) };
		const apiKey = options.apiKey === undefined ? defaults.apiKey : options.apiKey;
		if (apiKey !== undefined && apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
		let body: string | Buffer | undefined;
		if (options.rawBody !== undefined) {
			body = options.rawBody;
		} else if (options.body !== undefined) {
			body = JSON.stringify(options.body);
			headers['content-type'] = 'application/json';
		}
		for (const [key, value] of Object.entries(options.headers ?? {})) {
			headers[key.toLowerCase()] = value;
		}
		const started = Date.now();
		const res = await fetch(buildUrl(baseUrl, path, options.query), {
			method,
			headers,
			body: body as any,
		});
		const text = await res.text();
		const durationMs = Date.now() - started;
		let parsed: any;
		if (text.length > 0) {
			try {
				parsed = JSON.parse(text);
			} catch {
				parsed = undefined;
			}
		}
		const outHeaders: Record<string, string> = {};
		res.headers.forEach((value, key) => {
			outHeaders[key.toLowerCase()] = value;
		});
		return { status: res.status, headers: outHeaders, text, body: parsed as T, durationMs };
	}
	const withBody =
		(method: string) =>
		<T = any>(path: string, body?: unknown, options?: HttpRequestOptions) =>
			request<T>(method, path, { ...options, body: body ?? options?.body });
	return {
		baseUrl,
		request,
		get: <T = any>(path: string, options?: HttpRequestOptions) => request<T>('GET', path, options),
		post: withBody('POST'),
		patch: withBody('PATCH'),
		delete: <T = any>(path: string, options?: HttpRequestOptions) =>
			request<T>('DELETE', path, options),
	};
}
