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
	await new Promise<void>((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1', () => socket.write('*1\r\n$4\r\nSAVE\r\n'));
		socket.once('data', (answer) => {
			socket.end();
			if (answer.toString().startsWith('+OK')) resolve();
			else reject(new Error(`redis SAVE answered ${answer.toString().trim()}`));
		});
		socket.once('error', reject);
	});
}
