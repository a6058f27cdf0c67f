/**
 * The findings of a review of the transport, each as a regression test over real HTTP (n8n-core's
 * own request helper) against a scripted server that answers as no sandbox would. Each failed on
 * the transport before the rewrite that fixed it.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { inspect } from 'util';

import { CREDENTIAL_NAME } from '../../nodes/BusinessFinance/helpers/constants';
import { createTransport, type Transport } from '../../nodes/BusinessFinance/transport';
import { businessFinanceApiTest } from '../../nodes/BusinessFinance/transport/credential';
import { systemClock } from '../../nodes/BusinessFinance/transport/deadline';
import type { Limiters } from '../../nodes/BusinessFinance/transport/limiter';
import {
	answer,
	CredentialTestContext,
	failure,
	realContext,
	type ScriptedServer,
	scriptedServer,
} from './transport-http';

const KEY = 'svc_dummy+http/test=key_0123456789';
const nowSeconds = () => Math.floor(Date.now() / 1000);
const okHeaders = () => ({
	'x-ratelimit-limit': '100',
	'x-ratelimit-remaining': '99',
	'x-ratelimit-reset': String(nowSeconds() + 60),
});
const LIST = { data: [], meta: { page: 1, limit: 100, total: 0, has_more: false } };

let server: ScriptedServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** A transport on the real clock, which tests can move forward (`later`). */
function transportWithShiftableClock(requestTimeoutMs?: number): {
	t: Transport;
	later: (ms: number) => void;
	/** Callers waiting on the key's limiter (none may be left behind). */
	waiting: () => number;
} {
	let offsetMs = 0;
	const clock = { ...systemClock, now: () => Date.now() + offsetMs, random: () => 0.5 };
	const limiters: Limiters = new Map();
	return {
		t: createTransport({ clock, requestTimeoutMs, limiters }),
		later: (ms) => (offsetMs += ms),
		waiting: () => [...limiters.values()].reduce((n, l) => n + l.waiting, 0),
	};
}

const creds = (over: Partial<ICredentialDataDecryptedObject> = {}) => ({
	apiKey: KEY,
	baseUrl: server!.baseUrl,
	...over,
});
const budget = (seconds: number) => ({ waitBudgetMs: seconds * 1000 });

/** GET /v1/vendors through `t` as an execution of its own, with a wait budget in seconds. */
const getVendors = (
	t: Transport,
	seconds?: number,
	over: Partial<ICredentialDataDecryptedObject> = {},
	execution?: AbortController,
) =>
	t.apiRequest.call(
		realContext(creds(over), execution),
		'GET',
		'/v1/vendors',
		undefined,
		undefined,
		seconds === undefined ? undefined : budget(seconds),
	);

async function timed<T>(promise: Promise<T>): Promise<{ ms: number; result: T }> {
	const started = Date.now();
	const result = await promise;
	return { ms: Date.now() - started, result };
}

describe('one answer cannot lock a key', () => {
	it.each([
		['Retry-After a day ahead', () => ({ 'retry-after': '86400' })],
		[
			'X-RateLimit-Reset a day ahead',
			() => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowSeconds() + 86_400) }),
		],
	])(
		'a 429 with %s fails that call at once, and the key recovers one window later',
		async (_, headers) => {
			server = await scriptedServer((_req, res, i) =>
				i === 0
					? answer(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, headers())
					: answer(res, 200, LIST, okHeaders()),
			);
			const { t, later } = transportWithShiftableClock();
			const first = await timed(failure(getVendors(t, 300)));
			expect(first.result.message).toMatch(
				/^RATE_LIMITED: still rate limited after waiting 0(\.\d)?s \(wait budget 300s; the next window opens in 86\d{3}/,
			);
			expect(first.ms).toBeLessThan(1_000);

			later(30_000); // within the window: the key is still held back, without a request
			const during = await failure(getVendors(t, 1));
			expect(during.message).toMatch(/^RATE_LIMITED/);
			expect(server.hits).toHaveLength(1);

			later(35_000); // 65 s after the 429: a healthy service, a working key
			const after = await timed(getVendors(t, 1));
			expect(after.result).toEqual(LIST);
			expect(after.ms).toBeLessThan(1_000);
			expect(server.hits).toHaveLength(2);
		},
	);

	it.each([
		['no X-RateLimit-Reset', {}],
		['an unreadable X-RateLimit-Reset', { 'x-ratelimit-reset': 'soon' }],
		['an X-RateLimit-Reset in the past', { 'x-ratelimit-reset': String(nowSeconds() - 3600) }],
	])(
		'a first answer "200, remaining 0" with %s means a short backoff, then a probe',
		async (_, reset) => {
			server = await scriptedServer((_req, res, i) =>
				answer(
					res,
					200,
					LIST,
					i === 0
						? { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', ...reset }
						: okHeaders(),
				),
			);
			const { t } = transportWithShiftableClock();
			await getVendors(t);
			const next = await timed(getVendors(t, 5));
			expect(next.result).toEqual(LIST);
			expect(next.ms).toBeLessThan(2_000); // a backoff of 0.5–1 s, not the whole budget
			expect(server.hits).toHaveLength(2);
		},
	);
});

