// `npm run dev` (README.md, "Try it"; variables in CONTRIBUTING.md): the 1.x line wants its own BF_DEV_FOLDER.
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { startSandbox, type RunningSandbox } from '../sandbox';
import {
	APPROVERS_CREDENTIAL,
	MCP_BEARER_CREDENTIAL,
	HOT_RELOAD_ENV,
	N8nServer,
	OWNER_PASSWORD_FILE,
	REPO_ROOT,
	SANDBOX_CREDENTIAL_NAME,
	build,
	ensureRuntime,
	importCredentials,
	connectNamedTable,
	importWorkflows,
	installPackage,
	loadExamples,
	reinstallInPlace,
	reloadsInPlace,
	privateUserFolder,
	secretInUserFolder,
	type N8nOptions,
	type Runtime,
} from './n8n';
import { portOrFree } from './ports';
import { GROUPS_FILE_VARIABLE, killRecordedGroups } from './leftover-groups';
import { MCP_TOKEN_FILE, pasteLines, removeDevSession, writeDevSession } from './dev-session';

const WATCHED_DIRS = ['nodes', 'credentials', 'icons'];
/** A burst of saves (an editor writing several files) makes one rebuild. */
const RELOAD_DEBOUNCE_MS = 400;

interface DevState {
	runtime: Runtime;
	options: N8nOptions;
	n8n: N8nServer;
}

const say = (message: string) => console.log(`[dev] ${message}`);

function envPort(name: string, fallback: number): number {
	const port = Number(process.env[name] || fallback);
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name}: not a port`);
	return port;
}

async function startDevSandbox(): Promise<RunningSandbox> {
	const sandbox = await startSandbox({
		port: await portOrFree(envPort('BF_DEV_SANDBOX_PORT', 4010)),
		seed: 'demo',
	});
	say(`sandbox (demo data) at ${sandbox.baseUrl}, API key ${sandbox.apiKey}`);
	return sandbox;
}

/** Made once per dev folder, so a client set up with it keeps working across restarts. */
function devSecret(userFolder: string, name: string): string {
	return secretInUserFolder(userFolder, name, () => randomBytes(24).toString('hex'));
}

const APPROVER_USER = 'approver';

interface DevSecrets {
	token: string;
	approverPassword: string;
}

/** Examples already imported are skipped, so editor edits survive restarts. */
async function importDevData(
	runtime: Runtime,
	options: N8nOptions,
	sandbox: RunningSandbox,
): Promise<DevSecrets> {
	const names = [SANDBOX_CREDENTIAL_NAME, MCP_BEARER_CREDENTIAL.name, APPROVERS_CREDENTIAL.name];
	say(`importing the credentials ${names.map((n) => `"${n}"`).join(', ')}`);
	const secrets = {
		token: devSecret(options.userFolder, MCP_TOKEN_FILE),
		approverPassword: devSecret(options.userFolder, 'bf-approver-password'),
	};
	await importCredentials(runtime, options, [
		{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
		{ ...MCP_BEARER_CREDENTIAL, data: { token: secrets.token } },
		{ ...APPROVERS_CREDENTIAL, data: { user: APPROVER_USER, password: secrets.approverPassword } },
	]);
	const ledgerFile = path.join(options.userFolder, 'bf-imported-examples.json');
	const done: string[] = fs.existsSync(ledgerFile)
		? JSON.parse(fs.readFileSync(ledgerFile, 'utf8'))
		: [];
	const fresh = loadExamples().filter((e) => !done.includes(e.file));
	if (!fresh.length) return secrets;
	const workflows = fresh.map((e) => e.workflow);
	await importWorkflows(runtime, options, workflows);
	fs.writeFileSync(ledgerFile, JSON.stringify([...done, ...fresh.map((e) => e.file)], null, 2));
	say(`imported the examples: ${workflows.map((w) => w.name).join('; ')}`);
	return secrets;
}

/** Example 06b's data table, made on the first start (n8n makes tables only while it runs). */
async function connectExampleTables(n8n: N8nServer): Promise<void> {
	for (const { workflow } of loadExamples()) {
		try {
			const table = await connectNamedTable(n8n, workflow.id!);
			if (table) say(`"${workflow.name}" now uses the data table "${table.name}"`);
		} catch (error) {
			say(`"${workflow.name}": its data table was not set up (${(error as Error).message})`);
		}
	}
}

function logFileOf(options: N8nOptions): string {
	return path.join(options.userFolder, 'n8n.log');
}

async function startDevN8n(runtime: Runtime, options: N8nOptions): Promise<N8nServer> {
	return await N8nServer.start(runtime, {
		userFolder: options.userFolder,
		port: options.port,
		logLevel: 'info',
		logFile: logFileOf(options),
		extraEnv: {
			GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE || 'UTC',
			...(reloadsInPlace(runtime) && HOT_RELOAD_ENV),
		},
	});
}

function banner(n8n: N8nServer, sandbox: RunningSandbox, secrets: DevSecrets): string {
	const { email, password } = n8n.owner();
	const passwordFile = path.relative(
		process.cwd(),
		path.join(n8n.options.userFolder, OWNER_PASSWORD_FILE),
	);
	const login = `${email} / ${password}   (this dev folder's own; kept in ${passwordFile})`;
	const admin = `admin routes: ${sandbox.baseUrl}/_admin/..., see sandbox/API.md`;
	return [
		'',
		`  n8n editor:   ${n8n.baseUrl}/`,
		`  login:        ${login}`,
		`  sandbox:      ${sandbox.baseUrl}  (the API under /v1; ${admin})`,
		`  credential:   "${SANDBOX_CREDENTIAL_NAME}" -> ${sandbox.baseUrl}`,
		`  MCP:          ${n8n.baseUrl}/mcp/business-finance  (publish 06 and 06b first; 06b needs its table, examples/README.md)`,
		`                header Authorization: Bearer ${secrets.token}`,
		`  approvers:    ${APPROVER_USER} / ${secrets.approverPassword}  (example 06b's approval form)`,
		'',
		'  In a second terminal (README.md, Usage, "Try it locally"):',
		...pasteLines(sandbox.baseUrl, secrets.token).map((line) => `    ${line}`),
		'',
		`  ${path.relative(process.cwd(), logFileOf(n8n.options))} shows "ECONNREFUSED 127.0.0.1:9" errors: harmless, this n8n`,
		'  is kept off the internet on purpose (its calls to n8n.io go to a closed local port).',
		`  Editing nodes/, credentials/ or icons/ rebuilds the package and ${reloadsInPlace(n8n.runtime) ? 'reloads it in the running n8n' : 'restarts n8n'}. Ctrl-C stops everything.`,
		'',
	].join('\n');
}

