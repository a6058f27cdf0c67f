/**
 * Which key and base URL may be used (credential.ts): the same rules for requests and the
 * credential's Test button, checked before anything is sent (on a fake transport, and over real
 * HTTP where the request and the Test button must agree).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { inspect } from 'util';

import { CREDENTIAL_NAME } from '../../nodes/BusinessFinance/helpers/constants';
import {
	businessFinanceApiTest,
	isLoopbackHost,
	normaliseBaseUrl,
} from '../../nodes/BusinessFinance/transport/credential';
import { call, failure, fake, fakeContext, KEY, ok, useFakeTransport } from './transport-fakes';
import {
	CredentialTestContext,
	creds,
	getVendors,
	HTTP_KEY,
	LIST,
	okHeaders,
	serve,
	server,
	transportWithShiftableClock,
	useScriptedServer,
} from './transport-http';
import { answer } from '../helpers/scripted-server';

useFakeTransport();
useScriptedServer();

describe('the base URL', () => {
	it('normalises the base URL: trailing slashes and /v1 are tolerated', () => {
		expect(normaliseBaseUrl('https://api.example.com/')).toBe('https://api.example.com');
		expect(normaliseBaseUrl('https://api.example.com/v1')).toBe('https://api.example.com');
		expect(normaliseBaseUrl(' https://api.example.com/v1/ ')).toBe('https://api.example.com');
		expect(normaliseBaseUrl('https://api.example.com/finance/v1//')).toBe(
			'https://api.example.com/finance',
		);
		expect(normaliseBaseUrl('api.example.com')).toBeUndefined();
		expect(normaliseBaseUrl('ftp://api.example.com')).toBeUndefined();
		expect(normaliseBaseUrl('')).toBeUndefined();
	});

	it('recognises loopback hosts', () => {
		for (const host of [
			'127.0.0.1',
			'127.1.2.3',
			'localhost',
			'LOCALHOST',
			'[::1]',
			'[::ffff:7f00:1]',
		]) {
			expect(isLoopbackHost(host)).toBe(true);
		}
		for (const host of [
			'10.0.0.1',
			'128.0.0.1',
			'example.com',
			'localhost.example.com',
			'127.0.0.1.nip.io',
			'[::2]',
			// Names are resolved through DNS: only the literal `localhost` is trusted.
			'api.localhost',
			'localhost.',
		]) {
			expect(isLoopbackHost(host)).toBe(false);
		}
	});

	it.each([
		['a bare "?"', (url: string) => `${url}/?`],
		['a bare "#"', (url: string) => `${url}#`],
		['a query', (url: string) => `${url}/?x=1`],
		['no URL at all', () => 'not a url'],
	])('a Base URL ending in %s is refused before sending', async (_, baseUrl) => {
		await serve((_req, res) => answer(res, 200, LIST, okHeaders()));
		const { t } = transportWithShiftableClock();
		const error = await failure(getVendors(t, undefined, { baseUrl: baseUrl(server.baseUrl) }));
		expect(error.message).toMatch(/Base URL .* is not a valid http\(s\) URL/);
		expect(server.hits).toHaveLength(0);
	});

	it('a *.localhost name is not trusted with plain http:// (it is resolved through DNS)', async () => {
		await serve((_req, res) => answer(res, 200, LIST, okHeaders()));
		const { t } = transportWithShiftableClock();
		const port = new URL(server.baseUrl).port;
		const error = await failure(
			getVendors(t, undefined, { baseUrl: `http://finance.localhost:${port}` }),
		);
		expect(error.message).toMatch(/Refusing to send the API key over plain http:\/\//);
		expect(server.hits).toHaveLength(0);
	});
});

describe('refusals before sending', () => {
	it.each(['http://api.example.com', 'http://10.0.0.5:4010', 'http://127.0.0.1.nip.io'])(
		'refuses to send the key over plain http to %s',
		async (baseUrl) => {
			const ctx = fakeContext(fake, ok, { apiKey: KEY, baseUrl });
			const error = await failure(
				call(ctx, 'GET', '/v1/vendors', undefined, undefined, { itemIndex: 3 }),
			);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(/plain http:\/\//);
			expect(error.description).toMatch(/https:\/\//);
			expect(error.context.itemIndex).toBe(3);
			expect(ctx.calls).toHaveLength(0);
			expect(JSON.stringify(error)).not.toContain(KEY);
		},
	);

	it.each([
		'https://api.example.com',
		'http://localhost:4010',
		'http://[::1]:4010',
		'http://127.0.0.9:1',
	])('allows %s', async (baseUrl) => {
		const ctx = fakeContext(fake, ok, { apiKey: KEY, baseUrl });
		await call(ctx, 'GET', '/v1/vendors');
		expect(ctx.calls).toHaveLength(1);
	});

	it.each(['sk_live_abcdefgh', 'abcd', '', 'svc_', 'svcx_1234'])(
		'refuses the key %p without the svc_ prefix, without echoing it',
		async (apiKey) => {
			const ctx = fakeContext(fake, ok, { apiKey, baseUrl: 'http://127.0.0.1:4010' });
			const error = await failure(
				call(ctx, 'GET', '/v1/vendors', undefined, undefined, { itemIndex: 1 }),
			);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain('svc_');
			expect(error.description).toMatch(/Settings → API Keys/);
			expect(error.context.itemIndex).toBe(1);
			if (apiKey.length > 4)
				expect(JSON.stringify(error) + inspect(error)).not.toContain(apiKey.trim());
			expect(ctx.calls).toHaveLength(0);
		},
	);

	it.each([` ${KEY}`, `${KEY} `, `${KEY}\n`, `svc_dummy key_with_space`])(
		'refuses the key %p with whitespace (it would be sent as is), without echoing it',
		async (apiKey) => {
			const ctx = fakeContext(fake, ok, { apiKey, baseUrl: 'http://127.0.0.1:4010' });
			const error = await failure(call(ctx, 'GET', '/v1/vendors'));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(/contains a space or line break/);
			expect(JSON.stringify(error) + inspect(error)).not.toContain(apiKey.trim());
			expect(ctx.calls).toHaveLength(0);
		},
	);
});

describe('one key, one truth', () => {
	/** Like the service: only the exact key is accepted. */
	const strictServer = async () =>
		await serve((req, res) =>
			req.headers.authorization === `Bearer ${HTTP_KEY}`
				? answer(res, 200, LIST, okHeaders())
				: answer(
						res,
						401,
						{ error: { code: 'INVALID_API_HTTP_KEY', message: 'Invalid API key' } },
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
		await strictServer();
		const { t } = transportWithShiftableClock();
		expect((await credentialTest(creds())).status).toBe('OK');
		await getVendors(t);
		expect(server.hits.map((h) => h.authorization)).toEqual([
			`Bearer ${HTTP_KEY}`,
			`Bearer ${HTTP_KEY}`,
		]);
	});

	it.each([` ${HTTP_KEY}`, `${HTTP_KEY}\n`])(
		'a key pasted with whitespace (%p) fails the test, as it would fail every request',
		async (apiKey) => {
			await strictServer();
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
