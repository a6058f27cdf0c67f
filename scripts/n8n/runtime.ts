// scripts/provision-n8n.sh writes the `.provisioned` marker last, so its presence means complete.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Defined once in package.json's `config` (scripts/provision-n8n.sh and .ci/run read it there too). */
function selectedN8nVersion(): string {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	return process.env.BF_N8N_VERSION || (pkg.config.n8nVersion as string);
}

export interface Runtime {
	version: string;
	/** Where the two lines differ: docs/n8n-notes.md. */
	major: number;
	nodeBin: string;
	n8nDir: string;
	n8nScript: string;
}

/** Whether `runtime` is n8n `major`.`minor` or a later version. */
export function atLeast(runtime: Runtime, major: number, minor: number): boolean {
	const [hasMajor, hasMinor] = runtime.version.split('.').map(Number);
	return hasMajor > major || (hasMajor === major && hasMinor >= minor);
}

export function cacheDir(): string {
	return (
		process.env.BF_N8N_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-business-finance')
	);
}

export function readMarker(file: string): Record<string, string> {
	const values: Record<string, string> = {};
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const at = line.indexOf('=');
		if (at > 0) values[line.slice(0, at)] = line.slice(at + 1);
	}
	return values;
}

function findRuntime(version: string): Runtime | null {
	const marker = path.join(cacheDir(), `n8n-${version}`, '.provisioned');
	if (!fs.existsSync(marker)) return null;
	const { NODE_BIN: nodeBin, N8N_DIR: n8nDir } = readMarker(marker);
	if (!nodeBin || !n8nDir) return null;
	const n8nScript = path.join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n');
	if (!fs.existsSync(nodeBin) || !fs.existsSync(n8nScript)) return null;
	return { version, major: Number(version.split('.')[0]), nodeBin, n8nDir, n8nScript };
}

/** Output goes to the terminal: a first install takes minutes. */
export function provision(script: string, ...args: string[]): void {
	const command = ['bash', `scripts/${script}`, ...args];
	const result = spawnSync(command[0], command.slice(1), {
		cwd: REPO_ROOT,
		stdio: ['ignore', 'inherit', 'inherit'],
	});
	if (result.status !== 0) throw new Error(`${command.join(' ')} failed (exit ${result.status})`);
}

export function ensureRuntime(): Runtime {
	const version = selectedN8nVersion();
	const found = findRuntime(version);
	if (found) return found;
	provision('provision-n8n.sh', version);
	const runtime = findRuntime(version);
	if (!runtime) throw new Error('provisioning finished but left no usable n8n; see its output');
	return runtime;
}

export function requireRuntime(): Runtime {
	const version = selectedN8nVersion();
	const runtime = findRuntime(version);
	if (!runtime) {
		throw new Error(
			`n8n ${version} is not provisioned in ${cacheDir()}: run \`npm run provision -- ${version}\` ` +
				'first (about 8 minutes once; cached afterwards).',
		);
	}
	return runtime;
}
