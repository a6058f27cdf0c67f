// Each process has its own user folder with this package: every process that runs or receives a
// workflow loads it, not only main. The variables: docs/queue-mode.md.
import * as path from 'path';
import { installPackage, N8nServer, type N8nOptions, type Runtime } from '../n8n';
import type { GroupProcess } from '../process-group';
import { isHealthy, startN8nProcess } from '../n8n/process';
import type { PostgresInstance } from './postgres';

export interface SharedSettings {
	redisPort: number;
	postgres: Pick<PostgresInstance, 'port' | 'database' | 'user'>;
	encryptionKey: string;
	/** The load balancer in front of the webhook processors. */
	webhookUrl: string;
}

export interface QueueProcess {
	name: string;
	/** A worker's: its health server. */
	port: number;
	process: GroupProcess;
}

const START_TIMEOUT_MS = 300_000;

export function sharedEnv(settings: SharedSettings): Record<string, string> {
	const { postgres } = settings;
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(settings.redisPort),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		N8N_ENCRYPTION_KEY: settings.encryptionKey,
		N8N_WEBHOOK_URL: `${settings.webhookUrl}/`,
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		GENERIC_TIMEZONE: 'UTC',
		// A stopped process waits this long for running executions (default 30 s).
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
	};
}

export async function startMain(
	runtime: Runtime,
	settings: SharedSettings,
	dir: string,
	port: number,
): Promise<N8nServer> {
	const userFolder = path.join(dir, 'main');
	installPackage(userFolder);
	return await N8nServer.start(runtime, {
		userFolder,
		port,
		logLevel: 'info',
		logFile: path.join(dir, 'main.log'),
		startTimeoutMs: START_TIMEOUT_MS,
		extraEnv: {
			...sharedEnv(settings),
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			// Runs whose worker is gone are marked crashed within 30 s (default every 180 minutes).
			N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '0.5',
			// Production webhooks are for the webhook processors only.
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		},
	});
}

export async function startQueueProcess(
	runtime: Runtime,
	settings: SharedSettings,
	dir: string,
	spec: { role: 'worker' | 'webhook'; index: number; port: number },
): Promise<QueueProcess> {
	const name = `${spec.role}-${spec.index}`;
	const worker = spec.role === 'worker';
	const userFolder = path.join(dir, name);
	installPackage(userFolder);
	const options: N8nOptions = {
		userFolder,
		port: spec.port,
		// Webhook processors at debug: they log each webhook they receive.
		logLevel: worker ? 'info' : 'debug',
		extraEnv: {
			...sharedEnv(settings),
			...(worker && {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(spec.port),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				// A killed worker's job is found stalled within 15 s (defaults: a 60 s lock, checked
				// every 30 s); n8n retries no stalled job.
				QUEUE_WORKER_LOCK_DURATION: '10000',
				QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
				QUEUE_WORKER_STALLED_INTERVAL: '5000',
			}),
		},
	};
	const n8nProcess = await startN8nProcess(runtime, options, {
		name: `n8n ${spec.role} ${spec.index}`,
		args: worker ? ['worker', '--concurrency=1'] : ['webhook'],
		isReady: isHealthy,
		logFile: path.join(dir, `${name}.log`),
		timeoutMs: START_TIMEOUT_MS,
	});
	return { name, port: spec.port, process: n8nProcess };
}
