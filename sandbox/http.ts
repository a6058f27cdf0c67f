import type { IncomingHttpHeaders } from 'http';
import { ApiError } from './errors';
import { EXPIRED_KEY } from './types';

export const pathOf = (url: string): string => {
	const q = url.indexOf('?');
	return q < 0 ? url : url.slice(0, q);
};

export const isAdminPath = (path: string): boolean =>
	path === '/_admin' || path.startsWith('/_admin/');

/**
 * localhost, 127.0.0.0/8 (also IPv4-mapped, dotted or in the hex form URLs normalise it to) or
 * ::1 (also in brackets): a host or an address.
 */
export function isLoopback(host: string | undefined): boolean {
	const h = (host ?? '').toLowerCase().replace(/^\[(.*)\]$/, '$1');
	return (
		h === 'localhost' ||
		h.endsWith('.localhost') ||
		h === '::1' ||
		/^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) ||
		/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h)
	);
}

/** The host of a Host header or URL authority without its port (`[::1]:4010` → `[::1]`). */
const hostPart = (authority: string | undefined): string | undefined =>
	/^(\[[0-9a-f:.]+\]|[^:[\]]+)(:\d*)?$/i.exec(authority ?? '')?.[1];

/**
 * 421 unless every host the request names is loopback: its Host header (refused when missing,
 * as HTTP/1.0 allows) and, for an absolute-form request line, the target's authority (which HTTP
 * says wins over Host). The socket's address alone is not enough: a web page the developer opens
 * can rebind its own name to 127.0.0.1 and then reach the sandbox from the browser, but the
 * browser still sends that name as Host.
 */
export function hostError(host: string | undefined, url: string): ApiError | undefined {
	const target = /^[a-z][a-z\d+.-]*:\/\/([^/?#]*)/i.exec(url);
	const named = target ? [host, target[1]] : [host];
	if (named.every((h) => isLoopback(hostPart(h)))) return undefined;
	return new ApiError(
		421,
		'MISDIRECTED_REQUEST',
		'The sandbox answers only requests addressed to a loopback host: send Host: localhost, ' +
			'127.0.0.1 or [::1] (with the port)',
	);
}

export const isJsonContentType = (ct: string | undefined): boolean =>
	ct !== undefined && /^\s*application\/json\s*(;|$)/i.test(ct);

const bearerToken = (header: string | undefined): string | undefined =>
	/^\s*Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];

export function authenticate(header: string | undefined, apiKey: string): string | ApiError {
	const token = bearerToken(header);
	if (!token) {
		return new ApiError(
			401,
			'MISSING_API_KEY',
			'No API key provided: send the header Authorization: Bearer <API_KEY>',
		);
	}
	if (token === apiKey) return token;
	if (token === EXPIRED_KEY)
		return new ApiError(
			401,
			'API_KEY_EXPIRED',
			'The API key has expired: create a new key in the dashboard',
		);
	return new ApiError(401, 'INVALID_API_KEY', 'The API key is invalid or has been revoked');
}

/** The request headers for the request log: the key masked as `Bearer svc_…<last 4>`. */
export function loggedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
	if (headers.authorization === undefined) return { ...headers };
	const token = bearerToken(headers.authorization);
	const tail = token && token.length > 8 ? token.slice(-4) : '';
	const masked = token ? `Bearer ${token.startsWith('svc_') ? 'svc_' : ''}…${tail}` : '…';
	return { ...headers, authorization: masked };
}

/** Route patterns, to tell 405 (path exists with another method) from 404. */
export class RouteTable {
	private routes: Array<{ re: RegExp; methods: Set<string> }> = [];

	add(method: string, path: string): void {
		const source = `^${path.replace(/:[^/]+/g, '[^/]+').replace(/\//g, '\\/')}$`;
		let r = this.routes.find((x) => x.re.source === source);
		if (!r) this.routes.push((r = { re: new RegExp(source), methods: new Set() }));
		r.methods.add(method);
	}

	allowed(path: string): string[] {
		const out = new Set<string>();
		for (const r of this.routes) if (r.re.test(path)) r.methods.forEach((m) => out.add(m));
		return [...out];
	}
}
