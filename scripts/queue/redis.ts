import * as fs from 'fs';
import * as path from 'path';
import { freePort } from '../ports';
import { startGroup, type GroupProcess } from '../process-group';

export interface RedisInstance {
	port: number;
	process: GroupProcess;
}

export async function startRedis(redisServer: string, dir: string): Promise<RedisInstance> {
	const port = await freePort();
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
