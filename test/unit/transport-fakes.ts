import type { IHttpRequestOptions, INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { createTransport } from '../../nodes/BusinessFinance/transport';
import type { Clock } from '../../nodes/BusinessFinance/transport/deadline';
import type { Limiters } from '../../nodes/BusinessFinance/transport/limiter';

export type Transport = ReturnType<typeof createTransport>;

export const NODE: INode = {
	id: 'node-1',
	name: 'Business Finance',
	type: 'n8n-nodes-business-finance.businessFinance',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export const KEY = 'svc_dummy_unit_test_key_0123456789abcdef';

const quiet = () => undefined;
export const quietLogger = { debug: quiet, info: quiet, warn: quiet, error: quiet };

interface Timer {
	at: number;
	seq: number;
	resolve: () => void;
}

/** Where every FakeClock starts: a fixed epoch ms (2027-01-15). */
export const NOW = 1_800_000_000_000;

class FakeClock {
	now = NOW;
	private timers: Timer[] = [];
	private seq = 0;
	randomValue = 0.5;

	readonly clock: Clock = {
		now: () => this.now,
		random: () => this.randomValue,
		sleep: async (ms, signal) => {
			if (signal?.aborted) throw signal.reason;
			await new Promise<void>((resolve, reject) => {
				const at = this.now + Math.max(0, ms);
				const timer: Timer = { at, seq: this.seq++, resolve: () => {} };
				const onAbort = () => {
					this.timers = this.timers.filter((t) => t !== timer);
					reject(signal!.reason);
				};
				timer.resolve = () => {
					signal?.removeEventListener('abort', onAbort);
					resolve();
				};
				signal?.addEventListener('abort', onAbort, { once: true });
				this.timers.push(timer);
			});
		},
	};

	/** Timers still pending (a finished call must leave none behind). */
	get pendingTimers(): number {
		return this.timers.length;
	}

	/** Run a promise to completion, advancing virtual time whenever everything is waiting on a timer. */
	async run<T>(promise: Promise<T>): Promise<T> {
		let settled = false;
		const done = promise.finally(() => (settled = true));
		done.catch(() => undefined); // its failure is the caller's, below
		for (let step = 0; !settled; step++) {
			// let every promise that can go on do so before time moves
			for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
			if (settled) break;
			if (step >= 100_000) throw new Error('fake clock: too many steps');
			if (this.timers.length === 0)
				throw new Error('deadlock: nothing to wait for and the promise has not settled');
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.timers.shift()!;
			if (next.at > this.now) this.now = next.at;
			next.resolve();
		}
		return await done;
	}
}

export interface ScriptedResponse {
	statusCode: number;
	headers?: Record<string, string>;
	body?: unknown;
}

export interface RecordedCall {
	options: IHttpRequestOptions;
	at: number;
	credentialType: string;
}

type Responder = (
	options: IHttpRequestOptions,
	index: number,
) => ScriptedResponse | Promise<ScriptedResponse>;

export function fakeContext(
	fake: FakeClock,
	responder: Responder,
	credentials: Record<string, unknown> = {}, // over a working key and base URL
	calls: RecordedCall[] = [],
	cancelSignal?: AbortSignal,
) {
	const ctx = {
		calls,
		getExecutionCancelSignal: () => cancelSignal,
		getNode: () => NODE,
		getCredentials: async () => ({ apiKey: KEY, baseUrl: 'http://127.0.0.1:4010', ...credentials }),
		logger: quietLogger,
		helpers: {
			httpRequestWithAuthentication: async function (
				credentialType: string,
				options: IHttpRequestOptions,
			) {
				const index = calls.length;
				const { abortSignal, ...rest } = options;
				calls.push({ options: JSON.parse(JSON.stringify(rest)), at: fake.now, credentialType });
				// Like n8n: the request uses the context's cancel signal (the transport hands it its own).
				const signal =
					(
						this as { getExecutionCancelSignal?: () => AbortSignal | undefined }
					)?.getExecutionCancelSignal?.() ?? (abortSignal as AbortSignal | undefined);
				return await new Promise((resolve, reject) => {
					signal?.addEventListener(
						'abort',
						() => reject(Object.assign(new Error('canceled'), { code: 'ERR_CANCELED' })),
						{ once: true },
					);
					Promise.resolve(responder(options, index)).then(resolve, reject);
				});
			},
		},
	};
	return ctx;
}

export function json(
	statusCode: number,
	body: unknown,
	headers: Record<string, string> = {},
): ScriptedResponse {
	return {
		statusCode,
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
	};
}

export function apiError(
	statusCode: number,
	code: string,
	message: string,
	headers: Record<string, string> = {},
) {
	return json(statusCode, { error: { code, message } }, headers);
}

/** A network error shaped like what n8n-core throws: a NodeApiError-like wrapper around an axios error. */
export function networkError(code: string): Error {
	const axiosLike = Object.assign(
		new Error(code === 'ECONNRESET' ? 'socket hang up' : `connect ${code} 127.0.0.1:4010`),
		{
			code,
			isAxiosError: true,
			config: {
				headers: { Authorization: `Bearer ${KEY}` },
				url: 'http://127.0.0.1:4010/v1/vendors',
			},
		},
	);
	return Object.assign(new Error(`The service refused the connection - ${code}`), {
		cause: axiosLike,
		context: { request: { headers: { Authorization: `Bearer ${KEY}` } } },
	});
}

/** A fixed-window rate limiter like the sandbox's (counted on arrival), on the fake clock. */
export class FakeWindowServer {
	private window?: { startMs: number; count: number };
	rateLimited = 0;
	served = 0;
	constructor(
		private fake: FakeClock,
		readonly limit: number,
		readonly windowMs: number,
		/** 'aligned': windows on multiples of windowMs; 'firstRequest': like the sandbox, a window opens with the first request after the last one ended. */
		readonly mode: 'aligned' | 'firstRequest' = 'aligned',
	) {}

	handle(): ScriptedResponse {
		const now = this.fake.now;
		let w = this.window;
		if (!w || now >= w.startMs + this.windowMs) {
			const startMs =
				this.mode === 'aligned' ? Math.floor(now / this.windowMs) * this.windowMs : now;
			w = this.window = { startMs, count: 0 };
		}
		w.count += 1;
		const reset = String(Math.ceil((w.startMs + this.windowMs) / 1000));
		const headers = limitOf(this.limit, Math.max(0, this.limit - w.count), reset);
		if (w.count > this.limit) {
			this.rateLimited += 1;
			return apiError(429, 'RATE_LIMITED', 'Too many requests, please slow down', headers);
		}
		this.served += 1;
		return json(200, { data: { id: 'x' } }, headers);
	}
}

export let fake: FakeClock;
export let t: Transport;
export let limiters: Limiters;

/** A new fake clock, and a transport on it that knows nothing of any key (a freshly started n8n). */
export function freshClock(): void {
	fake = new FakeClock();
	limiters = new Map();
	t = createTransport({ clock: fake.clock, limiters });
}

export const useFakeTransport = () => beforeEach(freshClock);

export const ok = () => json(200, { data: { id: 'x' } });

export function call(
	ctx: ReturnType<typeof fakeContext>,
	...args: Parameters<Transport['apiRequest']>
) {
	return fake.run(t.apiRequest.call(ctx as never, ...args));
}

export async function failure(
	promise: Promise<unknown>,
): Promise<NodeApiError & NodeOperationError> {
	try {
		await promise;
	} catch (error) {
		return error as NodeApiError & NodeOperationError;
	}
	throw new Error('expected the call to fail');
}

/** The responses in turn (an Error is thrown), the last one repeated. */
export function sequence(...responses: Array<ScriptedResponse | Error>) {
	return (_: unknown, index: number) => {
		const r = responses[Math.min(index, responses.length - 1)];
		if (r instanceof Error) throw r;
		return r;
	};
}

export const limitOf = (limit: number, remaining: number, reset?: string) => ({
	'x-ratelimit-limit': String(limit),
	'x-ratelimit-remaining': String(remaining),
	...(reset !== undefined && { 'x-ratelimit-reset': reset }),
});
