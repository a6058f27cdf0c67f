/**
 * The credential's shape (the public names saved workflows depend on) and the credential test's answers
 * to each kind of failure, with a scripted legacy `request` helper. The request it sends, over real
 * HTTP through n8n-core's CredentialTestContext: transport.credential.test.ts.
 */
import { existsSync } from 'fs';
import { resolve } from 'path';
import type { ICredentialTestFunctions } from 'n8n-workflow';

import { BusinessFinanceApi } from '../../credentials/BusinessFinanceApi.credentials';
import { businessFinanceApiTest } from '../../nodes/BusinessFinance/transport/credential';

const KEY = 'svc_dummy_credential_test_0123456789';

describe('credential businessFinanceApi', () => {
	const credential = new BusinessFinanceApi();
	const field = (name: string) => credential.properties.find((p) => p.name === name)!;

	it('has the public name, display name and fields saved workflows depend on', () => {
		expect(credential.name).toBe('businessFinanceApi');
		expect(credential.displayName).toBe('Business Finance API');
		expect(credential.properties.map((p) => p.name)).toEqual([
			'apiKey',
			'baseUrl',
			'webhookSigningSecret',
		]);
		expect(field('apiKey')).toMatchObject({
			type: 'string',
			required: true,
			typeOptions: { password: true },
		});
		// No default: a user who leaves it empty is told to fill it in, not sent to their own machine.
		expect(field('baseUrl')).toMatchObject({ type: 'string', required: true, default: '' });
		expect(field('baseUrl').placeholder).toMatch(/^e\.g\. https:\/\//);
		expect(field('webhookSigningSecret')).toMatchObject({
			type: 'string',
			typeOptions: { password: true },
		});
		expect(field('webhookSigningSecret').required).toBeFalsy();
		expect(field('apiKey').description).toMatch(/Settings → API Keys/);
	});

	it('has a documentation URL and light/dark icons that exist', () => {
		expect(credential.documentationUrl).toMatch(/^https:\/\//);
		const icon = credential.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark]) {
			expect(file).toMatch(/^file:\.\.\/icons\/businessFinance(\.dark)?\.svg$/);
			expect(existsSync(resolve(__dirname, '../../credentials', file.replace(/^file:/, '')))).toBe(
				true,
			);
		}
	});
});

describe('credential test businessFinanceApiTest (scripted request helper)', () => {
	/** The test's result, and the requests it sent. */
	async function run(
		answer: (options: Record<string, unknown>) => unknown,
		data: Record<string, unknown> = {},
	) {
		const calls: Array<Record<string, unknown>> = [];
		const ctx = {
			logger: { debug() {}, info() {}, warn() {}, error() {} },
			helpers: {
				request: async (options: Record<string, unknown>) => {
					calls.push(options);
					return await answer(options);
				},
			},
		} as unknown as ICredentialTestFunctions;
		const result = await businessFinanceApiTest.call(ctx, {
			id: '1',
			name: 'c',
			type: 'businessFinanceApi',
			data: { apiKey: KEY, baseUrl: 'https://api.example.com/v1/', ...data },
		});
		return { ...result, calls };
	}
	const answer = (statusCode: number, body: unknown) => () => ({
		statusCode,
		headers: {},
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});

	it('a 429 means the key works', async () => {
		const rateLimited = { error: { code: 'RATE_LIMITED', message: 'slow down' } };
		expect(await run(answer(429, rateLimited))).toMatchObject({ status: 'OK' });
	});

	it.each([
		[401, { error: { code: 'MISSING_API_KEY', message: 'x' } }, /No API key reached the service/],
		[401, { error: { code: 'API_KEY_EXPIRED', message: 'x' } }, /API_KEY_EXPIRED.*has expired/],
		[401, { error: { code: 'INVALID_API_KEY', message: 'x' } }, /INVALID_API_KEY.*revoked/],
		[404, { error: { code: 'NOT_FOUND', message: 'no route' } }, /Base URL/],
		[503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } }, /503.*SERVICE_UNAVAILABLE/],
		[502, '<html><title>Bad Gateway</title></html>', /502/],
		[200, '<html>hello</html>', /not like the Business Finance API/],
		[302, '', /redirect/],
		[403, { error: { code: 'FORBIDDEN', message: 'no' } }, /API key is not allowed/],
	] as const)('HTTP %i %j is explained', async (status, body, text) => {
		const r = await run(answer(status, body));
		expect(r.status).toBe('Error');
		expect(r.message).toMatch(text);
	});

	it.each([
		['ECONNREFUSED', /Nothing is listening/],
		['ENOTFOUND', /could not be resolved/],
		['ETIMEDOUT', /did not answer in time/],
	])('a network error %s is explained', async (code, text) => {
		const r = await run(() => {
			throw Object.assign(new Error(`connect ${code}`), {
				code,
				options: { headers: { Authorization: `Bearer ${KEY}` } },
			});
		});
		expect(r.status).toBe('Error');
		expect(r.message).toContain(code);
		expect(r.message).toMatch(text);
		expect(r.message).not.toContain(KEY);
	});

	it('an unexpected error that mentions the key does not echo it', async () => {
		const r = await run(() => {
			throw new Error(`strange failure for Bearer ${KEY}`);
		});
		expect(r.status).toBe('Error');
		expect(r.message).not.toContain(KEY);
		expect(r.message).not.toContain(KEY.slice(4));
	});

	// The same rules as for requests (readCredential; every case: transport.credential.test.ts).
	it.each([
		// the key is sent as stored: a test that passed with a trimmed key would be followed by 401s
		[{ apiKey: ` ${KEY}` }, /contains a space or line break/],
		[{ baseUrl: 'http://finance.example.com' }, /plain http/],
	])('refuses %p without sending', async (data, text) => {
		const r = await run(answer(200, { data: [] }), data);
		expect(r.status).toBe('Error');
		expect(r.message).toMatch(text);
		expect(r.message).not.toContain(KEY);
		expect(r.calls).toHaveLength(0);
	});
});
