/** The one base of every stand-in service or receiver in the tests. */
import * as http from 'http';
import type { AddressInfo } from 'net';

interface Hit {
	method: string;
	url: string;
	authorization?: string;
	accept?: string;
}

export interface ScriptedServer {
	baseUrl: string;
	hits: Hit[];
	/** Requests whose answer has not ended yet. */
	open(): number;
	close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that answers with `handler`; `close()` also ends open answers. */
export async function scriptedServer(
	handler: (req: http.IncomingMessage, res: http.ServerResponse, index: number) => void,
): Promise<ScriptedServer> {
	const hits: Hit[] = [];
	const pending = new Set<http.ServerResponse>();
	const server = http.createServer((req, res) => {
		hits.push({
			method: req.method ?? '',
			url: req.url ?? '',
			authorization: req.headers.authorization,
			accept: req.headers.accept,
		});
		pending.add(res);
		res.on('close', () => pending.delete(res));
		handler(req, res, hits.length - 1);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		hits,
		open: () => pending.size,
		close: async () => {
			for (const res of pending) res.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export function answer(
	res: http.ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	res.writeHead(status, { 'content-type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

export async function bodyOf(req: http.IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}
