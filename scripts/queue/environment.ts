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
import { saveRedis, startRedis, type RedisInstance } from './redis';

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
		private readonly runtime: Runtime,
		private readonly programs: QueueServicePrograms,
	) {}

	static async start(
		runtime: Runtime,
		programs: QueueServicePrograms,
		/** Default: a new folder under the system's temporary folder, removed by stop(). */
		options: { dir?: string } = {},
	): Promise<QueueEnvironment> {
		const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bf-queue-'));
		fs.mkdirSync(dir, { recursive: true });
		const env = new QueueEnvironment(dir, options.dir === undefined, runtime, programs);
		try {
			await env.startParts();
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

	/** As an outage: Redis stops (its keys saved first); the function returned starts it again. */
	async stopRedis(): Promise<() => Promise<void>> {
		const { port } = this.redis;
		await saveRedis(port);
		await stopGroup(this.redis.process, 'SIGTERM', 10_000);
		return async () => {
			this.redis = await startRedis(this.programs.redisServer, this.dir, port);
		};
	}

	/** As a crash (out of memory, a node lost): no shutdown, its jobs left as they were. */
	async kill(name: string): Promise<void> {
		await stopGroup(this.group(name), 'SIGKILL');
	}

	private group(name: string): GroupProcess {
		const found = this.processGroups().find((g) => g.name === name);
		if (!found) throw new Error(`no process ${name} in the queue environment`);
		return found.process;
	}

	/** Starts again, on their ports, the n8n processes that are not running (as a supervisor would). */
	async restartStopped(): Promise<string[]> {
		const { runtime, settings, dir } = this;
		const starts: Array<Promise<unknown>> = [];
		const restarted: string[] = [];
		if (!this.main.process.running()) {
			const port = this.main.options.port;
			starts.push(startMain(runtime, settings, dir, port).then((m) => (this.main = m)));
			restarted.push('main');
		}
		for (const [role, list] of [
			['worker', this.workers],
			['webhook', this.webhookProcessors],
		] as const) {
			list.forEach((p, i) => {
				if (p.process.running()) return;
				const spec = { role, index: i + 1, port: p.port };
				starts.push(startQueueProcess(runtime, settings, dir, spec).then((q) => (list[i] = q)));
				restarted.push(p.name);
			});
		}
		await Promise.all(starts);
		return restarted;
	}

	private async startParts(): Promise<void> {
		const { runtime, programs } = this;
		const ports = new Set<number>();
		while (ports.size < 2 + 2 * PROCESSES_PER_ROLE) ports.add(await freePort());
		const [balancerPort, mainPort, ...rest] = [...ports];
		// Each stop names the current instance: stopRedis() and restartStopped() replace them.
		const redis = this.record(startRedis(programs.redisServer, this.dir), () => ({
			name: 'redis',
			service: true,
			stop: () => stopGroup(this.redis.process, 'SIGTERM', 10_000),
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
		this.main = await this.record(main, () => ({ name: 'main', stop: () => this.main.stop() }));
		const start = (role: 'worker' | 'webhook', port: number, i: number) =>
			this.record(
				startQueueProcess(runtime, this.settings, this.dir, { role, index: i + 1, port }),
				(p) => ({ name: p.name, stop: () => stopGroup(this.group(p.name)) }),
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
