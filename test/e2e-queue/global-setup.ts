/** The run's folder also records every process group it starts (scripts/leftover-groups.ts). */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GROUPS_FILE_VARIABLE } from '../../scripts/leftover-groups';
import { build, requireRuntime } from '../../scripts/n8n';
import { ensureQueueServices } from '../../scripts/queue';
import { RUN_DIR_VARIABLE } from './run-dir';

export default async function globalSetup(): Promise<void> {
	requireRuntime();
	ensureQueueServices();
	build();
	const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-e2e-queue-'));
	// PostgreSQL runs as an unprivileged user when we are root: it must reach its folder inside.
	fs.chmodSync(runDir, 0o755);
	process.env[RUN_DIR_VARIABLE] = runDir;
	process.env[GROUPS_FILE_VARIABLE] = path.join(runDir, 'process-groups');
}
