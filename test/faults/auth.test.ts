/**
 * Rejected keys through the real node: the sandbox's three 401 codes give clear, distinct
 * messages, and the API key string appears nowhere in the run: the whole result is serialised,
 * errors with their stack, context and cause included, with and without Continue On Fail. (Keys
 * and Base URLs refused before sending: test/unit/transport.credential.test.ts.)
 */
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
});
