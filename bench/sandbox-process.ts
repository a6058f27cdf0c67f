/**
 * The sandbox in its own Node process (the emitted JS of `npm run sandbox`, which the bench npm
 * scripts build first), so the client under test shares no event loop, CPU time or garbage with it.
 */
import * as path from 'path';
import { pollUntil } from '../scripts/poll';
import { spawnGroup, stopGroup } from '../scripts/process-group';
import { AdminClient, EXPIRED_KEY, REVOKED_KEY, type RunningSandbox } from '../sandbox';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'node_modules/.cache/business-finance-sandbox/sandbox/cli.js');
const START_TIMEOUT_MS = 30_000;

export interface SandboxProcess extends RunningSandbox {
	/** The server's process id (for its CPU time). */
	pid: number;
}

/** Starts `node <emitted cli.js> ...flags`. */
export async function startSandboxProcess(flags: string[]): Promise<SandboxProcess> {
	const args = [CLI, '--port', '0', ...flags];
	const proc = spawnGroup('sandbox', process.execPath, args, { env: process.env, cwd: ROOT });
	const printed = await pollUntil(
		'the sandbox to print its address',
		async () => {
			if (!proc.running()) {
				throw new Error(`sandbox exited (${await proc.exited}): ${proc.log()}\nIs ${CLI} built?`);
			}
			const url = /listening on (http:\/\/\S+)/.exec(proc.log());
			const key = /API key:\s+(\S+)/.exec(proc.log());
			return url && key ? { baseUrl: url[1], apiKey: key[1] } : undefined;
		},
		START_TIMEOUT_MS,
		50,
	);
	const { baseUrl, apiKey } = printed;
	return {
		baseUrl,
		port: Number(new URL(baseUrl).port),
		apiKey,
		keys: { valid: apiKey, expired: EXPIRED_KEY, revoked: REVOKED_KEY },
		admin: new AdminClient(baseUrl),
		pid: proc.child.pid!,
		close: () => stopGroup(proc, 'SIGTERM', 5_000),
	};
}