/**
 * Rebuild, reinstall, and reload the package in the running n8n (2.41 and later), or restart n8n
 * when it cannot; a failed build keeps the running n8n and its build.
 */
async function rebuildAndRestart(state: DevState, changed: string[]): Promise<void> {
	const files = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ', ...' : '');
	say(`changed: ${files || 'sources'}; rebuilding`);
	try {
		build();
	} catch (error) {
		console.error(`[dev] build failed; n8n keeps the previous build:\n${(error as Error).message}`);
		return;
	}
	if (reloadsInPlace(state.runtime) && (await reinstallInPlace(state.n8n))) {
		say('n8n reloaded the package in place (open editors show the new descriptions)');
		return;
	}
	installPackage(state.options.userFolder);
	say('restarting n8n');
	await state.n8n.stop();
	state.n8n = await startDevN8n(state.runtime, state.options);
	say(`n8n is back at ${state.n8n.baseUrl}/ (reload the editor page)`);
}

function reloader(state: DevState) {
	let timer: NodeJS.Timeout | undefined;
	let changed = new Set<string>();
	let reloads = Promise.resolve();
	const reload = async () => {
		if (!changed.size) return; // a reload queued before this one took these changes
		const files = [...changed];
		changed = new Set();
		await rebuildAndRestart(state, files).catch((error: Error) => {
			console.error(`[dev] reload failed: ${error.message}`);
		});
	};
	return {
		changed(file: string): void {
			changed.add(file);
			clearTimeout(timer);
			timer = setTimeout(() => {
				reloads = reloads.then(reload);
			}, RELOAD_DEBOUNCE_MS);
		},
		cancel: () => clearTimeout(timer),
	};
}

function watchSources(onChange: (file: string) => void): fs.FSWatcher[] {
	const editorLeftover = (name: string) =>
		name.endsWith('~') || name.includes('.swp') || name.endsWith('.tsbuildinfo');
	const watchers: fs.FSWatcher[] = [];
	for (const dir of WATCHED_DIRS) {
		const full = path.join(REPO_ROOT, dir);
		if (!fs.existsSync(full)) continue;
		const watcher = fs.watch(full, { recursive: true }, (_event, file) => {
			const name = file ? String(file) : '';
			if (!editorLeftover(name)) onChange(path.join(dir, name));
		});
		watchers.push(watcher);
	}
	watchers.push(fs.watch(path.join(REPO_ROOT, 'package.json'), () => onChange('package.json')));
	return watchers;
}

function stopOnSignals(stopAll: () => Promise<void>): void {
	let stopping = false;
	const stop = async (signal: string) => {
		if (stopping) return;
		stopping = true;
		say(`${signal}: stopping n8n and the sandbox`);
		await stopAll();
		say('stopped: n8n, the sandbox and the file watchers; nothing is left running');
		process.exit(0);
	};
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function main(): Promise<void> {
	const runtime = ensureRuntime();
	const userFolder = path.resolve(process.env.BF_DEV_FOLDER || path.join(REPO_ROOT, '.n8n-dev'));
	privateUserFolder(userFolder);
	// Every process group this run starts (n8n, restarted or still starting) is recorded, and
	// ends with this process: a Ctrl-C while n8n starts up leaves nothing running.
	const groupsFile = path.join(userFolder, 'process-groups');
	fs.writeFileSync(groupsFile, '');
	process.env[GROUPS_FILE_VARIABLE] = groupsFile;
	process.on('exit', () => killRecordedGroups(groupsFile));
	let stopAll = async (): Promise<void> => undefined;
	stopOnSignals(() => stopAll());
	say('building the package (npm run build)');
	build();
	installPackage(userFolder);

	const sandbox = await startDevSandbox();
	const options: N8nOptions = {
		userFolder,
		port: await portOrFree(envPort('BF_DEV_N8N_PORT', 5678)),
	};
	const secrets = await importDevData(runtime, options, sandbox);

	say(
		`starting n8n on port ${options.port} (log: ${path.relative(process.cwd(), logFileOf(options))})`,
	);
	const state: DevState = { runtime, options, n8n: await startDevN8n(runtime, options) };
	await state.n8n.setupOwner();
	await connectExampleTables(state.n8n);
	writeDevSession(userFolder, { n8n: state.n8n.baseUrl, major: runtime.major });
	console.log(banner(state.n8n, sandbox, secrets));

	const reload = reloader(state);
	const watchers = watchSources((file) => reload.changed(file));
	stopAll = async () => {
		reload.cancel();
		for (const watcher of watchers) watcher.close();
		removeDevSession(userFolder);
		await state.n8n.stop();
		await sandbox.close();
	};
}

main().catch((error) => {
	console.error(`[dev] ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
});
