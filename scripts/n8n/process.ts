/**
 * The `n8n start` process: spawned in its own process group (so stopping it also ends the task
 * runner it spawns), its output kept in memory or a log file, ready once its REST API answers.
 */
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import { freePort } from '../ports';
import { pollUntil } from '../poll';
import { n8nEnv, type N8nOptions } from './environment';
import type { Runtime } from './runtime';

const START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 20_000;
/** In-memory output is cut back to its last 1 MB when it passes 2 MB. */
const OUTPUT_KEEP_CHARS = 1_000_000;

export interface OutputOptions {
	/** Where n8n's output goes (default: kept in memory, see N8nProcess.log). */
	output?: 'inherit' | 'buffer';
	/** Append n8n's output to this file instead (N8nProcess.log reads it back). */
	logFile?: string;
}

export interface N8nProcess {
	child: ChildProcess;
	/** Resolves with the exit code once the process has closed. */
	exited: Promise<number | null>;
	/** False once the process has closed. */
	running(): boolean;
	/** n8n's output so far (empty when inherited). */
	log(): string;
}

/** Spawns `n8n start` and resolves once it serves its REST API; throws with its log otherwise. */
export async function startN8nProcess(
	runtime: Runtime,
	options: N8nOptions,
	output: OutputOptions,
	timeoutMs = START_TIMEOUT_MS,
): Promise<N8nProcess> {
	const brokerPort = await freePort();
	const env = n8nEnv(runtime, { ...options, brokerPort });
	const logFd = output.logFile ? fs.openSync(output.logFile, 'a') : undefined;
	const stdio = logFd ?? (output.output === 'inherit' ? 'inherit' : 'pipe');
	const child = spawn(runtime.nodeBin, [runtime.n8nScript, 'start'], {
		env,
		cwd: options.userFolder,
		stdio: ['ignore', stdio, stdio],
		detached: true,
	});
	if (logFd !== undefined) fs.closeSync(logFd);
	const proc = trackProcess(child, output.logFile);
	const baseUrl = `http://127.0.0.1:${options.port}`;
	const failure = await waitUntilServing(proc, baseUrl, timeoutMs).then(
		() => undefined,
		(error: Error) => error,
	);
	if (!failure) return proc;
	await stopN8nProcess(proc);
	throw new Error(`${failure.message}:\n${proc.log().slice(-4000)}`);
}

function trackProcess(child: ChildProcess, logFile: string | undefined): N8nProcess {
	let output = '';
	const keep = (chunk: Buffer) => {
		output += chunk.toString();
		if (output.length > 2 * OUTPUT_KEEP_CHARS) output = output.slice(-OUTPUT_KEEP_CHARS);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	let closed = false;
	const exited = new Promise<number | null>((resolve) =>
		child.on('close', (code) => {
			closed = true;
			resolve(code);
		}),
	);
	const log = () => {
		if (!logFile) return output;
		return fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
	};
	return { child, exited, running: () => !closed, log };
}

async function waitUntilServing(proc: N8nProcess, baseUrl: string, timeoutMs: number) {
	await pollUntil(
		'n8n to answer /healthz',
		async () => {
			if (!proc.running()) throw new Error(`n8n exited (${await proc.exited}) while starting`);
			return await isServing(baseUrl);
		},
		timeoutMs,
		500,
	);
}

/** /healthz answers before the REST API and the webhooks are mounted: ask those too. */
async function isServing(baseUrl: string): Promise<boolean> {
	try {
		const health = await fetch(`${baseUrl}/healthz`);
		if (!health.ok || ((await health.json()) as { status?: string }).status !== 'ok') return false;
		const ready = await fetch(`${baseUrl}/healthz/readiness`).catch(() => null);
		if (ready && !ready.ok) return false;
		const settings = await fetch(`${baseUrl}/rest/settings`).catch(() => null);
		return settings?.ok === true;
	} catch {
		return false; // not listening yet
	}
}

/** SIGTERM to n8n's process group, SIGKILL after a grace period. */
export async function stopN8nProcess(proc: N8nProcess): Promise<void> {
	if (!proc.running() || !signalGroup(proc, 'SIGTERM')) return;
	let timer: NodeJS.Timeout | undefined;
	const graceful = await Promise.race([
		proc.exited.then(() => true),
		new Promise<boolean>((resolve) => {
			timer = setTimeout(() => resolve(false), STOP_GRACE_MS);
		}),
	]);
	clearTimeout(timer);
	if (!graceful) {
		signalGroup(proc, 'SIGKILL');
		await proc.exited;
	}
}

/** Synchronous last resort (process 'exit' handlers): SIGKILL to n8n's process group. */
export function killN8nProcess(proc: N8nProcess): void {
	if (proc.running()) signalGroup(proc, 'SIGKILL');
}

/** False when the group is already gone. */
function signalGroup(proc: N8nProcess, signal: NodeJS.Signals): boolean {
	const pid = proc.child.pid;
	if (pid === undefined) return false;
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}
