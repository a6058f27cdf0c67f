import { startGroup, type GroupProcess } from '../process-group';
import { n8nEnv, type N8nOptions } from './environment';
import type { Runtime } from './runtime';
import { PRIVATE_UMASK } from './user-folder';

export interface N8nCommand {
	name: string;
	args: string[];
	isReady: (baseUrl: string) => Promise<boolean>;
	logFile?: string;
	timeoutMs: number;
}

export async function startN8nProcess(
	runtime: Runtime,
	options: N8nOptions,
	command: N8nCommand,
): Promise<GroupProcess> {
	const baseUrl = `http://127.0.0.1:${options.port}`;
	return await startGroup(command.name, runtime.nodeBin, [runtime.n8nScript, ...command.args], {
		env: await n8nEnv(runtime, options),
		cwd: options.userFolder,
		umask: PRIVATE_UMASK,
		logFile: command.logFile,
		readyFor: `${command.name} to answer ${baseUrl}/healthz`,
		isReady: () => command.isReady(baseUrl),
		timeoutMs: command.timeoutMs,
		pollMs: 500,
	});
}

/** /healthz answers before the REST API and the webhooks are mounted: ask those too. */
export async function isServing(baseUrl: string): Promise<boolean> {
	if (!(await isHealthy(baseUrl))) return false;
	const settings = await fetch(`${baseUrl}/rest/settings`).catch(() => null);
	return settings?.ok === true;
}

/** `/healthz/readiness` waits for the database and Redis (queue mode). */
export async function isHealthy(baseUrl: string): Promise<boolean> {
	try {
		const health = await fetch(`${baseUrl}/healthz`);
		if (!health.ok || ((await health.json()) as { status?: string }).status !== 'ok') return false;
		const ready = await fetch(`${baseUrl}/healthz/readiness`).catch(() => null);
		return !ready || ready.ok;
	} catch {
		return false; // not listening yet
	}
}
