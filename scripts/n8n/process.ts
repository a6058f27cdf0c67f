/**
 * An n8n process (`n8n start`, and in queue mode also `n8n worker` and `n8n webhook`): spawned in
 * its own process group (scripts/process-group.ts, so stopping it also ends the task runner it
 * spawns), ready once its HTTP server answers.
 */
import { freePort } from '../ports';
import { pollUntil } from '../poll';
import {
	killGroupNow,
	spawnGroup,
	stopGroup,
	type GroupOutput,
	type GroupProcess,
} from '../process-group';
import { n8nEnv, type N8nOptions } from './environment';
import type { Runtime } from './runtime';

const START_TIMEOUT_MS = 180_000;

export type OutputOptions = GroupOutput;
export type N8nProcess = GroupProcess;

/** Which n8n command to run and how to tell that it is ready. */
export interface N8nCommand {
	/** For messages: "n8n", "n8n worker 1". */
	name: string;
	args: string[];
	/** The URL whose answers show readiness (isServing asks /healthz and below it). */
	readyUrl(options: N8nOptions): string;
	/** Whether the server at readyUrl is ready (default: isServing). */
	isReady?: (baseUrl: string) => Promise<boolean>;
}

/** `n8n start`: the main process, editor and APIs on options.port. */
export const START: N8nCommand = {
	name: 'n8n',
	args: ['start'],
	readyUrl: (options) => `http://127.0.0.1:${options.port}`,
};

/** Spawns the n8n command and resolves once it is ready; throws with its log otherwise. */
export async function startN8nProcess(
	runtime: Runtime,
	options: N8nOptions,
	output: OutputOptions,
	timeoutMs = START_TIMEOUT_MS,
	command: N8nCommand = START,
): Promise<N8nProcess> {
	const brokerPort = await freePort();
	const env = n8nEnv(runtime, { ...options, brokerPort });
	const proc = spawnGroup(command.name, runtime.nodeBin, [runtime.n8nScript, ...command.args], {
		...output,
		env,
		cwd: options.userFolder,
	});
	const baseUrl = command.readyUrl(options);
	const isReady = command.isReady ?? isServing;
	const failure = await waitUntilReady(proc, baseUrl, isReady, timeoutMs).then(
		() => undefined,
		(error: Error) => error,
	);
	if (!failure) return proc;
	await stopN8nProcess(proc);
	throw new Error(`${failure.message}:\n${proc.log().slice(-4000)}`);
}

async function waitUntilReady(
	proc: N8nProcess,
	baseUrl: string,
	isReady: (baseUrl: string) => Promise<boolean>,
	timeoutMs: number,
) {
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
}

/** /healthz answers before the REST API and the webhooks are mounted: ask those too. */
export async function isServing(baseUrl: string): Promise<boolean> {
	try {
		if (!(await isHealthy(baseUrl))) return false;
		const settings = await fetch(`${baseUrl}/rest/settings`).catch(() => null);
		return settings?.ok === true;
	} catch {
		return false; // not listening yet
	}
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

/** SIGTERM to n8n's process group, SIGKILL after a grace period. */
export async function stopN8nProcess(proc: N8nProcess): Promise<void> {
	await stopGroup(proc);
}

/** Synchronous last resort (process 'exit' handlers): SIGKILL to n8n's process group. */
export function killN8nProcess(proc: N8nProcess): void {
	killGroupNow(proc);
}
