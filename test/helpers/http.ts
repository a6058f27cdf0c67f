/** Never throws on a status code (tests assert error answers); network errors do throw. */
export type Query = Record<string, string | number | boolean | undefined | null>;

interface HttpRequestOptions {
	query?: Query; // undefined/null entries are left out
	body?: unknown;
	rawBody?: string | Buffer; // sent as is, no Content-Type added
	headers?: Record<string, string>;
	apiKey?: string | null; // null: no Authorization header at all
}

export interface HttpResponse<T = any> {
	status: number;
	headers: Record<string, string>; // names lower-cased
	text: string;
	body: T; // undefined when the body is empty or not JSON
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
		const res = await fetch(buildUrl(baseUrl, path, options.query), {
			method,
			headers,
			body: body as any,
		});
		const text = await res.text();
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
		return { status: res.status, headers: outHeaders, text, body: parsed as T };
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
