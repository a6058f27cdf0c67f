/**
 * Kills what a failed start or a crashed test left running from this run's recorded groups; the
 * run's folder is kept with BF_E2E_KEEP=1, to read the processes' logs.
 */
import * as fs from 'fs';
import { GROUPS_FILE_VARIABLE, killRecordedGroups } from '../../scripts/leftover-groups';
import { RUN_DIR_VARIABLE } from './run-dir';

export default async function globalTeardown(): Promise<void> {
	const groupsFile = process.env[GROUPS_FILE_VARIABLE];
	const killed = groupsFile ? killRecordedGroups(groupsFile) : [];
	if (killed.length)
		console.warn(`\nqueue suite: killed what was left running: ${killed.join(', ')}`);
	const runDir = process.env[RUN_DIR_VARIABLE];
	if (!runDir) return;
	if (process.env.BF_E2E_KEEP) console.log(`\nqueue suite: files and logs kept in ${runDir}`);
	else fs.rmSync(runDir, { recursive: true, force: true });
}
