/**
 * When did each request reach the service? A loopback HTTP proxy in front of the sandbox records
 * the arrival time of every request; replaying the sandbox's window rule (a window starts with the
 * first request after the previous one ended and lasts `windowMs`) over those times shows, for
 * every window the node used up, how long after the window's end the next request came: the time
 * the rate-limit wait lost. The proxy adds a little latency, so it is used only for this
 * diagnostic, not for the timed scenarios.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface Timeline {
	baseUrl: string;
	/** Arrival times (performance.now() ms) of the requests since the last `clear()`. */
	arrivals: number[];
	clear(): void;
	close(): Promise<void>;
}

export async function startTimeline(targetBaseUrl: string): Promise<Timeline> {
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

/**
 * For each window that was used up (`limit` requests), the time from its end to the next request
 * (ms); negative would mean a request inside a full window, i.e. a 429.
 */
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
