import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { freePort } from '../ports';
import { startGroup, type GroupProcess } from '../process-group';

export interface RedisInstance {
	port: number;
	process: GroupProcess;
}

/** `port`: a restart's, on the port the n8n processes know. */
export async function startRedis(
	redisServer: string,
	dir: string,
	port?: number,
): Promise<RedisInstance> {
	port ??= await freePort();
	const dataDir = path.join(dir, 'redis');
	fs.mkdirSync(dataDir, { recursive: true });
	const args = [
		...['--port', String(port), '--bind', '127.0.0.1', '--protected-mode', 'yes'],
		// A test queue: no snapshots, no append-only file, no daemonizing (we own the process).
		...['--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dataDir],
	];
	const proc = await startGroup('redis', redisServer, args, {
		env: { PATH: process.env.PATH ?? '' },
		cwd: dataDir,
		logFile: path.join(dir, 'redis.log'),
		readyFor: `redis on port ${port} to accept connections`,
		// Logged once it listens (Redis 7.0; 7.2 adds " tcp").
		isReady: async (proc) => proc.log().includes('Ready to accept connections'),
		timeoutMs: 30_000,
		pollMs: 100,
	});
	return { port, process: proc };
}

/** As `redis-cli SAVE`: the queue's keys to disk, so that a restart finds them (no save points). */
export async function saveRedis(port: number): Promise<void> {
	const answer = await redisCommand(port, ['SAVE']);
	if (answer !== 'OK') throw new Error(`redis SAVE answered ${answer}`);
}

/**
 * One command, as `redis-cli -p <port> <args>`: the reply's value (a status, a number, a string,
 * or null for a missing key). A reply that comes in several chunks is read whole.
 */
export async function redisCommand(port: number, args: string[]): Promise<string | number | null> {
	const request = [`*${args.length}`, ...args.flatMap((a) => [`$${Buffer.byteLength(a)}`, a])];
	return await new Promise((resolve, reject) => {
		let reply = '';
		const socket = net.connect(port, '127.0.0.1', () =>
			socket.write(`${request.join('\r\n')}\r\n`),
		);
		socket.on('data', (chunk) => {
			reply += chunk.toString();
			const value = parseReply(reply);
			if (value === undefined) return;
			socket.end();
			if (value instanceof Error) reject(value);
			else resolve(value);
		});
		socket.once('error', reject);
	});
}

/** A RESP reply of one value; undefined while incomplete. */
function parseReply(reply: string): string | number | null | Error | undefined {
	const end = reply.indexOf('\r\n');
	if (end < 0) return undefined;
	const [kind, head] = [reply[0], reply.slice(1, end)];
	if (kind === '+') return head;
	if (kind === ':') return Number(head);
	if (kind === '-') return new Error(`redis answered ${head}`);
	if (kind !== '$') return new Error(`redis reply not understood: ${reply.slice(0, 40)}`);
	if (head === '-1') return null;
	const body = reply.slice(end + 2);
	return Buffer.byteLength(body) >= Number(head) + 2 ? body.slice(0, -2) : undefined;
}
