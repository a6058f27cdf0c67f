/**
 * The transport over real HTTP against the in-process sandbox, through n8n-core's own
 * httpRequestWithAuthentication (its axios stack, the credential's `authenticate` applied) and,
 * for the credential test, n8n-core's CredentialTestContext (the legacy `request` helper).
 */
import { inspect } from 'util';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../nodes/BusinessFinance/helpers/constants';
import { createTransport, type Transport } from '../../nodes/BusinessFinance/transport';
import { businessFinanceApiTest } from '../../nodes/BusinessFinance/transport/credential';
import { systemClock } from '../../nodes/BusinessFinance/transport/deadline';
import { freePort } from '../../scripts/ports';
import { startSandbox } from '../../sandbox';
import { scriptedServer } from '../helpers/scripted-server';
import { CredentialTestContext, failure, realContext } from './transport-http';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

// The real clock, with the shortest backoff: these tests wait in real time.
const newTransport = () => createTransport({ clock: { ...systemClock, random: () => 0 } });
let transport: Transport = newTransport();
const apiRequest: Transport['apiRequest'] = async function (this, ...args) {
	return await transport.apiRequest.apply(this, args);
};
const apiRequestAllItems: Transport['apiRequestAllItems'] = async function (this, ...args) {
	return await transport.apiRequestAllItems.apply(this, args);
};
/** A transport of its own, as a freshly started n8n: it knows nothing of the key. */
const resetRateLimitState = () => (transport = newTransport());
let sb: Sandbox;

beforeAll(async () => {
	sb = await startSandbox({
		port: 0,
		host: '127.0.0.1',
		seed: 'none',
		rateLimit: 100_000,
		rateWindowSeconds: 60,
	});
});
afterAll(async () => {
	await sb.close();
});
beforeEach(async () => {
	resetRateLimitState();
	await sb.admin.reset('none');
	await sb.admin.setRateLimit({ limit: 100_000, windowSeconds: 60, retryAfter: false });
	await sb.admin.clearFaults();
	await sb.admin.clearRequests();
});

const creds = (over: Partial<ICredentialDataDecryptedObject> = {}) => ({
	apiKey: sb.apiKey,
	baseUrl: sb.baseUrl,
	...over,
});

