/**
 * When did each request reach the service? A loopback proxy in front of the sandbox records every
 * arrival; replaying the sandbox's window rule over them shows how long after each used-up
 * window's end the next request came. The proxy adds latency: a diagnostic only, not timed.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export async function startTimeline(targetBaseUrl: string) {
	const target = new URL(targetBaseUrl);
	const agent = new http.Agent({ keepAlive: true });
	const arrivals: number[] = [];
	const server = http.createServer((req, res) => {
		arrivals.push(performance.now());
		const upstream = http.request(
			{
				host: target.hostname,
				port: target.port,
				method: req.method,
				path: req.url,
				headers: req.headers,
				agent,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		/** Arrival times (performance.now() ms) since the last `clear()`. */
		arrivals,
		clear: () => {
			arrivals.length = 0;
		},
		close: async () => {
			agent.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** For each used-up window (`limit` requests), ms from its end to the next request. */
export function lostAfterFullWindows(
	arrivals: number[],
	limit: number,
	windowMs: number,
): number[] {
	const lost: number[] = [];
	let start = Number.NEGATIVE_INFINITY;
	let count = 0;
	for (const t of arrivals) {
		if (t >= start + windowMs) {
			if (count >= limit) lost.push(Math.round((t - (start + windowMs)) * 10) / 10);
			start = t;
			count = 0;
		}
		count += 1;
	}
	return lost;
}
