import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { N8nServer, Runtime } from '../n8n';
import type { N8nOptions } from '../n8n/environment';
import { freePort } from '../ports';
import { stopGroup, type GroupProcess } from '../process-group';
import type { QueueServicePrograms } from './installed';
import { startLoadBalancer, type LoadBalancer } from './load-balancer';
import {
	sharedEnv,
	startMain,
	startQueueProcess,
	type QueueProcess,
	type SharedSettings,
} from './n8n-processes';
import { startPostgres, type PostgresInstance } from './postgres';
import { startRedis, type RedisInstance } from './redis';

const PROCESSES_PER_ROLE = 2;

/** One part started so far; services are stopped after every n8n process. */
type Part = { name: string; service?: boolean; stop: () => Promise<void> };

export class QueueEnvironment {
	settings!: SharedSettings;
	loadBalancer!: LoadBalancer;
	main!: N8nServer;
	workers: QueueProcess[] = [];
	webhookProcessors: QueueProcess[] = [];
	private redis!: RedisInstance;
	private postgres!: PostgresInstance;
	private readonly parts: Part[] = [];

	private constructor(
		readonly dir: string,
		private readonly ownsDir: boolean,
	) {}

	static async start(
		runtime: Runtime,
		programs: QueueServicePrograms,
		/** Default: a new folder under the system's temporary folder, removed by stop(). */
		options: { dir?: string } = {},
	): Promise<QueueEnvironment> {
		const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bf-queue-'));
		fs.mkdirSync(dir, { recursive: true });
		const env = new QueueEnvironment(dir, options.dir === undefined);
		try {
			await env.startParts(runtime, programs);
			return env;
		} catch (error) {
			await env.stop();
			throw error;
		}
	}

	processGroups(): Array<{ name: string; process: GroupProcess }> {
		return [
			{ name: 'redis', process: this.redis.process },
			{ name: 'postgres', process: this.postgres.process },
			{ name: 'main', process: this.main.process },
			...this.workers,
			...this.webhookProcessors,
		];
	}

	cliOptions(): N8nOptions {
		return {
			userFolder: this.main.options.userFolder,
			port: 0,
			extraEnv: sharedEnv(this.settings),
		};
	}

	/** A folder given by the caller stays, with the logs. */
	async stop(): Promise<void> {
		const parts = this.parts.splice(0);
		const failures: string[] = [];
		for (const service of [false, true]) {
			const group = parts.filter((s) => Boolean(s.service) === service);
			const results = await Promise.allSettled(group.map((s) => s.stop()));
			results.forEach((r, i) => {
				if (r.status === 'rejected') failures.push(`${group[i].name}: ${r.reason}`);
			});
		}
		if (this.ownsDir) fs.rmSync(this.dir, { recursive: true, force: true });
		if (failures.length) throw new Error(`stopping the queue environment:\n${failures.join('\n')}`);
	}

	private async record<T>(starting: Promise<T>, partOf: (started: T) => Part): Promise<T> {
		const started = await starting;
		this.parts.push(partOf(started));
		return started;
	}

	private async startParts(runtime: Runtime, programs: QueueServicePrograms): Promise<void> {
		const ports = new Set<number>();
		while (ports.size < 2 + 2 * PROCESSES_PER_ROLE) ports.add(await freePort());
		const [balancerPort, mainPort, ...rest] = [...ports];
		const redis = this.record(startRedis(programs.redisServer, this.dir), (r) => ({
			name: 'redis',
			service: true,
			stop: () => stopGroup(r.process, 'SIGTERM', 10_000),
		}));
		const postgres = this.record(startPostgres(programs.postgresBinDir, this.dir), (p) => ({
			name: 'postgres',
			service: true,
			// Fast shutdown: open sessions are ended, nothing is waited for.
			stop: () => stopGroup(p.process, 'SIGINT', 15_000),
		}));
		// Every start settles before the first failure is thrown: none is left running unrecorded.
		await Promise.allSettled([redis, postgres]);
		[this.redis, this.postgres] = await Promise.all([redis, postgres]);
		this.settings = {
			redisPort: this.redis.port,
			postgres: this.postgres,
			encryptionKey: crypto.randomBytes(24).toString('base64url'),
			webhookUrl: `http://127.0.0.1:${balancerPort}`,
		};
		const webhookPorts = rest.slice(0, PROCESSES_PER_ROLE);
		const targets = webhookPorts.map((port) => `http://127.0.0.1:${port}`);
		const balancer = startLoadBalancer(targets, balancerPort);
		this.loadBalancer = await this.record(balancer, (lb) => ({
			name: 'load balancer',
			stop: () => lb.close(),
		}));
		// Main first: it migrates the fresh database.
		const main = startMain(runtime, this.settings, this.dir, mainPort);
		this.main = await this.record(main, (m) => ({ name: 'main', stop: () => m.stop() }));
		const start = (role: 'worker' | 'webhook', port: number, i: number) =>
			this.record(
				startQueueProcess(runtime, this.settings, this.dir, { role, index: i + 1, port }),
				(p) => ({ name: p.name, stop: () => stopGroup(p.process) }),
			);
		const processes = [
			...rest.slice(PROCESSES_PER_ROLE).map((port, i) => start('worker', port, i)),
			...webhookPorts.map((port, i) => start('webhook', port, i)),
		];
		await Promise.allSettled(processes);
		const started = await Promise.all(processes);
		this.workers = started.slice(0, PROCESSES_PER_ROLE);
		this.webhookProcessors = started.slice(PROCESSES_PER_ROLE);
	}
}