describe('every wait has a deadline', () => {
	it('callers behind a slow first request stop at their own budget; nobody is left waiting', async () => {
		server = await scriptedServer((_req, res, i) => {
			if (i === 0) setTimeout(() => answer(res, 200, LIST, okHeaders()), 3_000);
			else answer(res, 200, LIST, okHeaders());
		});
		const { t, waiting } = transportWithShiftableClock();
		const probe = timed(getVendors(t, 10));
		await new Promise((resolve) => setTimeout(resolve, 100));
		const behind = await Promise.all(
			[1, 1].map(async (seconds) => await timed(failure(getVendors(t, seconds)))),
		);
		for (const { ms, result } of behind) {
			expect(result.message).toMatch(
				/^RATE_LIMITED: gave up after waiting 1s \(wait budget 1s\) for the first request on this API key/,
			);
			expect(ms).toBeGreaterThanOrEqual(950);
			expect(ms).toBeLessThan(1_600);
		}
		expect(waiting()).toBe(0);
		expect((await probe).result).toEqual(LIST);
		expect(server.hits).toHaveLength(1);
	});

	it("a wait budget beyond Node's timer limit (30 days) waits behind a slow first request instead of giving up at once", async () => {
		server = await scriptedServer((_req, res, i) => {
			if (i === 0) setTimeout(() => answer(res, 200, LIST, okHeaders()), 500);
			else answer(res, 200, LIST, okHeaders());
		});
		const { t, waiting } = transportWithShiftableClock();
		const probe = getVendors(t);
		await new Promise((resolve) => setTimeout(resolve, 100));
		// A timer longer than 2^31 - 1 ms fires after 1 ms: the wait would end before the probe's answer.
		const [behind] = await Promise.all([
			timed(getVendors(t, 30 * 86_400).catch((error: Error) => error.message)),
			probe,
		]);
		expect(behind.result).toEqual(LIST);
		expect(behind.ms).toBeGreaterThanOrEqual(300);
		expect(server.hits).toHaveLength(2);
		expect(waiting()).toBe(0);
	});

	it('an answer trickled a byte at a time ends at the total deadline, and its connection is closed', async () => {
		let trickle: NodeJS.Timeout | undefined;
		server = await scriptedServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json', ...okHeaders() });
			res.write('{"data":[');
			trickle = setInterval(() => res.write(' '), 100);
			res.on('close', () => clearInterval(trickle));
		});
		const { t } = transportWithShiftableClock(1_000);
		try {
			const { ms, result } = await timed(failure(getVendors(t, 0)));
			expect(result.message).toBe('Could not reach the Business Finance service (ETIMEDOUT)');
			expect(result.description).toMatch(/did not finish answering within 1s/);
			expect(ms).toBeGreaterThanOrEqual(950);
			expect(ms).toBeLessThan(2_500);
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(server.open()).toBe(0);
		} finally {
			clearInterval(trickle);
		}
	}, 10_000);

	it('a call with a deadline ends there, requests and retries included, against a server that never answers', async () => {
		const held: Array<() => void> = [];
		server = await scriptedServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json', ...okHeaders() });
			held.push(() => res.end());
		});
		const { t } = transportWithShiftableClock(); // each attempt alone could take 60 s
		try {
			const { ms, result } = await timed(
				failure(
					t.apiRequest.call(realContext(creds()), 'GET', '/v1/vendors', undefined, undefined, {
						waitBudgetMs: 1_500,
						deadlineMs: 1_500,
					}),
				),
			);
			expect(result.message).toBe('Could not reach the Business Finance service (ETIMEDOUT)');
			expect(ms).toBeGreaterThanOrEqual(1_400);
			expect(ms).toBeLessThan(2_500);
			// A GET is retried after a timeout, but only within the deadline: here, not at all.
			expect(server.hits).toHaveLength(1);
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(server.open()).toBe(0);
		} finally {
			held.forEach((end) => end());
		}
	}, 10_000);

	it('the time a 429 takes to arrive is charged to the budget: 429s that take 5 s each end a 1 s call after the first', async () => {
		const { t, later } = transportWithShiftableClock();
		server = await scriptedServer((_req, res) => {
			later(5_000); // the answer takes 5 s, on the transport's clock
			res.sendDate = false; // no Date header: the shifted clock is not corrected as skew
			// A reset a fraction of a second ahead: each 429 names a new window.
			const reset = String(Date.now() + 5_000 * server!.hits.length + 300);
			answer(
				res,
				429,
				{ error: { code: 'RATE_LIMITED', message: 'slow down' } },
				{ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
			);
		});
		const error = await failure(getVendors(t, 1));
		expect(error.message).toMatch(
			/^RATE_LIMITED: still rate limited after waiting 5(\.\d)?s \(wait budget 1s; the next window opens in 0\.[34]s\)$/,
		);
		expect(server.hits).toHaveLength(1);
	});

	it('the wait a 5xx asks for is charged to the budget: no retry that does not fit', async () => {
		server = await scriptedServer((_req, res) =>
			answer(
				res,
				503,
				{ error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } },
				{ ...okHeaders(), 'retry-after': '3' },
			),
		);
		const { t } = transportWithShiftableClock();
		const { ms, result } = await timed(
			failure(
				t.apiRequest.call(
					realContext(creds()),
					'GET',
					'/v1/treasury/balance',
					undefined,
					undefined,
					budget(1),
				),
			),
		);
		expect(result.message).toBe('SERVICE_UNAVAILABLE: down');
		expect(result.description).toMatch(
			/Not retried: the wait before the next try does not fit in the rate-limit wait budget/,
		);
		expect(ms).toBeLessThan(1_000);
		expect(server.hits).toHaveLength(1);
	});

	it('a cancelled execution stops waiting behind another request at once and leaves no waiter', async () => {
		server = await scriptedServer((_req, res, i) => {
			if (i === 0) setTimeout(() => answer(res, 200, LIST, okHeaders()), 2_000);
			else answer(res, 200, LIST, okHeaders());
		});
		const { t, waiting } = transportWithShiftableClock();
		const probe = getVendors(t);
		await new Promise((resolve) => setTimeout(resolve, 100));
		const execution = new AbortController();
		setTimeout(() => execution.abort(), 300);
		const { ms, result } = await timed(failure(getVendors(t, 60, {}, execution)));
		expect(result.message).toBe('The execution was cancelled while waiting for the rate limit');
		expect(ms).toBeLessThan(800);
		expect(waiting()).toBe(0);
		await probe;
		expect(server.hits).toHaveLength(1);
	});
});

