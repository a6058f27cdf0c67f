// A strict local implementation of the spec and contract (sandbox/API.md).
import { AdminClient } from './client';
import { resetAll } from './admin';
import { buildServer } from './server';
import {
	DEFAULT_API_KEY,
	EXPIRED_KEY,
	REVOKED_KEY,
	type ResolvedOptions,
	type SandboxOptions,
} from './types';

export * from './types';
export { AdminClient, AdminError } from './client';

export interface RunningSandbox {
	/** `http://host:port`, no trailing slash, no `/v1`. */
	baseUrl: string;
	port: number;
	apiKey: string;
	keys: { valid: string; expired: string; revoked: string };
	admin: AdminClient;
	close(): Promise<void>;
}

function resolveOptions(o: SandboxOptions = {}): ResolvedOptions {
	const r: ResolvedOptions = {
		port: o.port ?? 0,
		host: o.host ?? '127.0.0.1',
		apiKey: o.apiKey ?? DEFAULT_API_KEY,
		rateLimit: o.rateLimit ?? 100,
		rateWindowSeconds: o.rateWindowSeconds ?? 60,
		retryAfter: o.retryAfter ?? false,
		seed: o.seed ?? 'none',
		deliveryRetryDelaysMs: o.deliveryRetryDelaysMs ?? [1000, 5000, 25000],
		deliveryTimeoutMs: o.deliveryTimeoutMs ?? 5000,
	};
	if (!r.apiKey.startsWith('svc_') || r.apiKey.length < 8 || /\s/.test(r.apiKey)) {
		throw new Error('apiKey must start with svc_ and have no spaces');
	}
	if (r.apiKey === EXPIRED_KEY || r.apiKey === REVOKED_KEY)
		throw new Error('apiKey must differ from the expired and revoked keys');
	if (!Number.isInteger(r.rateLimit) || r.rateLimit < 1)
		throw new Error('rateLimit must be an integer ≥ 1');
	if (!(r.rateWindowSeconds > 0)) throw new Error('rateWindowSeconds must be > 0');
	return r;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const resolved = resolveOptions(options);
	const { app, ctx } = buildServer(resolved);
	resetAll(ctx, resolved.seed);
	await app.listen({ port: resolved.port, host: resolved.host });
	const address = app.server.address();
	const port = typeof address === 'object' && address ? address.port : resolved.port;
	const host = ['0.0.0.0', '::'].includes(resolved.host) ? '127.0.0.1' : resolved.host;
	const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	let closing: Promise<void> | undefined;
	return {
		baseUrl,
		port,
		apiKey: resolved.apiKey,
		keys: { valid: resolved.apiKey, expired: EXPIRED_KEY, revoked: REVOKED_KEY },
		admin: new AdminClient(baseUrl),
		close() {
			closing ??= (async () => {
				ctx.events.close();
				await app.close();
			})();
			return closing;
		},
	};
}
