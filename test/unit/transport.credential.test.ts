import { existsSync } from 'fs';
import { NodeOperationError } from 'n8n-workflow';
import { resolve } from 'path';

import { BusinessFinanceApi } from '../../credentials/BusinessFinanceApi.credentials';
import { readCredential } from '../../nodes/BusinessFinance/helpers/credentialRules';
import { freePort } from '../../scripts/ports';
import { failure } from './transport-fakes';
import {
	creds,
	getVendors,
	HTTP_KEY,
	LIST,
	okHeaders,
	realContext,
	serve,
	server,
	testCredential,
	transportWithShiftableClock,
	useScriptedServer,
} from './transport-http';
import { answer, bodyOf } from '../helpers/scripted-server';
import { expectNowhereIn } from '../helpers/secrets';

useScriptedServer();

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

describe('the base URL', () => {
	const KEY_ = 'svc_dummy_base_url_key_0123';
	const baseUrlOf = (baseUrl: string) => {
		const read = readCredential({ apiKey: KEY_, baseUrl });
		return 'baseUrl' in read ? read.baseUrl : undefined;
	};

	it('normalises the base URL: trailing slashes and /v1 are tolerated', () => {
		expect(baseUrlOf('https://api.example.com/')).toBe('https://api.example.com');
		expect(baseUrlOf('https://api.example.com/v1')).toBe('https://api.example.com');
		expect(baseUrlOf(' https://api.example.com/v1/ ')).toBe('https://api.example.com');
		expect(baseUrlOf('https://api.example.com/finance/v1//')).toBe(
			'https://api.example.com/finance',
		);
		expect(baseUrlOf('api.example.com')).toBeUndefined();
		expect(baseUrlOf('ftp://api.example.com')).toBeUndefined();
		expect(baseUrlOf('')).toBeUndefined();
	});

	it.each([
		['loopback', '127.0.0.1 127.1.2.3 localhost LOCALHOST [::1] [::ffff:7f00:1]', true],
		[
			'other hosts',
			'10.0.0.1 128.0.0.1 example.com localhost.example.com 127.0.0.1.nip.io [::2]',
			false,
		],
		// names are resolved through DNS: only the literal `localhost` is trusted
		['names ending in localhost', 'api.localhost localhost.', false],
	] as const)('%s: plain http:// allowed is %s', (_, hosts, loopback) => {
		for (const host of hosts.split(' '))
			expect(baseUrlOf(`http://${host}:4010`) !== undefined).toBe(loopback);
	});
});

