import * as fs from 'fs';
import * as net from 'net';
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
		readyFor: `redis on port ${port} to answer PING`,
		isReady: () => answersPing(port),
		timeoutMs: 30_000,
		pollMs: 100,
	});
	return { port, process: proc };
}

async function answersPing(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		let answer = '';
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(1000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			answer += chunk.toString();
			if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
		});
	});
}
