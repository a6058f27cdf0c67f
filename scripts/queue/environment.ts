/**
 * A whole n8n queue-mode environment on loopback, as `npm run test:e2e:queue` and the queue-mode
 * benchmark use it: a private Redis and PostgreSQL 17, a load balancer, then n8n main, workers and
 * webhook processors. Everything lives in one folder (logs: `<name>.log`) and stops in reverse
 * order, also after a failed start.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { N8nServer, Runtime } from '../n8n';
import type { LogLevel, N8nOptions } from '../n8n/environment';
import { stopN8nProcess } from '../n8n/process';
import { freePort } from '../ports';
import type { GroupProcess } from '../process-group';
import type { QueueServicePrograms } from './installed';
import { startLoadBalancer, type LoadBalancer } from './load-balancer';
import {
	sharedEnv,
	startMain,
	startWebhookProcessor,
	startWorker,
	type QueueProcess,
	type SharedSettings,
} from './n8n-processes';
import { startPostgres, stopPostgres, type PostgresInstance } from './postgres';
import { startRedis, stopRedis, type RedisInstance } from './redis';

export interface QueueEnvironmentOptions {
	/** Default 2. */
	workers?: number;
	/** Jobs each worker runs at once (default 1). */
	concurrency?: number;
	/** Default 2. */
	webhookProcessors?: number;
	/** Main's and the workers' log level (default info: workers log each execution they run). */
	logLevel?: LogLevel;
	/** The webhook processors' (default debug: they log each webhook they receive). */
	webhookLogLevel?: LogLevel;
	/** Default: a new folder under the system's temporary folder, removed by stop(). */
	dir?: string;
	/** Progress messages (default: none). */
	say?: (message: string) => void;
}

/** What has been started so far, stopped in reverse order. */
type Stopper = { name: string; stop: () => Promise<void> };

/** The running parts of an environment. */
interface Parts {
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

