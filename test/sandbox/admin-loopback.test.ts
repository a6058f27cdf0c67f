/**
 * The sandbox answers only requests addressed to a loopback host (a web page rebinding its own
 * name to 127.0.0.1 still sends that name as Host), and its admin routes only loopback clients,
 * whatever spelling of the path reaches them. Written byte for byte over TCP: HTTP clients set
 * Host themselves and normalise percent-encoded paths and absolute-form request lines away.
 */
import * as net from 'net';
import * as os from 'os';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { achVendor, useHarness } from './support';

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
	const refused = ['evil.example', 'evil.example:PORT', '127.0.0.1.evil.example'];
	const loopback = ['localhost:PORT', 'LocalHost', 'app.localhost:PORT', '127.0.0.1'];
	const mapped = ['127.8.9.10:PORT', '[::1]:PORT', '[::ffff:127.0.0.1]:PORT', '[::ffff:7f00:1]'];
	it.each<{ host?: string; version?: string; origin?: string; reaches: boolean }>([
		...[...refused, 'localhost.evil.example:PORT'].map((host) => ({ host, reaches: false })),
		{ host: undefined, version: 'HTTP/1.0', reaches: false },
		{ host: 'localhost', origin: 'http://evil.example', reaches: false }, // absolute-form target
		...[...loopback, ...mapped].map((host) => ({ host, reaches: true })),
	])(
		'Host $host $origin: reaches both $reaches (else 421, nothing done, logged or counted)',
		async ({ host, version, origin, reaches }) => {
			const header: Record<string, string> = host
				? { host: host.replace('PORT', `${h.sb.port}`) }
				: {};
			const answers = await sendBoth(header, version, origin);
			expect(answers.map((res) => res.status)).toEqual(reaches ? [200, 201] : [421, 421]);
			for (const res of answers.filter(({ status }) => status === 421)) {
				expect(JSON.parse(res.body)).toEqual({
					error: { code: 'MISDIRECTED_REQUEST', message: expect.stringContaining('loopback host') },
				});
				expect(res.head).not.toMatch(/x-ratelimit/i);
			}
			const done = reaches ? { vendors: 2, requests: 1 } : { vendors: 0, requests: 0 };
			expect(await counts()).toMatchObject(done);
		},
	);
});

const address = externalAddress();
const describeWithAddress = address ? describe : describe.skip;
if (!address)
	console.warn('admin-loopback.test: no non-loopback interface on this machine, skipped');

describeWithAddress('admin routes from a non-loopback address', () => {
	let sb: RunningSandbox;
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
	it.each([
		['GET /_admin/requests HTTP/1.1', 200],
		['GET /%5Fadmin/requests HTTP/1.1', 200],
		['GET /%5fadmin/requests HTTP/1.1', 200],
		['GET /_admin/%72equests HTTP/1.1', 200],
		['GET http://127.0.0.1:PORT/_admin/requests HTTP/1.1', 200],
		['GET http://localhost/%5Fadmin/events HTTP/1.1', 200],
		['DELETE /%5Fadmin/faults HTTP/1.1', 200],
		['POST /%5Fadmin/reset HTTP/1.1', 400], // reached: no body
		['GET /_admin/no-such-route HTTP/1.1', 404],
	])('%s: 403 FORBIDDEN; from a loopback client %i', async (line, fromLoopback) => {
		const request = line.replace('PORT', String(sb.port));
		const res = await send(request);
		expect(res.status).toBe(403);
		expect(JSON.parse(res.body)).toEqual({
			error: { code: 'FORBIDDEN', message: 'Admin routes answer loopback clients only' },
		});
		expect((await send(request, '127.0.0.1')).status).toBe(fromLoopback);
	});
});
