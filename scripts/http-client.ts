/**
 * The one HTTP client of the support code (tests, bench, scripts/n8n/http.ts). Never throws on a
 * status code (tests assert error answers); network errors do throw.
 */
export type Query = Record<string, string | number | boolean | undefined | null>;

interface HttpRequestOptions {
	query?: Query; // undefined/null entries are left out
	body?: unknown;
	rawBody?: string | Buffer; // sent as is, no Content-Type added
	headers?: Record<string, string>;
	apiKey?: string | null; // null: no Authorization header at all
}

interface ClientDefaults {
	apiKey?: string | null;
	headers?: Record<string, string>;
	/**
	 * A GET whose kept-alive connection was reset is sent once more: n8n 1.123.81 was seen resetting
	 * one while a large run ended (docs/benchmarks.md), and a GET changes nothing.
	 */
	retryResetGet?: boolean;
}

export interface HttpResponse<T = any> {
	status: number;
	headers: Record<string, string>; // names lower-cased
	setCookies: string[]; // each Set-Cookie on its own (`headers` keeps only one)
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

function requestInit(method: string, defaults: ClientDefaults, options: HttpRequestOptions) {
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
	return { method, headers, body: body as any };
}

function parseJson(text: string): any {
	try {
		return text.length > 0 ? JSON.parse(text) : undefined;
	} catch {
		return undefined;
	}
}

async function responseOf<T>(res: Response): Promise<HttpResponse<T>> {
	const text = await res.text();
	const headers = Object.fromEntries(res.headers); // fetch's names are lower-cased already
	const setCookies = res.headers.getSetCookie();
	return { status: res.status, headers, setCookies, text, body: parseJson(text) as T };
}

const isReset = (error: unknown) =>
	(error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET';

export type HttpClient = ReturnType<typeof createHttpClient>;

export function createHttpClient(baseUrl: string, defaults: ClientDefaults = {}) {
	async function request<T = any>(
		method: string,
		path: string,
		options: HttpRequestOptions = {},
	): Promise<HttpResponse<T>> {
		const url = buildUrl(baseUrl, path, options.query);
		const send = async () =>
			responseOf<T>(await fetch(url, requestInit(method, defaults, options)));
		try {
			return await send();
		} catch (error) {
			if (!defaults.retryResetGet || method !== 'GET' || !isReset(error)) throw error;
			return await send();
		}
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
