/**
 * A whole n8n queue-mode environment on loopback, as `npm run test:e2e:queue` and the queue-mode
 * benchmark use it: a private Redis and PostgreSQL 17, a load balancer, then n8n main, two workers
 * and two webhook processors. Everything lives in one folder (logs: `<name>.log`) and is stopped,
 * n8n before the services, also after a failed start.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { N8nServer, Runtime } from '../n8n';
import type { LogLevel, N8nOptions } from '../n8n/environment';
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
import { startPostgres, stopPostgres, type PostgresInstance } from './postgres';
import { startRedis, stopRedis, type RedisInstance } from './redis';

export interface QueueEnvironmentOptions {
	/** Jobs each worker runs at once (default 1). */
	concurrency?: number;
	/** The webhook processors' log level (default debug: they log each webhook they receive). */
	webhookLogLevel?: LogLevel;
	/** Default: a new folder under the system's temporary folder, removed by stop(). */
	dir?: string;
}

const PROCESSES_PER_ROLE = 2;

/** One part started so far; services are stopped after every n8n process. */
type Stopper = { name: string; service?: boolean; stop: () => Promise<void> };

/** The running parts of an environment. */
interface Parts {
	settings: SharedSettings;
	redis: RedisInstance;
	postgres: PostgresInstance;
	loadBalancer: LoadBalancer;
	main: N8nServer;
	workers: QueueProcess[];
	webhookProcessors: QueueProcess[];
}

export class QueueEnvironment {
	readonly main: N8nServer;
	readonly workers: QueueProcess[];
	readonly webhookProcessors: QueueProcess[];
	readonly loadBalancer: LoadBalancer;
	readonly settings: SharedSettings;

	private constructor(
		readonly dir: string,
		private readonly parts: Parts,
		private readonly stoppers: Stopper[],
		/** The folder was made for this environment: stop() removes it. */
		private readonly ownsDir: boolean,
	) {
		({ main: this.main, workers: this.workers, settings: this.settings } = parts);
		({ webhookProcessors: this.webhookProcessors, loadBalancer: this.loadBalancer } = parts);
	}

	static async start(
		runtime: Runtime,
		programs: QueueServicePrograms,
		options: QueueEnvironmentOptions = {},
	): Promise<QueueEnvironment> {
		const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bf-queue-'));
		fs.mkdirSync(dir, { recursive: true });
		const ownsDir = options.dir === undefined;
		const stoppers: Stopper[] = [];
		try {
			const parts = await startParts(runtime, programs, dir, options, stoppers);
			return new QueueEnvironment(dir, parts, stoppers, ownsDir);
		} catch (error) {
			await stopAll(stoppers);
			if (ownsDir) fs.rmSync(dir, { recursive: true, force: true });
			throw error;
		}
	}

	/** Every process group of the environment, by name ("redis", "main", "worker-1", ...). */
	processGroups(): Array<{ name: string; process: GroupProcess }> {
		const { redis, postgres, main } = this.parts;
		return [
			{ name: 'redis', process: redis.process },
			{ name: 'postgres', process: postgres.process },
			{ name: 'main', process: main.process },
			...[...this.workers, ...this.webhookProcessors].map(({ name, process }) => ({
				name,
				process,
			})),
		];
	}

	/** Options for n8n's CLI (`import:workflow`, ...) against this environment's database. */
	cliOptions(): N8nOptions {
		return {
			userFolder: this.main.options.userFolder,
			port: 0,
			extraEnv: sharedEnv(this.settings),
		};
	}

	/** Everything's log so far, by process name ("main", "worker-1", "webhook-2", ...). */
	log(name: string): string {
		const file = path.join(this.dir, `${name}.log`);
		return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	}

	/** Stops every process. A folder given by the caller stays (with the logs). */
	async stop(): Promise<void> {
		await stopAll(this.stoppers);
		if (this.ownsDir) fs.rmSync(this.dir, { recursive: true, force: true });
	}
}

/**
 * Waits for every part of `starting`, recording each one's stop as soon as it runs; then throws
 * the first failure, if any.
 */
async function allStarted<T>(
	stoppers: Stopper[],
	starting: Array<Promise<T>>,
	stopOf: (part: T) => Stopper,
) {
	const recorded = starting.map(async (starts) => {
		const part = await starts;
		stoppers.push(stopOf(part));
		return part;
	});
	await Promise.allSettled(recorded);
	return await Promise.all(recorded);
}

async function startParts(
	runtime: Runtime,
	programs: QueueServicePrograms,
	dir: string,
	options: QueueEnvironmentOptions,
	stoppers: Stopper[],
): Promise<Parts> {
	const ports = new Set<number>();
	while (ports.size < 2 + 2 * PROCESSES_PER_ROLE) ports.add(await freePort());
	const [balancerPort, mainPort, ...rest] = [...ports];
	const redisStarting = allStarted(stoppers, [startRedis(programs.redisServer, dir)], (r) => ({
		name: 'redis',
		service: true,
		stop: () => stopRedis(r),
	}));
	const postgresStarting = allStarted(
		stoppers,
		[startPostgres(programs.postgresBinDir, dir)],
		(p) => ({ name: 'postgres', service: true, stop: () => stopPostgres(p) }),
	);
	await Promise.allSettled([redisStarting, postgresStarting]);
	const [[redis], [postgres]] = await Promise.all([redisStarting, postgresStarting]);
	const settings: SharedSettings = {
		redisPort: redis.port,
		postgres,
		encryptionKey: crypto.randomBytes(24).toString('base64url'),
		webhookUrl: `http://127.0.0.1:${balancerPort}`,
	};
	const webhookPorts = rest.slice(0, PROCESSES_PER_ROLE);
	const targets = webhookPorts.map((port) => `http://127.0.0.1:${port}`);
	const loadBalancer = await startLoadBalancer(targets, balancerPort);
	stoppers.push({ name: 'load balancer', stop: () => loadBalancer.close() });
	// Main first: it migrates the fresh database.
	const main = await startMain(runtime, settings, dir, mainPort, 'info');
	stoppers.push({ name: 'main', stop: () => main.stop() });
	const start = (role: 'worker' | 'webhook', port: number, i: number) =>
		startQueueProcess(runtime, settings, dir, {
			role,
			index: i + 1,
			port,
			concurrency: options.concurrency ?? 1,
			logLevel: role === 'worker' ? 'info' : (options.webhookLogLevel ?? 'debug'),
		});
	const processes = await allStarted(
		stoppers,
		[
			...rest.slice(PROCESSES_PER_ROLE).map((port, i) => start('worker', port, i)),
			...webhookPorts.map((port, i) => start('webhook', port, i)),
		],
		(p) => ({ name: p.name, stop: () => stopGroup(p.process) }),
	);
	const workers = processes.slice(0, PROCESSES_PER_ROLE);
	const webhookProcessors = processes.slice(PROCESSES_PER_ROLE);
	return { settings, redis, postgres, loadBalancer, main, workers, webhookProcessors };
}

/** n8n's processes at once, then the services they use; every stop is tried, errors reported. */
async function stopAll(stoppers: Stopper[]): Promise<void> {
	const all = stoppers.splice(0);
	const failures: string[] = [];
	for (const service of [false, true]) {
		const group = all.filter((s) => Boolean(s.service) === service);
		const results = await Promise.allSettled(group.map((s) => s.stop()));
		results.forEach((r, i) => {
			if (r.status === 'rejected') failures.push(`${group[i].name}: ${r.reason}`);
		});
	}
	if (failures.length) throw new Error(`stopping the queue environment:\n${failures.join('\n')}`);
}
