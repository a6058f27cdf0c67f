// A test can lose a processor's answer on the way back (a 502, as when a balancer's upstream
// connection breaks after the request was handled): that is how a service ends up retrying a
// delivery that a processor has already accepted.
import * as http from 'http';

export interface BalancedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: string;
}

export interface Route {
	target: number;
	loseAnswer?: boolean;
}

export type RoutePolicy = (request: BalancedRequest, index: number) => Route | Promise<Route>;

export interface RoutedRequest extends BalancedRequest, Route {
	/** 0 when the processor could not be reached. */
	upstreamStatus: number;
	status: number;
}

export interface LoadBalancer {
	/** No trailing slash. */
	url: string;
	routed: RoutedRequest[];
	/** Without a policy, requests go to the processors in turn. */
	setPolicy(policy?: RoutePolicy): void;
	close(): Promise<void>;
}

const HOP_BY_HOP = ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'];

export async function startLoadBalancer(targets: string[], port: number): Promise<LoadBalancer> {
	const routed: RoutedRequest[] = [];
	let turn = 0;
	const roundRobin: RoutePolicy = () => ({ target: turn++ % targets.length });
	let policy = roundRobin;
	const server = http.createServer((req, res) => {
		void readRequest(req)
			.then(async (request) => {
				const route = await policy(request, routed.length);
				const upstream = await forward(targets[route.target], request);
				const status = route.loseAnswer || upstream.status === 0 ? 502 : upstream.status;
				routed.push({ ...request, ...route, upstreamStatus: upstream.status, status });
				res.writeHead(status, status === upstream.status ? upstream.headers : {});
				res.end(status === upstream.status ? upstream.body : 'bad gateway');
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
		setPolicy: (next) => {
			policy = next ?? roundRobin;
		},
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
