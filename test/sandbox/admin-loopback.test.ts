/**
 * The admin routes answer loopback clients only, whatever spelling of the path reaches them. The
 * sandbox listens on every interface and the requests come over a real TCP connection from this
 * machine's own non-loopback address, written byte for byte (percent-encoded paths and
 * absolute-form request lines are what HTTP clients normalise away).
 */
import * as net from 'net';
import * as os from 'os';

import { startSandbox } from '../../sandbox';

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
