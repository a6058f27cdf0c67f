/**
 * The sandbox answers only requests addressed to a loopback host (a web page rebinding its own
 * name to 127.0.0.1 still sends that name as Host), and its admin routes only loopback clients,
 * whatever spelling of the path reaches them. The requests are written byte for byte over a real
 * TCP connection (HTTP clients set Host themselves and normalise percent-encoded paths and
 * absolute-form request lines away); the admin tests send them from this machine's own
 * non-loopback address, the sandbox listening on every interface.
 */
import * as net from 'net';
import * as os from 'os';

import { startSandbox } from '../../sandbox';
import { achVendor, useHarness } from './support';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** An address of this machine that is not loopback (IPv4 first), or undefined. */
function externalAddress(): string | undefined {
	const all = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
	const external = all.filter((a) => !a.internal && !a.address.startsWith('fe80'));
	return (external.find((a) => a.family === 'IPv4') ?? external[0])?.address;
}

/** Sends one request exactly as written (no Host unless given); resolves with its answer. */
async function rawRequest(
	to: string,
	port: number,
	requestLine: string,
	headers: Record<string, string>,
	body = '',
): Promise<{ status: number; head: string; body: string }> {
	const length = body ? { 'content-length': String(Buffer.byteLength(body)) } : {};
	const lines = Object.entries({ connection: 'close', ...headers, ...length }).map(
		([name, value]) => `${name}: ${value}`,
	);
	return await new Promise((resolve, reject) => {
		const socket = net.connect(port, to, () => {
			socket.write(`${requestLine}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
		});
		let text = '';
		socket.on('data', (chunk) => (text += chunk.toString('utf8')));
		socket.on('error', reject);
		socket.on('end', () => {
			const end = text.indexOf('\r\n\r\n');
			const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
			resolve({ status, head: text.slice(0, end), body: text.slice(end + 4) });
		});
	});
}

describe('requests addressed to a host that is not loopback', () => {
	const h = useHarness({}, { resetEach: true });
	/** An admin route and an API route (valid key), each creating a vendor when it gets through. */
	const sendBoth = async (host: Record<string, string>, version = 'HTTP/1.1', origin = '') => {
		const send = (path: string, body: unknown) =>
			rawRequest(
				'127.0.0.1',
				h.sb.port,
				`POST ${origin}${path} ${version}`,
				{ ...host, authorization: `Bearer ${h.sb.apiKey}`, 'content-type': 'application/json' },
				JSON.stringify(body),
			);
		return [
			await send('/_admin/vendors/seed', { count: 1 }),
			await send('/v1/vendors', achVendor()),
		];
	};
	const counts = async () => (await h.admin.getStats()).counts;

	// `host` undefined: no Host header at all (HTTP/1.0; Node answers HTTP/1.1 without it 400).
	it.each([
		{ name: 'evil.example', host: 'evil.example' },
		{ name: 'evil.example with the port', host: 'evil.example:PORT' },
		{ name: '127.0.0.1.evil.example', host: '127.0.0.1.evil.example' },
		{ name: 'localhost.evil.example', host: 'localhost.evil.example:PORT' },
		{ name: 'no Host (HTTP/1.0)', host: undefined, version: 'HTTP/1.0' },
		{
			name: 'an absolute-form target on another host',
			host: 'localhost',
			origin: 'http://evil.example',
		},
	])('$name: 421, nothing done, logged or counted', async ({ host, version, origin }) => {
		const header: Record<string, string> = host
			? { host: host.replace('PORT', `${h.sb.port}`) }
			: {};
		for (const res of await sendBoth(header, version, origin)) {
			expect(res.status).toBe(421);
			expect(JSON.parse(res.body)).toEqual({
				error: { code: 'MISDIRECTED_REQUEST', message: expect.stringContaining('loopback host') },
			});
			expect(res.head).not.toMatch(/x-ratelimit/i);
		}
		expect(await counts()).toMatchObject({ vendors: 0, requests: 0 });
	});

	it.each([
		'localhost:PORT',
		'LocalHost',
		'app.localhost:PORT',
		'127.0.0.1',
		'127.8.9.10:PORT',
		'[::1]:PORT',
		'[::ffff:127.0.0.1]:PORT',
		'[::ffff:7f00:1]',
	])('Host: %s still reaches both', async (host) => {
		const answers = await sendBoth({ host: host.replace('PORT', String(h.sb.port)) });
		expect(answers.map((res) => res.status)).toEqual([200, 201]);
		expect(await counts()).toMatchObject({ vendors: 2, requests: 1 });
	});
});

const address = externalAddress();
const describeWithAddress = address ? describe : describe.skip;
if (!address)
	console.warn('admin-loopback.test: no non-loopback interface on this machine, skipped');

describeWithAddress('admin routes from a non-loopback address', () => {
	let sb: Sandbox;
	let auth: Record<string, string>;
	// A loopback Host: the admin check is on the connection's address, not on what it claims.
	const send = (line: string, from = address!) =>
		rawRequest(from, sb.port, line, { host: 'localhost', ...auth });

	beforeAll(async () => {
		sb = await startSandbox({
			port: 0,
			host: address!.includes(':') ? '::' : '0.0.0.0',
			seed: 'none',
		});
		// A valid key: the admin check must hold even for a client that has one.
		auth = { authorization: `Bearer ${sb.apiKey}` };
	});
	afterAll(async () => {
		await sb.close();
	});

	it('control: the same client reaches the API, so the refusals below are about the admin routes', async () => {
		expect((await send('GET /v1/vendors HTTP/1.1')).status).toBe(200);
	});

	// PORT is replaced by the sandbox's port when the request is sent.
	const spellings = [
		'GET /_admin/requests HTTP/1.1',
		'GET /%5Fadmin/requests HTTP/1.1',
		'GET /%5fadmin/requests HTTP/1.1',
		'GET /_admin/%72equests HTTP/1.1',
		'GET http://127.0.0.1:PORT/_admin/requests HTTP/1.1',
		'GET http://localhost/%5Fadmin/events HTTP/1.1',
		'DELETE /%5Fadmin/faults HTTP/1.1',
		'POST /%5Fadmin/reset HTTP/1.1',
		'GET /_admin/no-such-route HTTP/1.1',
	];

	it.each(spellings)('%s: 403 FORBIDDEN', async (line) => {
		const res = await send(line.replace('PORT', String(sb.port)));
		expect(res.status).toBe(403);
		expect(JSON.parse(res.body)).toEqual({
			error: { code: 'FORBIDDEN', message: 'Admin routes answer loopback clients only' },
		});
	});

	it('a loopback client still reaches them, under any of those spellings', async () => {
		for (const line of [
			'GET /_admin/requests HTTP/1.1',
			'GET /%5Fadmin/requests HTTP/1.1',
			`GET http://127.0.0.1:${sb.port}/_admin/requests HTTP/1.1`,
		]) {
			const res = await send(line, '127.0.0.1');
			expect(res.status).toBe(200);
			expect(Array.isArray(JSON.parse(res.body).data)).toBe(true);
		}
	});
});
