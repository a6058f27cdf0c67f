// Durability off and trust authentication: a loopback-only test database that is thrown away.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { freePort } from '../ports';
import { startGroup, type GroupProcess } from '../process-group';

const START_TIMEOUT_MS = 60_000;
const DATABASE = 'n8n';
const SUPERUSER = 'postgres';
const READY_LINE = 'database system is ready to accept connections';
const INITDB_FLAGS = ['--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'];

export interface PostgresInstance {
	port: number;
	database: string;
	user: string;
	process: GroupProcess;
}

export async function startPostgres(binDir: string, dir: string): Promise<PostgresInstance> {
	const user = postgresUser();
	const bin = user ? stageBinaries(binDir, dir) : binDir;
	const dataDir = path.join(dir, 'postgres-data');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	if (user) fs.chownSync(dataDir, user.uid, user.gid);
	const run = (program: string, args: string[], input?: string) =>
		runAs(user, path.join(bin, program), args, { cwd: dir, input });
	run('initdb', ['-D', dataDir, '-U', SUPERUSER, ...INITDB_FLAGS]);
	// Single-user mode needs no server (and so no port) to create the database.
	run('postgres', ['--single', '-D', dataDir, SUPERUSER], `CREATE DATABASE ${DATABASE};\n`);
	const port = await freePort();
	const proc = await startGroup('postgres', path.join(bin, 'postgres'), serverArgs(dataDir, port), {
		env: postgresEnv(),
		cwd: dir,
		logFile: path.join(dir, 'postgres.log'),
		uid: user?.uid,
		gid: user?.gid,
		readyFor: `postgres on port ${port} to accept connections`,
		isReady: async (proc) => proc.log().includes(READY_LINE),
		timeoutMs: START_TIMEOUT_MS,
		pollMs: 100,
	});
	return { port, database: DATABASE, user: SUPERUSER, process: proc };
}

function serverArgs(dataDir: string, port: number): string[] {
	const settings = {
		listen_addresses: '127.0.0.1',
		unix_socket_directories: '',
		fsync: 'off',
		synchronous_commit: 'off',
		full_page_writes: 'off',
	};
	const flags = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
	return ['-D', dataDir, '-p', String(port), ...flags];
}

/**
 * The installed binaries live in root's cache folder, which the unprivileged user cannot enter
 * (root's home is private): a copy (about 60 MB: bin, lib, share) goes into the environment's
 * folder, readable by everyone. PostgreSQL finds lib/ and share/ relative to bin/.
 */
function stageBinaries(binDir: string, dir: string): string {
	const installRoot = path.dirname(binDir);
	const staged = path.join(dir, 'postgres-bin');
	fs.cpSync(installRoot, staged, { recursive: true, verbatimSymlinks: true });
	fs.chmodSync(dir, 0o755);
	return path.join(staged, 'bin');
}

function postgresEnv(): NodeJS.ProcessEnv {
	return { PATH: process.env.PATH ?? '', LC_ALL: 'C', TZ: 'UTC' };
}

function runAs(
	user: ServiceUser | undefined,
	program: string,
	args: string[],
	extra: { cwd: string; input?: string },
): void {
	const result = spawnSync(program, args, {
		cwd: extra.cwd,
		env: postgresEnv(),
		encoding: 'utf8',
		input: extra.input,
		uid: user?.uid,
		gid: user?.gid,
		timeout: START_TIMEOUT_MS,
	});
	if (result.status !== 0) {
		const as = user ? ` as ${user.name}` : '';
		const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}${result.error?.message ?? ''}`;
		throw new Error(`${path.basename(program)}${as} failed (exit ${result.status}):\n${output}`);
	}
}

interface ServiceUser {
	name: string;
	uid: number;
	gid: number;
}

/**
 * PostgreSQL refuses to run as root (CI is root): then `nobody` (present everywhere, so nothing is
 * added to the machine) or BF_POSTGRES_USER. undefined: the current user.
 */
function postgresUser(): ServiceUser | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const name = process.env.BF_POSTGRES_USER || 'nobody';
	const uid = idOf(name, '-u');
	const gid = idOf(name, '-g');
	if (uid === 0) throw new Error(`BF_POSTGRES_USER=${name} is root; PostgreSQL refuses root`);
	return { name, uid, gid };
}

function idOf(name: string, flag: '-u' | '-g'): number {
	const result = spawnSync('id', [flag, name], { encoding: 'utf8' });
	const id = Number(result.stdout.trim());
	if (result.status !== 0 || !Number.isInteger(id)) {
		throw new Error(
			`user "${name}" does not exist (PostgreSQL needs an unprivileged user when run as root: ` +
				`create one, e.g. \`useradd --system ${name}\`, or set BF_POSTGRES_USER)`,
		);
	}
	return id;
}
