import * as fs from 'fs';
import * as path from 'path';
import { cacheDir, provision, readMarker } from '../n8n/runtime';

export interface QueueServicePrograms {
	redisServer: string;
	postgresBinDir: string;
}

export function ensureQueueServices(): QueueServicePrograms {
	provision('provision-queue.sh');
	return requireQueueServices();
}

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
