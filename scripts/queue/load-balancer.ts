// Round-robin over the webhook processors, recording where each request went.
import * as http from 'http';

interface BalancedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: string;
}

export interface RoutedRequest extends BalancedRequest {
	target: number;
	/** 502 when the processor could not be reached. */
	status: number;
}

export interface LoadBalancer {
	/** No trailing slash. */
	url: string;
	routed: RoutedRequest[];
	close(): Promise<void>;
}

const HOP_BY_HOP = ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'];

export async function startLoadBalancer(targets: string[], port: number): Promise<LoadBalancer> {
	const routed: RoutedRequest[] = [];
	let turn = 0;
	const server = http.createServer((req, res) => {
		void readRequest(req)
			.then(async (request) => {
				const target = turn++ % targets.length;
				const upstream = await forward(targets[target], request);
				const status = upstream.status || 502;
				routed.push({ ...request, target, status });
				res.writeHead(status, upstream.headers);
				res.end(upstream.status ? upstream.body : 'bad gateway');
			})
			.catch((error: Error) => {
				res.writeHead(500);
				res.end(`load balancer error: ${error.message}`);
			});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	return {
		url: `http://127.0.0.1:${port}`,
		routed,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

async function readRequest(req: http.IncomingMessage): Promise<BalancedRequest> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined && !HOP_BY_HOP.includes(name)) {
			headers[name] = Array.isArray(value) ? value.join(', ') : value;
		}
	}
	const body = Buffer.concat(chunks).toString('utf8');
	return { method: req.method ?? 'GET', path: req.url ?? '/', headers, body };
}

interface Upstream {
	status: number;
	headers: Record<string, string>;
	body: string;
}

async function forward(target: string, request: BalancedRequest): Promise<Upstream> {
	try {
		const hasBody = !['GET', 'HEAD'].includes(request.method);
		const res = await fetch(`${target}${request.path}`, {
			method: request.method,
			headers: request.headers,
			body: hasBody ? request.body : undefined,
		});
		const headers: Record<string, string> = {};
		res.headers.forEach((value, name) => {
			if (!HOP_BY_HOP.includes(name) && name !== 'content-encoding') headers[name] = value;
		});
		return { status: res.status, headers, body: await res.text() };
	} catch {
		return { status: 0, headers: {}, body: '' };
	}
}
