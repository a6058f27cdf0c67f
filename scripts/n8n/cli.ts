import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { withUmask } from '../process-group';
import { n8nEnv, type N8nOptions } from './environment';
import type { Runtime } from './runtime';
import { PRIVATE_UMASK } from './user-folder';

const CLI_TIMEOUT_MS = 180_000;

export interface CliResult {
	code: number | null;
	signal?: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/**
 * Output goes to files, not pipes: n8n's CLI calls process.exit() right after printing, and a
 * large `--rawOutput` document written to a pipe is then lost (pipe writes are asynchronous).
 */
export async function runCli(
	runtime: Runtime,
	options: N8nOptions,
	args: string[],
): Promise<CliResult> {
	const env = await n8nEnv(runtime, { ...options, logLevel: options.logLevel ?? 'warn' });
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-n8n-cli-'));
	const outFile = path.join(dir, 'stdout');
	const errFile = path.join(dir, 'stderr');
	const outFd = fs.openSync(outFile, 'w');
	const errFd = fs.openSync(errFile, 'w');
	const read = () => ({
		stdout: fs.readFileSync(outFile, 'utf8'),
		stderr: fs.readFileSync(errFile, 'utf8'),
	});
	try {
		return await new Promise<CliResult>((resolve, reject) => {
			// The first command against a fresh user folder (an import) creates n8n's database.
			const child = withUmask(PRIVATE_UMASK, () =>
				spawn(runtime.nodeBin, [runtime.n8nScript, ...args], {
					env,
					cwd: options.userFolder,
					stdio: ['ignore', outFd, errFd],
				}),
			);
			const timer = setTimeout(() => {
				child.kill('SIGKILL');
				const { stdout, stderr } = read();
				const command = `n8n ${args.join(' ')}`;
				reject(new Error(`${command} timed out after ${CLI_TIMEOUT_MS} ms\n${stdout}\n${stderr}`));
			}, CLI_TIMEOUT_MS);
			child.on('error', (error) => {
				clearTimeout(timer);
				reject(error);
			});
			child.on('exit', (code, signal) => {
				clearTimeout(timer);
				resolve({ code, signal, ...read() });
			});
		});
	} finally {
		fs.closeSync(outFd);
		fs.closeSync(errFd);
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

export async function runCliOk(runtime: Runtime, options: N8nOptions, args: string[]) {
	const result = await runCli(runtime, options, args);
	if (result.code !== 0) {
		const command = `n8n ${args.join(' ')}`;
		throw new Error(`${command} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
	}
}
