// Each child gets its own process group, so stopping it also ends what it spawned (n8n's task runner, PostgreSQL's backends).
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import { recordGroup } from './leftover-groups';
import { pollUntil } from './poll';

/** In-memory output is cut back to its last 1 MB when it passes 2 MB. */
const OUTPUT_KEEP_CHARS = 1_000_000;
const DEFAULT_STOP_GRACE_MS = 20_000;

export interface StartGroupOptions {
	env: NodeJS.ProcessEnv;
	cwd: string;
	/** Default: output kept in memory. */
	logFile?: string;
	/** The process's umask (default: this process's); what it creates gets at most 0777 & ~umask. */
	umask?: number;
	uid?: number;
	gid?: number;
	readyFor: string;
	isReady: (proc: GroupProcess) => Promise<boolean>;
	timeoutMs: number;
	pollMs: number;
}

export interface GroupProcess {
	name: string;
	child: ChildProcess;
	exited: Promise<number | null>;
	running(): boolean;
	log(): string;
}

/** On failure the group is stopped and the error carries the end of its output. */
export async function startGroup(
	name: string,
	command: string,
	args: string[],
	options: StartGroupOptions,
): Promise<GroupProcess> {
	const logFd = options.logFile ? fs.openSync(options.logFile, 'a') : 'pipe';
	const child = withUmask(options.umask, () =>
		spawn(command, args, {
			env: options.env,
			cwd: options.cwd,
			stdio: ['ignore', logFd, logFd],
			detached: true,
			uid: options.uid,
			gid: options.gid,
		}),
	);
	if (logFd !== 'pipe') fs.closeSync(logFd);
	if (child.pid !== undefined) recordGroup(child.pid, name);
	const proc = trackProcess(name, child, options.logFile);
	try {
		const ready = async () => {
			if (!proc.running()) throw new Error(`${name} exited (${await proc.exited}) while starting`);
			return await options.isReady(proc);
		};
		await pollUntil(options.readyFor, ready, options.timeoutMs, options.pollMs);
		return proc;
	} catch (error) {
		await stopGroup(proc, 'SIGTERM', 5_000);
		throw new Error(`${(error as Error).message}:\n${proc.log().slice(-4000)}`);
	}
}

/** A child inherits the umask it was spawned with, and spawn() has no option for it. */
export function withUmask<T>(umask: number | undefined, spawnChild: () => T): T {
	if (umask === undefined) return spawnChild();
	const previous = process.umask(umask);
	try {
		return spawnChild();
	} finally {
		process.umask(previous);
	}
}

function trackProcess(name: string, child: ChildProcess, logFile?: string): GroupProcess {
	let output = '';
	const keep = (chunk: Buffer) => {
		output += chunk.toString();
		if (output.length > 2 * OUTPUT_KEEP_CHARS) output = output.slice(-OUTPUT_KEEP_CHARS);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	let closed = false;
	const exited = new Promise<number | null>((resolve) => {
		child.on('error', (error) => {
			output += `\n${name} could not be started: ${error.message}\n`;
		});
		child.on('close', (code) => {
			closed = true;
			resolve(code);
		});
	});
	const log = () => {
		if (!logFile) return output;
		return fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
	};
	return { name, child, exited, running: () => !closed, log };
}

/** SIGKILL after the grace period. */
export async function stopGroup(
	proc: GroupProcess,
	signal: NodeJS.Signals = 'SIGTERM',
	graceMs = DEFAULT_STOP_GRACE_MS,
): Promise<void> {
	if (!proc.running() || !signalGroup(proc, signal)) return;
	let timer: NodeJS.Timeout | undefined;
	const graceful = await Promise.race([
		proc.exited.then(() => true),
		new Promise<boolean>((resolve) => {
			timer = setTimeout(() => resolve(false), graceMs);
		}),
	]);
	clearTimeout(timer);
	if (!graceful) {
		signalGroup(proc, 'SIGKILL');
		await proc.exited;
	}
	// Whatever the leader left behind in its group (a runner that ignored the signal) goes too.
	signalGroup(proc, 'SIGKILL');
}

/** False when the group is already gone. */
function signalGroup(proc: GroupProcess, signal: NodeJS.Signals): boolean {
	const pid = proc.child.pid;
	if (pid === undefined) return false;
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}
