// The bench npm scripts build the emitted JS first (package.json).
import * as path from 'path';
import { startGroup, stopGroup } from '../scripts/process-group';
import { AdminClient, type RunningSandbox } from '../sandbox';
import { createHttpClient } from '../test/helpers/http';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'node_modules/.cache/business-finance-sandbox/sandbox/cli.js');

/** `pid` for its CPU time. */
export type SandboxProcess = Pick<RunningSandbox, 'baseUrl' | 'apiKey' | 'admin' | 'close'> & {
	pid: number;
	api: ReturnType<typeof createHttpClient>;
};

function printed(log: string): { baseUrl: string; apiKey: string } | undefined {
	const url = /listening on (http:\/\/\S+)/.exec(log);
	const key = /API key:\s+(\S+)/.exec(log);
	return url && key ? { baseUrl: url[1], apiKey: key[1] } : undefined;
}

/** Empty: each scenario seeds what it lists. */
export async function startSandboxProcess(flags: string[]): Promise<SandboxProcess> {
	const args = [CLI, '--port', '0', '--seed', 'none', ...flags];
	const proc = await startGroup('sandbox', process.execPath, args, {
		env: process.env,
		cwd: ROOT,
		readyFor: `the sandbox (${CLI}) to print its address`,
		isReady: async (started) => printed(started.log()) !== undefined,
		timeoutMs: 30_000,
		pollMs: 50,
	});
	const { baseUrl, apiKey } = printed(proc.log())!;
	return {
		baseUrl,
		apiKey,
		admin: new AdminClient(baseUrl),
		api: createHttpClient(`${baseUrl}/v1`, { apiKey }),
		pid: proc.child.pid!,
		close: () => stopGroup(proc, 'SIGTERM', 5_000),
	};
}
