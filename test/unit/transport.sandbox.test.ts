/**
 * The transport over real HTTP against the in-process sandbox, through n8n-core's own
 * httpRequestWithAuthentication (its axios stack, the credential's `authenticate` applied) and,
 * for the credential test, n8n-core's CredentialTestContext (the legacy `request` helper).
 */
import { inspect } from 'util';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { createTransport, type Transport } from '../../nodes/BusinessFinance/transport';
import { systemClock } from '../../nodes/BusinessFinance/transport/deadline';
import { freePort } from '../../scripts/ports';
import { startSandbox } from '../../sandbox';
import { scriptedServer } from '../helpers/scripted-server';
import { failure, realContext, testCredential } from './transport-http';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

let sb: Sandbox;
let apiRequest: Transport['apiRequest'];

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
	// A transport of its own, as a freshly started n8n, on the real clock with the shortest backoff.
	({ apiRequest } = createTransport({ clock: { ...systemClock, random: () => 0 } }));
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
	it('an empty body is sent as {} (not as a JSON Content-Type with nothing after it)', async () => {
		const ctx = realContext(creds());
		const created = await apiRequest.call(ctx, 'POST', '/v1/receivables', {
			invoice_number: 'INV-E',
			amount: 1,
		});
		const id = (created.data as { id: string }).id;
		await sb.admin.clearRequests();
		const outcome = await apiRequest
			.call(ctx, 'PATCH', `/v1/receivables/${id}`, {})
			.catch((error: Error) => error);
		const [logged] = await sb.admin.getRequests();
		expect(logged.body).toEqual({});
		expect([200, 400]).toContain(logged.status);
		expect(String(outcome?.message ?? '')).not.toMatch(/INVALID_JSON|UNSUPPORTED_MEDIA_TYPE/);
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
			const tested = await testCredential(creds({ baseUrl: redirector.baseUrl }));
			expect(tested.status).toBe('Error');
			expect(tested.message).toMatch(/redirect/);
			expect(await sb.admin.getRequests()).toHaveLength(0);
		} finally {
			await redirector.close();
		}
	});
});

describe('credential test (n8n-core CredentialTestContext)', () => {
	it('accepts the working key', async () => {
		await expect(testCredential(creds())).resolves.toEqual({
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
		const result = await testCredential(creds({ apiKey: sb.keys[which] }));
		expect(result.status).toBe('Error');
		expect(result.message).toContain(code);
		expect(result.message).toMatch(text);
		expect(result.message).not.toContain(sb.keys[which]);
	});

	it('explains an unreachable host', async () => {
		const port = await freePort(); // nothing listens there any more
		const down = await testCredential(creds({ baseUrl: `http://127.0.0.1:${port}` }));
		expect(down.status).toBe('Error');
		expect(down.message).toMatch(/ECONNREFUSED/);
		expect(down.message).toMatch(/Nothing is listening/);
	});

	it('explains a base URL that is not the API', async () => {
		const result = await testCredential(creds({ baseUrl: `${sb.baseUrl}/somewhere-else` }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Base URL/);
	});
});