describe('refusals before sending', () => {
	const port = () => new URL(server.baseUrl).port;
	const SVC = /must start with "svc_"/;
	const SPACE = /contains a space or line break/;
	const HTTP = /Refusing to send the API key over plain http:\/\//;
	const URL_ = /Base URL .* is not a valid http\(s\) URL/;
	it.each<[string, { apiKey?: string; baseUrl?: () => string }, RegExp]>([
		['a key without svc_', { apiKey: 'sk_live_abcdefgh' }, SVC],
		['an empty key', { apiKey: '' }, SVC],
		['"svc_" alone', { apiKey: 'svc_' }, SVC],
		['"svcx_"', { apiKey: 'svcx_1234' }, SVC],
		['a leading space', { apiKey: ` ${HTTP_KEY}` }, SPACE],
		['a trailing line break', { apiKey: `${HTTP_KEY}\n` }, SPACE],
		['a space inside', { apiKey: 'svc_dummy key_with_space' }, SPACE],
		// both reach this machine's server: only the refusal keeps the key off plain http
		['http:// to 0.0.0.0', { baseUrl: () => `http://0.0.0.0:${port()}` }, HTTP],
		// resolved through DNS: only the literal `localhost` is trusted
		['http:// to *.localhost', { baseUrl: () => `http://finance.localhost:${port()}` }, HTTP],
		['a Base URL ending in "?"', { baseUrl: () => `${server.baseUrl}/?` }, URL_],
		['a Base URL ending in "#"', { baseUrl: () => `${server.baseUrl}#` }, URL_],
		['a Base URL with a query', { baseUrl: () => `${server.baseUrl}/?x=1` }, URL_],
		['no URL at all', { baseUrl: () => 'not a url' }, URL_],
	])('%s: refused with a clear error, the key not in it, nothing sent', async (_, over, text) => {
		await serve((_req, res) => answer(res, 200, LIST, okHeaders()));
		const { t } = transportWithShiftableClock();
		const { apiKey, baseUrl } = { apiKey: HTTP_KEY, ...over };
		const error = await failure(
			t.apiRequest.call(
				realContext(creds({ apiKey, ...(baseUrl && { baseUrl: baseUrl() }) })),
				'GET',
				'/v1/vendors',
				undefined,
				undefined,
				{ itemIndex: 3 },
			),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(text);
		expect(error.context.itemIndex).toBe(3);
		if (apiKey.trim().length > 4) expectNowhereIn(error, apiKey.trim());
		expect(server.hits).toHaveLength(0);
	});
});

describe('over real HTTP', () => {
	it('the Test button lists one vendor, and it and the requests send exactly the same key, asking for JSON', async () => {
		// like the service: only the exact key is accepted
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
		const { t } = transportWithShiftableClock();
		await expect(testCredential(creds())).resolves.toEqual({
			status: 'OK',
			message: expect.stringMatching(/successful/),
		});
		await getVendors(t);
		expect(server.hits.map((h) => [h.method, h.url, h.authorization, h.accept])).toEqual([
			['GET', '/v1/vendors?limit=1', `Bearer ${HTTP_KEY}`, 'application/json'],
			['GET', '/v1/vendors', `Bearer ${HTTP_KEY}`, 'application/json'],
		]);
	});

	// The Test button's status table: the key works (a 429 too), or what to fix; never the key.
	const refusal = (code: string, message = 'x') => ({ error: { code, message } });
	it.each<[number, unknown, 'OK' | 'Error', RegExp]>([
		[429, refusal('RATE_LIMITED', 'slow down'), 'OK', /accepted/],
		[401, refusal('MISSING_API_KEY'), 'Error', /No API key reached the service/],
		[401, refusal('API_KEY_EXPIRED'), 'Error', /API_KEY_EXPIRED.*has expired/],
		[401, refusal('INVALID_API_KEY'), 'Error', /INVALID_API_KEY.*revoked/],
		[404, refusal('NOT_FOUND', 'no route'), 'Error', /vendors was not found.*Base URL/],
		[503, refusal('SERVICE_UNAVAILABLE', 'down'), 'Error', /503.*SERVICE_UNAVAILABLE/],
		[502, '<html><title>Bad Gateway</title></html>', 'Error', /502/],
		[200, '<html>hello</html>', 'Error', /not like the Business Finance API/],
		[403, refusal('FORBIDDEN', `not for Bearer ${HTTP_KEY}`), 'Error', /key is not allowed/],
	])('the Test button on HTTP %i %j: %s, saying why', async (status, body, verdict, text) => {
		await serve((_req, res) => {
			res.writeHead(status, okHeaders());
			res.end(typeof body === 'string' ? body : JSON.stringify(body));
		});
		const tested = await testCredential(creds());
		expect(tested).toEqual({ status: verdict, message: expect.stringMatching(text) });
		expect(tested.message).not.toContain(HTTP_KEY.slice(4));
	});

	it('the Test button on a host that does not resolve, and refusing a key with a space unsent', async () => {
		const unresolved = await testCredential(creds({ baseUrl: 'https://bf-test.invalid' }));
		expect(unresolved.message).toMatch(/^Could not connect \(\w+\)\. .*could not be resolved/);
		await serve((_req, res) => answer(res, 200, LIST, okHeaders()));
		const spaced = await testCredential(creds({ apiKey: ` ${HTTP_KEY}` }));
		expect(spaced).toEqual({ status: 'Error', message: expect.stringMatching(/space/) });
		expect(spaced.message).not.toContain(HTTP_KEY);
		expect(server.hits).toHaveLength(0);
	});

	it('an empty body is sent as {} (not as a JSON Content-Type with nothing after it), JSON asked for', async () => {
		const received: string[] = [];
		await serve(async (req, res) => {
			const { accept, 'content-type': type } = req.headers;
			received.push(String(accept), String(type), String(await bodyOf(req)));
			answer(res, 200, { data: { id: 'r1' } }, okHeaders());
		});
		const { t } = transportWithShiftableClock();
		await t.apiRequest.call(realContext(creds()), 'PATCH', '/v1/receivables/r1', {});
		expect(received).toEqual(['application/json', 'application/json', '{}']);
	});

	it('an unreachable host: a clear message (for a POST, that nothing was created), and from the Test button', async () => {
		const over = { baseUrl: `http://127.0.0.1:${await freePort()}` }; // nothing listens there
		const { t } = transportWithShiftableClock();
		const error = await failure(
			t.apiRequest.call(realContext({ apiKey: HTTP_KEY, ...over }), 'POST', '/v1/vendors', {}),
		);
		expect(error.message).toBe('Could not reach the Business Finance service (ECONNREFUSED)');
		expect(error.description).toMatch(/Nothing is listening/);
		expect(error.description).toMatch(/nothing was created/);
		expectNowhereIn(error, HTTP_KEY);
		const tested = await testCredential({ apiKey: HTTP_KEY, ...over });
		expect(tested.status).toBe('Error');
		expect(tested.message).toMatch(/ECONNREFUSED.*Nothing is listening/);
	});

	it('does not follow a redirect, so the key never reaches the redirect target (requests and the Test button)', async () => {
		await serve((req, res) => {
			res.writeHead(302, { location: `${server.baseUrl}/elsewhere${req.url}`, ...okHeaders() });
			res.end();
		});
		const { t } = transportWithShiftableClock();
		expect((await failure(getVendors(t))).message).toMatch(/HTTP 302 \(a redirect to/);
		const tested = await testCredential(creds());
		expect(tested.status).toBe('Error');
		expect(tested.message).toMatch(/redirect/);
		expect(server.hits.map((h) => h.url)).toEqual(['/v1/vendors', '/v1/vendors?limit=1']);
	});
});
