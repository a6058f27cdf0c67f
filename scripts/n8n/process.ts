/**
 * An n8n process (`n8n start`; in queue mode also `n8n worker` and `n8n webhook`) in its own
 * process group (scripts/process-group.ts: stopping it also ends the task runner it spawns),
 * ready once its HTTP server answers.
 */
import { freePort } from '../ports';
import { pollUntil } from '../poll';
import { spawnGroup, stopGroup, type GroupOutput, type GroupProcess } from '../process-group';
import { n8nEnv, type N8nOptions } from './environment';
import type { Runtime } from './runtime';

const START_TIMEOUT_MS = 180_000;

export interface N8nCommand {
	/** For messages: "n8n", "n8n worker 1". */
	name: string;
	args: string[];
	/** Whether it is ready at `http://127.0.0.1:<options.port>` (default: isServing). */
	isReady?: (baseUrl: string) => Promise<boolean>;
}

/** Spawns the n8n command and resolves once it is ready; throws with its log otherwise. */
export async function startN8nProcess(
	runtime: Runtime,
	options: N8nOptions,
	output: GroupOutput,
	timeoutMs = START_TIMEOUT_MS,
	command: N8nCommand = { name: 'n8n', args: ['start'] },
): Promise<GroupProcess> {
	const env = n8nEnv(runtime, { ...options, brokerPort: await freePort() });
	const args = [runtime.n8nScript, ...command.args];
	const proc = spawnGroup(command.name, runtime.nodeBin, args, {
		...output,
		env,
		cwd: options.userFolder,
	});
	const baseUrl = `http://127.0.0.1:${options.port}`;
	const isReady = command.isReady ?? isServing;
	try {
		await pollUntil(
			`${proc.name} to answer ${baseUrl}/healthz`,
			async () => {
				if (!proc.running()) {
					throw new Error(`${proc.name} exited (${await proc.exited}) while starting`);
				}
				return await isReady(baseUrl);
			},
			timeoutMs,
			500,
		);
		return proc;
	} catch (error) {
		await stopGroup(proc);
		throw new Error(`${(error as Error).message}:\n${proc.log().slice(-4000)}`);
	}
}

/** /healthz answers before the REST API and the webhooks are mounted: ask those too. */
async function isServing(baseUrl: string): Promise<boolean> {
	if (!(await isHealthy(baseUrl))) return false;
	const settings = await fetch(`${baseUrl}/rest/settings`).catch(() => null);
	return settings?.ok === true;
}

/** `/healthz` says ok and `/healthz/readiness` (database and Redis connected) does not refuse. */
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
