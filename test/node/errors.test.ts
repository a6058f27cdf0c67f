import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNowhereIn } from '../helpers/secrets';
import { UNKNOWN_UUID, useEnv, VALID } from './support';

// 'authentication errors' reads n8n's log to show it holds no secret: this file turns n8n's logger
// back on (test/helpers/n8n-log-level.ts silences it; n8n-core creates it on first use) and has it
// write to a file of its own instead of the console.
const LOG_FILE = join(mkdtempSync(join(tmpdir(), 'bf-node-errors-')), 'n8n.log');
Object.assign(process.env, {
	N8N_LOG_LEVEL: 'info',
	N8N_LOG_OUTPUT: 'file',
	N8N_LOG_FILE_LOCATION: LOG_FILE,
});

const env = useEnv();

const logSize = () => (existsSync(LOG_FILE) ? statSync(LOG_FILE).size : 0);
/** What n8n logged after the first `from` bytes, once its file transport has written it. */
const logs = async (from: number) => {
	await new Promise((resolve) => setTimeout(resolve, 50));
	return readFileSync(LOG_FILE).subarray(from).toString('utf8');
};

describe('Continue On Fail', () => {
	it('"Continue (using error output)": service and input errors go to the error output, paired', async () => {
		const send = { resource: 'receivable', operation: 'send', receivableId: '={{ $json.id }}' };
		const receivable = { invoice_number: 'S', amount: 1, customer_email: 'a@b.co' };
		const { id: created } = await env.api<{ id: string }>('POST', '/v1/receivables', receivable);
		const items = [{ id: UNKNOWN_UUID }, { id: created }, { id: 'not-a-uuid' }];
		const res = await env.run(send, { onError: 'continueErrorOutput', items });
		expect(res.error).toBeUndefined();
		expect((await env.requests()).map((q) => q.status)).toEqual([404, 200]);
		const [success, failed] = res.outputs;
		expect(success.map((i) => [i.json.id, i.pairedItem])).toEqual([[created, { item: 1 }]]);
		expect(failed.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(failed[0].json.error).toEqual(expect.stringContaining('NOT_FOUND'));
		expect(failed[1].json.error).toEqual(expect.stringContaining('Receivable ID'));
		expect(failed[0].json.details).toEqual(expect.stringContaining('Check the ID'));
	});

	it('a list operation with Continue On Fail: elements of good items, an error item for a bad one', async () => {
		await env.sb.admin.seedVendors(3);
		const res = await env.run(
			{ resource: 'vendor', operation: 'getAll', returnAll: false, limit: '={{ $json.limit }}' },
			{ continueOnFail: true, items: [{ limit: 2 }, { limit: -1 }] },
		);
		expect(res.error).toBeUndefined();
		expect(res.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }]);
		expect(res.items[2].json.error).toEqual(expect.stringContaining('Limit'));
		expect(await env.requests()).toHaveLength(1);
	});
});

describe('authentication errors', () => {
	// [key, code, what the message says, the operation run]
	it.each([
		['expired', 'API_KEY_EXPIRED', /expired/i, { resource: 'treasury', operation: 'getBalance' }],
		[
			'revoked',
			'INVALID_API_KEY',
			/invalid|revoked/i,
			{
				resource: 'vendor',
				operation: 'create',
				name: 'X',
				paymentMethod: 'crypto',
				additionalFields: { walletAddress: VALID.evm, walletChain: 'ethereum' },
			},
		],
	] as const)(
		'the %s key: %s with a clear message, the key nowhere in the run',
		async (which, code, says, parameters) => {
			const key = env.sb.keys[which];
			const logged = logSize();
			const res = await env.run(parameters, { apiKey: key });
			expect(res.error!.message).toContain(code);
			expect(`${res.error!.message} ${res.error!.description ?? ''}`).toMatch(says);
			expect(res.error!.context.itemIndex).toBe(0);
			expect((await env.requests()).map((r) => r.status)).toEqual([401]);
			expectNowhereIn(res.serialised, key, key.slice(4));
			const text = await logs(logged);
			expect(text).toContain(code); // this run's logs were captured...
			expect(text).not.toContain(key.slice(4)); // ...and hold no part of the key
		},
	);

	it('a 401 under Continue On Fail becomes an error item without the key', async () => {
		const key = env.sb.keys.revoked;
		const res = await env.run(
			{ resource: 'treasury', operation: 'getBalance' },
			{ apiKey: key, continueOnFail: true },
		);
		expect(res.error).toBeUndefined();
		expect(res.items).toHaveLength(1);
		expect(res.items[0].json.error).toEqual(expect.stringContaining('INVALID_API_KEY'));
		expect(res.items[0].json.httpCode).toBe('401'); // n8n shows it on the error item
		expect(res.items[0].pairedItem).toEqual({ item: 0 });
		expectNowhereIn(res.serialised, key);
	});

	it('the working key is sent as a Bearer token and never appears in outputs', async () => {
		const res = await env.run({ resource: 'treasury', operation: 'getDepositInstructions' });
		expect(res.error).toBeUndefined();
		const [req] = await env.requests();
		expect(req.headers.authorization).toBe(`Bearer svc_…${env.sb.apiKey.slice(-4)}`);
		expectNowhereIn(res.serialised, env.sb.apiKey);
	});
});
