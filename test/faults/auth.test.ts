/**
 * Keys and where requests may go, through the real node:
 * - the sandbox's three 401 codes give clear, distinct messages, and the API key string appears
 *   nowhere in the run: the whole result is serialised, errors with their stack, context and
 *   cause included, with and without Continue On Fail;
 * - a Base URL with plain http:// to a host that is not loopback is refused before any socket is
 *   opened. Proof: the host is 0.0.0.0, which the operating system connects to the local machine,
 *   where a TCP server counts connections (a control shows a connection through 0.0.0.0 does
 *   arrive there). Nothing leaves the machine.
 */
import * as http from 'http';
import * as net from 'net';
import type { AddressInfo } from 'net';

import {
	fresh,
	requestLog,
	serialiseEverything,
	startFaultEnv,
	vendorCreate,
	vendorList,
	type NodeTestEnv,
} from './support';
import type { RunNodeResult } from '../helpers/n8n';

let env: NodeTestEnv;
beforeAll(async () => {
	env = await startFaultEnv();
});
afterAll(async () => {
	await env.close();
});
beforeEach(async () => {
	await fresh(env);
});

/** A made-up key for these tests (not a real secret). */
const fakeKey = (prefix: string, rest: string): string => `${prefix}${rest}`;

/** Where `needle` occurs in `haystack`, with some context; undefined when it does not. */
function findIn(haystack: string, needle: string): string | undefined {
	const at = haystack.indexOf(needle);
	return at < 0 ? undefined : haystack.slice(Math.max(0, at - 200), at + needle.length + 50);
}

/**
 * The key appears nowhere in the run: the run data (n8n's IRun, what n8n stores and shows), the
 * node's error object and the output items, serialised with stacks, contexts and causes. (The
 * harness's credentials store, the test's own fixture, is the one place it is expected.)
 */
function expectNoKey(res: RunNodeResult, key: string): void {
	const everything = serialiseEverything({
		run: res.run,
		error: res.error,
		items: res.items,
		workflowError: res.workflowError,
	});
	expect(everything.length).toBeGreaterThan(100);
	if (res.error) expect(everything).toContain('"stack"'); // the error's stack was included
	for (const needle of [key, key.slice('svc_'.length)]) {
		expect(findIn(everything, needle)).toBeUndefined();
		expect(findIn(res.serialised, needle)).toBeUndefined();
	}
}

describe('the search for the key', () => {
	it('sees what JSON.stringify leaves out: an error’s stack, message and cause', () => {
		const needle = fakeKey('svc_', 'n33dle_in_the_stack');
		const error = new Error(`failed with ${needle}`);
		(error as Error & { cause?: unknown }).cause = new Error(`cause ${needle}`);
		const run = { data: { error, items: [{ json: {} }] } };
		expect(JSON.stringify(run)).not.toContain(needle);
		const everything = serialiseEverything(run);
		expect(findIn(everything, needle)).toBeDefined();
		expect(everything).toContain('"stack"');
	});
});

describe('the three 401 codes', () => {
	const cases = () =>
		[
			[
				'INVALID_API_KEY',
				fakeKey('svc_', 'f4ult5uite_wr0ng_9b2c7d41e6'),
				/invalid or has been revoked/,
			],
			['INVALID_API_KEY', env.sb.keys.revoked, /invalid or has been revoked/],
			['API_KEY_EXPIRED', env.sb.keys.expired, /has expired/],
		] as const;

	it('a key pasted with a space inside is refused before any request, without the key in the run', async () => {
		// Sent as is, the header would no longer have the form "Bearer <key>" (the service's
		// MISSING_API_KEY); the key is sent exactly as stored, so it is refused first.
		const key = fakeKey('svc_', 'f4ult5uite a8c1e9d27b');
		const res = await env.run(vendorList, { apiKey: key });

		expect(res.error).toBeDefined();
		expect(res.error!.message).toMatch(/contains a space or line break/);
		expect(res.items).toHaveLength(0);
		expect(await requestLog(env)).toHaveLength(0);
		expectNoKey(res, key);
	});

	it.each([0, 1, 2])(
		'case %i: clear message, one request, no key anywhere in the run',
		async (n) => {
			const [code, key, hint] = cases()[n];
			const res = await env.run(vendorList, { apiKey: key });

			expect(res.error).toBeDefined();
			expect(res.error!.message).toContain(code);
			expect(String(res.error!.description)).toMatch(hint);
			expect(res.items).toHaveLength(0);
			const log = await requestLog(env);
			expect(log).toHaveLength(1); // a 401 is final: not retried
			expect(log[0].status).toBe(401);
			expectNoKey(res, key);
		},
	);

	it('with Continue On Fail each item gets the clear message, still without the key', async () => {
		const key = fakeKey('svc_', 'f4ult5uite_wr0ng_0c3e5a7f91');
		const res = await env.run(vendorCreate, {
			apiKey: key,
			items: [{ name: 'a' }, { name: 'b' }],
			continueOnFail: true,
		});

		expect(res.items).toHaveLength(2);
		for (const [i, item] of res.items.entries()) {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.error).toMatch(/INVALID_API_KEY/);
			expect(String(item.json.description)).toMatch(/invalid or has been revoked/);
		}
		expectNoKey(res, key);
	});

	it('a key without the svc_ prefix is refused before sending, and not echoed', async () => {
		const key = fakeKey('sk_live_', 'f4ult5uite_9d8c7b6a');
		const res = await env.run(vendorList, { apiKey: key });
		expect(res.error!.message).toMatch(/must start with "svc_"/);
		expect(await requestLog(env)).toHaveLength(0);
		expect(findIn(serialiseEverything({ run: res.run, error: res.error }), key)).toBeUndefined();
	});
});

describe('plain http:// to a host that is not loopback', () => {
	let server: net.Server;
	let port: number;
	let connections = 0;
	beforeAll(async () => {
		server = net.createServer((socket) => {
			connections += 1;
			socket.destroy();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		port = (server.address() as AddressInfo).port;
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	it('control: a request to http://0.0.0.0:<port> does reach the local counting server', async () => {
		const before = connections;
		await new Promise<void>((resolve) => {
			const req = http.get(`http://0.0.0.0:${port}/v1/vendors`, () => resolve());
			req.on('error', () => resolve());
		});
		expect(connections).toBe(before + 1);
	});

	it.each([
		['list', vendorList],
		['create', vendorCreate],
	])(
		'%s: refused with a clear error before any connection is opened',
		async (_name, parameters) => {
			const before = connections;
			const res = await env.run(parameters, {
				baseUrl: `http://0.0.0.0:${port}`,
				items: [{ name: 'x' }],
			});

			expect(res.error).toBeDefined();
			expect(res.error!.message).toMatch(/Refusing to send the API key over plain http:\/\//);
			expect(String(res.error!.description)).toMatch(/https:\/\//);
			// Give a stray connection attempt time to arrive before counting.
			await new Promise((resolve) => setTimeout(resolve, 100));
			expect(connections).toBe(before);
			expectNoKey(res, env.sb.apiKey);
		},
	);

	it('https:// to the same host is allowed to try (so the refusal above is about http://)', async () => {
		const before = connections;
		const res = await env.run(vendorList, { baseUrl: `https://0.0.0.0:${port}` });
		expect(res.error).toBeDefined();
		expect(res.error!.message).not.toMatch(/Refusing/);
		expect(connections).toBeGreaterThan(before);
	});
});