	private constructor(
		readonly dir: string,
		readonly settings: SharedSettings,
		private readonly parts: Parts,
		private readonly stoppers: Stopper[],
		/** The folder was made for this environment: stop() removes it. */
		private readonly ownsDir: boolean,
	) {
		({
			main: this.main,
			workers: this.workers,
			webhookProcessors: this.webhookProcessors,
			loadBalancer: this.loadBalancer,
		} = parts);
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
			const layout = await allocatePorts(options);
			const services = await startServices(programs, dir, stoppers);
			const settings = sharedSettings(services, layout);
			const n8n = await startN8n(runtime, settings, dir, layout, options, stoppers);
			return new QueueEnvironment(dir, settings, { ...services, ...n8n }, stoppers, ownsDir);
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

	/**
	 * Stops every process (n8n first, then PostgreSQL and Redis). A folder given by the caller
	 * stays (with the logs); one made by start() is removed.
	 */
	async stop(): Promise<void> {
		await stopAll(this.stoppers);
		if (this.ownsDir) fs.rmSync(this.dir, { recursive: true, force: true });
	}
}

/** The ports of the n8n processes and the load balancer, all different. */
interface PortLayout {
	loadBalancer: number;
	main: number;
	webhookProcessors: number[];
	workers: number[];
}

async function allocatePorts(options: QueueEnvironmentOptions): Promise<PortLayout> {
	const webhooks = options.webhookProcessors ?? 2;
	const workers = options.workers ?? 2;
	const ports = new Set<number>();
	while (ports.size < 2 + webhooks + workers) ports.add(await freePort());
	const [loadBalancer, main, ...rest] = [...ports];
	return {
		loadBalancer,
		main,
		webhookProcessors: rest.slice(0, webhooks),
		workers: rest.slice(webhooks),
	};
}

async function startServices(programs: QueueServicePrograms, dir: string, stoppers: Stopper[]) {
	const [redis, postgres] = await Promise.allSettled([
		startRedis(programs.redisServer, dir),
		startPostgres(programs.postgresBinDir, dir),
	]);
	if (redis.status === 'fulfilled') stoppers.push(redisStopper(redis.value));
	if (postgres.status === 'fulfilled') stoppers.push(postgresStopper(postgres.value));
	if (redis.status === 'rejected') throw redis.reason;
	if (postgres.status === 'rejected') throw postgres.reason;
	return { redis: redis.value, postgres: postgres.value };
}

function sharedSettings(
	services: { redis: RedisInstance; postgres: PostgresInstance },
	layout: PortLayout,
): SharedSettings {
	return {
		redisPort: services.redis.port,
		postgres: services.postgres,
		encryptionKey: crypto.randomBytes(24).toString('base64url'),
		webhookUrl: `http://127.0.0.1:${layout.loadBalancer}`,
	};
}

const redisStopper = (redis: RedisInstance): Stopper => ({
	name: 'redis',
	stop: () => stopRedis(redis),
});

const postgresStopper = (postgres: PostgresInstance): Stopper => ({
	name: 'postgres',
	stop: () => stopPostgres(postgres),
});

const processStopper = (p: QueueProcess): Stopper => ({
	name: p.name,
	stop: () => stopN8nProcess(p.process),
});

/** Main first (it migrates the fresh database), then the workers and webhook processors at once. */
async function startN8n(
	runtime: Runtime,
	settings: SharedSettings,
	dir: string,
	layout: PortLayout,
	options: QueueEnvironmentOptions,
	stoppers: Stopper[],
) {
	const logLevel = options.logLevel ?? 'info';
	const targets = layout.webhookProcessors.map((port) => `http://127.0.0.1:${port}`);
	const loadBalancer = await startLoadBalancer(targets, layout.loadBalancer);
	stoppers.push({ name: 'load balancer', stop: () => loadBalancer.close() });
	options.say?.('starting n8n main (it migrates the new database)');
	const main = await startMain(runtime, settings, dir, layout.main, logLevel);
	stoppers.push({ name: 'main', stop: () => main.stop() });
	options.say?.(`main ready at ${main.baseUrl}; starting workers and webhook processors`);
	const concurrency = options.concurrency ?? 1;
	const webhookLogLevel = options.webhookLogLevel ?? 'debug';
	const started = await Promise.allSettled([
		...layout.workers.map((port, i) =>
			startWorker(runtime, settings, dir, { index: i + 1, port, concurrency, logLevel }),
		),
		...layout.webhookProcessors.map((port, i) =>
			startWebhookProcessor(runtime, settings, dir, {
				index: i + 1,
				port,
				logLevel: webhookLogLevel,
			}),
		),
	]);
	for (const s of started) if (s.status === 'fulfilled') stoppers.push(processStopper(s.value));
	const failed = started.find((s) => s.status === 'rejected');
	if (failed) throw (failed as PromiseRejectedResult).reason;
	const processes = started.map((s) => (s as PromiseFulfilledResult<QueueProcess>).value);
	const workers = processes.slice(0, layout.workers.length);
	const webhookProcessors = processes.slice(layout.workers.length);
	return { loadBalancer, main, workers, webhookProcessors };
}

/** n8n processes at once, then the services they use; every stop is tried, errors reported. */
async function stopAll(stoppers: Stopper[]): Promise<void> {
	const services = ['redis', 'postgres'];
	const n8n = stoppers.filter((s) => !services.includes(s.name));
	const rest = stoppers.filter((s) => services.includes(s.name));
	stoppers.length = 0;
	const failures: string[] = [];
	for (const group of [n8n, rest]) {
		const results = await Promise.allSettled(group.map((s) => s.stop()));
		results.forEach((r, i) => {
			if (r.status === 'rejected') failures.push(`${group[i].name}: ${r.reason}`);
		});
	}
	if (failures.length) throw new Error(`stopping the queue environment:\n${failures.join('\n')}`);
}