describe('one key, one truth', () => {
	/** Like the service: only the exact key is accepted. */
	const strictServer = async () =>
		await scriptedServer((req, res) =>
			req.headers.authorization === `Bearer ${KEY}`
				? answer(res, 200, LIST, okHeaders())
				: answer(
						res,
						401,
						{ error: { code: 'INVALID_API_KEY', message: 'Invalid API key' } },
						okHeaders(),
					),
		);
	const credentialTest = async (data: ICredentialDataDecryptedObject) =>
		await businessFinanceApiTest.call(new CredentialTestContext({}), {
			id: '1',
			name: 'c',
			type: CREDENTIAL_NAME,
			data,
		});

	it('the credential test and the requests send exactly the same key', async () => {
		server = await strictServer();
		const { t } = transportWithShiftableClock();
		expect((await credentialTest(creds())).status).toBe('OK');
		await getVendors(t);
		expect(server.hits.map((h) => h.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
	});

	it.each([` ${KEY}`, `${KEY}\n`])(
		'a key pasted with whitespace (%p) fails the test, as it would fail every request',
		async (apiKey) => {
			server = await strictServer();
			const { t } = transportWithShiftableClock();
			const tested = await credentialTest(creds({ apiKey }));
			expect(tested.status).toBe('Error');
			expect(tested.message).toMatch(/contains a space or line break/);
			const error = await failure(getVendors(t, undefined, { apiKey }));
			expect(error.message).toMatch(/contains a space or line break/);
			expect(server.hits).toHaveLength(0);
		},
	);
});

/** The first 10 characters in a row of a form of the key found in `text`, if any. */
function leakedPiece(text: string, forms: string[]): string | undefined {
	for (const form of forms) {
		for (let i = 0; i + 10 <= form.length; i++) {
			if (text.includes(form.slice(i, i + 10))) return form.slice(i, i + 10);
		}
	}
	return undefined;
}

/** What every base64-looking stretch of `text` decodes to, read from each of 4 starting points. */
function base64Decodings(text: string): string {
	const tokens = text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? [];
	return tokens
		.flatMap((token) => [0, 1, 2, 3].map((shift) => token.slice(shift)))
		.flatMap((token) => [
			Buffer.from(token, 'base64').toString('latin1'),
			Buffer.from(token, 'base64url').toString('latin1'),
		])
		.join('\n');
}

describe('redaction', () => {
	it.each([
		['URL-encoded', (key: string) => `no such key: ${encodeURIComponent(key)}`],
		[
			'URL-encoded in lower case',
			(key: string) => `no such key: ${encodeURIComponent(key).toLowerCase()}`,
		],
		[
			'base64 of the header',
			(_: string, header: string) =>
				`saw ${Buffer.from(`Authorization: ${header}`).toString('base64')}`,
		],
		[
			'base64 of the header value',
			(_: string, header: string) => `saw ${Buffer.from(header).toString('base64')}`,
		],
	])('a key echoed %s by the service never reaches the error', async (_, echo) => {
		server = await scriptedServer((req, res) =>
			answer(
				res,
				400,
				{
					error: {
						code: 'VALIDATION_ERROR',
						message: echo(KEY, String(req.headers.authorization)),
					},
				},
				okHeaders(),
			),
		);
		const { t } = transportWithShiftableClock();
		const error = await failure(
			t.apiRequest.call(realContext(creds()), 'POST', '/v1/vendors', { name: 'x' }),
		);
		expect(error.message).toMatch(/^VALIDATION_ERROR: /);
		const text = [
			error.message,
			error.description,
			JSON.stringify(error),
			inspect(error, { depth: 10, showHidden: true }),
		].join('\n');
		const forms = [KEY, encodeURIComponent(KEY), encodeURIComponent(KEY).toLowerCase()];
		expect(leakedPiece(text, forms)).toBeUndefined();
		expect(leakedPiece(base64Decodings(text), [KEY])).toBeUndefined();
	});
	it('a key echoed in base64 where the message is cut at 300 characters never reaches the error', async () => {
		// The cut falls 3 characters before the end of the encoded header: the rest of it would
		// still decode to most of the key if the message were cut before it is redacted.
		server = await scriptedServer((req, res) => {
			const encoded = Buffer.from(`Authorization: ${req.headers.authorization}`).toString('base64');
			const message = `${'Invalid API key.'.padEnd(300 - encoded.length + 3 - 1, '.')} ${encoded}`;
			answer(res, 401, { error: { code: 'INVALID_API_KEY', message } }, okHeaders());
		});
		const { t } = transportWithShiftableClock();
		const error = await failure(getVendors(t));
		expect(error.message).toMatch(/^INVALID_API_KEY: Invalid API key\.{10}/);
		const text = [error.message, error.description, JSON.stringify(error)].join('\n');
		expect(leakedPiece(base64Decodings(text), [KEY])).toBeUndefined();
	});

	/** Every byte of `text` as %XX; `literal(i)` keeps character i as it is. */
	const percentEncoded = (
		text: string,
		hex: (h: string, i: number) => string,
		literal: (i: number) => boolean = () => false,
	) =>
		[...Buffer.from(text)]
			.map((byte, i) =>
				literal(i) ? String.fromCharCode(byte) : `%${hex(byte.toString(16).padStart(2, '0'), i)}`,
			)
			.join('');

	it.each([
		['upper-case hex', () => percentEncoded(KEY, (h) => h.toUpperCase())],
		['lower-case hex', () => percentEncoded(KEY, (h) => h)],
		[
			'mixed case, some characters literal',
			() =>
				percentEncoded(
					KEY,
					(h, i) => (i % 2 ? h : h.toUpperCase()),
					(i) => i % 3 === 0,
				),
		],
	])(
		'a redirect whose Location carries the key with every byte percent-encoded (%s) never reaches the error',
		async (_, encoded) => {
			server = await scriptedServer((_req, res) => {
				res.writeHead(302, {
					location: `https://login.example.com/?key=${encoded()}`,
					...okHeaders(),
				});
				res.end();
			});
			const { t } = transportWithShiftableClock();
			const error = await failure(getVendors(t));
			expect(error.message).toMatch(
				/^The service answered HTTP 302 \(a redirect to https:\/\/login\.example\.com\//,
			);
			const text = [error.message, error.description, JSON.stringify(error)].join('\n');
			expect(leakedPiece(decodeURIComponent(text), [KEY])).toBeUndefined();
		},
	);
});

describe('what is sent where', () => {
	it.each([
		['a bare "?"', (url: string) => `${url}/?`],
		['a bare "#"', (url: string) => `${url}#`],
		['a query', (url: string) => `${url}/?x=1`],
	])('a Base URL ending in %s is refused before sending', async (_, baseUrl) => {
		server = await scriptedServer((_req, res) => answer(res, 200, LIST, okHeaders()));
		const { t } = transportWithShiftableClock();
		const error = await failure(getVendors(t, undefined, { baseUrl: baseUrl(server.baseUrl) }));
		expect(error.message).toMatch(/Base URL .* is not a valid http\(s\) URL/);
		expect(server.hits).toHaveLength(0);
	});

	it('a *.localhost name is not trusted with plain http:// (it is resolved through DNS)', async () => {
		server = await scriptedServer((_req, res) => answer(res, 200, LIST, okHeaders()));
		const { t } = transportWithShiftableClock();
		const port = new URL(server.baseUrl).port;
		const error = await failure(
			getVendors(t, undefined, { baseUrl: `http://finance.localhost:${port}` }),
		);
		expect(error.message).toMatch(/Refusing to send the API key over plain http:\/\//);
		expect(server.hits).toHaveLength(0);
	});

	it.each([
		['has_more: true, total: 250', { has_more: true, total: 250 }],
		['no has_more, total: 250', { has_more: undefined, total: 250 }],
	])(
		'Return All: an empty page 2 whose answer says more remain (%s) is an error, not 100 items',
		async (_, meta) => {
			server = await scriptedServer((_req, res, i) => {
				const data = i === 0 ? Array.from({ length: 100 }, (__, n) => ({ id: `v${n}` })) : [];
				answer(res, 200, { data, meta: { page: i + 1, limit: 100, ...meta } }, okHeaders());
			});
			const { t } = transportWithShiftableClock();
			const error = await failure(
				t.apiRequestAllItems.call(realContext(creds()), '/v1/vendors', {}, { returnAll: true }),
			);
			expect(error.message).toBe(
				`The service answered page 2 of /v1/vendors with no items but said more remain (has_more: ${String(meta.has_more)}, total: 250; 100 received before it)`,
			);
			expect(
				server.hits.map((h) => new URL(h.url, server!.baseUrl).searchParams.get('page')),
			).toEqual(['1', '2']);
		},
	);

	it('a list whose elements are not objects is an error, not items', async () => {
		server = await scriptedServer((_req, res) =>
			answer(
				res,
				200,
				{ data: [{ id: 'a' }, 1, 'text', null], meta: { has_more: false } },
				okHeaders(),
			),
		);
		const { t } = transportWithShiftableClock();
		const error = await failure(
			t.apiRequestAllItems.call(realContext(creds()), '/v1/vendors', {}, { returnAll: true }),
		);
		expect(error.message).toBe(
			'The service answered /v1/vendors with a list whose element 1 is not an object (number)',
		);
	});
});