describe('over real HTTP (sandbox)', () => {
	it('lists 250 seeded vendors in 3 requests with Bearer auth from the credential', async () => {
		await sb.admin.seedVendors(250);
		const ctx = realContext(creds({ baseUrl: `${sb.baseUrl}/v1/` }));
		const qs = { search: '' };
		const items = await apiRequestAllItems.call(ctx, '/v1/vendors', qs, { returnAll: true });
		expect(items).toHaveLength(250);
		expect(new Set(items.map((v) => v.id)).size).toBe(250);
		expect(qs).toEqual({ search: '' });
		const log = await sb.admin.getRequests();
		expect(log.map((r) => [r.method, r.path, r.query.page, r.query.limit, r.status])).toEqual([
			['GET', '/v1/vendors', '1', '100', 200],
			['GET', '/v1/vendors', '2', '100', 200],
			['GET', '/v1/vendors', '3', '100', 200],
		]);
		expect(String(log[0].headers.authorization)).toMatch(
			new RegExp(`^Bearer svc_.*${sb.apiKey.slice(-4)}$`),
		);
	});

	it('creates with a JSON body and returns {data}', async () => {
		const ctx = realContext(creds());
		const result = await apiRequest.call(ctx, 'POST', '/v1/receivables', {
			invoice_number: 'INV-1',
			amount: 12.5,
		});
		expect(result.data).toMatchObject({ invoice_number: 'INV-1', amount: 12.5, status: 'draft' });
		const [logged] = await sb.admin.getRequests();
		expect(logged.status).toBe(201);
		expect(String(logged.headers['content-type'])).toMatch(/application\/json/);
	});

	it('an empty body is sent as {} (not as a JSON Content-Type with nothing after it)', async () => {
		const ctx = realContext(creds());
		const created = await apiRequest.call(ctx, 'POST', '/v1/receivables', {
			invoice_number: 'INV-E',
			amount: 1,
		});
		const id = (created.data as { id: string }).id;
		await sb.admin.clearRequests();
		let outcome: any;
		try {
			outcome = await apiRequest.call(ctx, 'PATCH', `/v1/receivables/${id}`, {});
		} catch (error) {
			outcome = error;
		}
		const [logged] = await sb.admin.getRequests();
		expect(logged.body).toEqual({});
		expect([200, 400]).toContain(logged.status);
		expect(String(outcome?.message ?? '')).not.toMatch(/INVALID_JSON|UNSUPPORTED_MEDIA_TYPE/);
	});

	it('a GET survives two 503s and a connection reset; each was a real request', async () => {
		await sb.admin.addFault({ kind: 'status503', count: 2, pathPrefix: '/v1/treasury/balance' });
		await sb.admin.addFault({ kind: 'reset', count: 1, pathPrefix: '/v1/treasury/balance' });
		const ctx = realContext(creds());
		const result = await apiRequest.call(ctx, 'GET', '/v1/treasury/balance');
		expect(result.data).toHaveProperty('balances');
		const log = await sb.admin.getRequests();
		expect(log).toHaveLength(4);
	});

	it('a POST hit by a connection reset is sent once and not retried', async () => {
		await sb.admin.addFault({
			kind: 'reset',
			count: 1,
			pathPrefix: '/v1/receivables',
			method: 'POST',
		});
		const error = await failure(
			apiRequest.call(realContext(creds()), 'POST', '/v1/receivables', {
				invoice_number: 'INV-2',
				amount: 3,
			}),
		);
		expect(error.description).toMatch(/may or may not have been processed/);
		const log = await sb.admin.getRequests();
		expect(log).toHaveLength(1);
		expect(error.message).toMatch(/ECONNRESET|Could not reach/);
	});

	it('an unreachable host gives a clear message; a POST to it says nothing was created', async () => {
		const port = await freePort(); // nothing listens there any more
		const error = await failure(
			apiRequest.call(
				realContext(creds({ baseUrl: `http://127.0.0.1:${port}` })),
				'POST',
				'/v1/vendors',
				{ name: 'x' },
			),
		);
		expect(error.message).toBe('Could not reach the Business Finance service (ECONNREFUSED)');
		expect(error.description).toMatch(/Nothing is listening/);
		expect(error.description).toMatch(/nothing was created/);
		expect(JSON.stringify(error) + inspect(error, { depth: 10 })).not.toContain(sb.apiKey);
	});

	it('does not follow a redirect, so the key never reaches the redirect target', async () => {
		const redirector = await scriptedServer((req, res) => {
			res.writeHead(302, { location: `${sb.baseUrl}${req.url}` });
			res.end();
		});
		try {
			const error = await failure(
				apiRequest.call(realContext(creds({ baseUrl: redirector.baseUrl })), 'GET', '/v1/vendors'),
			);
			expect(error.message).toMatch(/HTTP 302 \(a redirect to/);
			expect(await sb.admin.getRequests()).toHaveLength(0);
			const tested = await businessFinanceApiTest.call(new CredentialTestContext({}), {
				id: '1',
				name: 'c',
				type: CREDENTIAL_NAME,
				data: creds({ baseUrl: redirector.baseUrl }),
			});
			expect(tested.status).toBe('Error');
			expect(tested.message).toMatch(/redirect/);
			expect(await sb.admin.getRequests()).toHaveLength(0);
		} finally {
			await redirector.close();
		}
	});
});

describe('credential test (n8n-core CredentialTestContext)', () => {
	const test = (data: ICredentialDataDecryptedObject) =>
		businessFinanceApiTest.call(new CredentialTestContext({}), {
			id: '1',
			name: 'c',
			type: CREDENTIAL_NAME,
			data,
		});

	it('accepts the working key', async () => {
		await expect(test(creds())).resolves.toEqual({
			status: 'OK',
			message: expect.stringMatching(/successful/),
		});
		const log = await sb.admin.getRequests();
		expect(log.map((r) => [r.method, r.path, r.query.limit])).toEqual([
			['GET', '/v1/vendors', '1'],
		]);
	});

	it.each([
		['expired', 'API_KEY_EXPIRED', /expired/],
		['revoked', 'INVALID_API_KEY', /invalid or has been revoked/],
	] as const)('explains the %s key', async (which, code, text) => {
		const result = await test(creds({ apiKey: sb.keys[which] }));
		expect(result.status).toBe('Error');
		expect(result.message).toContain(code);
		expect(result.message).toMatch(text);
		expect(result.message).not.toContain(sb.keys[which]);
	});

	it('explains an unreachable host', async () => {
		const port = await freePort(); // nothing listens there any more
		const down = await test(creds({ baseUrl: `http://127.0.0.1:${port}` }));
		expect(down.status).toBe('Error');
		expect(down.message).toMatch(/ECONNREFUSED/);
		expect(down.message).toMatch(/Nothing is listening/);
	});

	it('explains a base URL that is not the API', async () => {
		const result = await test(creds({ baseUrl: `${sb.baseUrl}/somewhere-else` }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Base URL/);
	});
});
