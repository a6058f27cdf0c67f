/**
 * `npm run dev`: a real n8n 2.40.7 with this package loaded as a community package, against the
 * local sandbox with demo data.
 *
 * 1. provisions Node 24 + n8n 2.40.7 into the cache folder if needed (once, about 8 minutes);
 * 2. builds the package and installs it into `.n8n-dev/.n8n/nodes/node_modules/`;
 * 3. starts the sandbox (demo data) in this process;
 * 4. imports the "Business Finance sandbox" credential (pointing at the sandbox) and, once, the
 *    example workflows from examples/;
 * 5. starts n8n, creates the owner (no sign-up step) and prints the URL and the login;
 * 6. watches nodes/, credentials/, icons/ and package.json: rebuild, reinstall, restart n8n;
 * 7. Ctrl-C stops everything.
 *
 * Environment: BF_DEV_N8N_PORT (default 5678, or a free port when taken), BF_DEV_SANDBOX_PORT
 * (default 4010, or a free port), BF_DEV_FOLDER (default <repo>/.n8n-dev), BF_N8N_CACHE.
 */
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { startSandbox, type RunningSandbox } from '../sandbox';
import {
	DEV_OWNER,
	N8nServer,
	REPO_ROOT,
	SANDBOX_CREDENTIAL_NAME,
	build,
	ensureRuntime,
	freePort,
	importCredentials,
	importWorkflows,
	installPackage,
	loadExamples,
	type N8nOptions,
	type Runtime,
} from './n8n-env';

const say = (message: string) => console.log(`[dev] ${message}`);

async function portOrFree(preferred: number): Promise<number> {
	if (preferred === 0) return await freePort();
	const free = await new Promise<boolean>((resolve) => {
		const probe = net.createServer();
		probe.once('error', () => resolve(false));
		probe.listen(preferred, '127.0.0.1', () => probe.close(() => resolve(true)));
	});
	return free ? preferred : await freePort();
}

function envPort(name: string, fallback: number): number {
	const value = process.env[name];
	if (!value) return fallback;
	const port = Number(value);
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number`);
	return port;
}

/** Imports the examples not imported before (so edits made in the editor survive restarts). */
async function importNewExamples(runtime: Runtime, options: N8nOptions): Promise<string[]> {
	const ledgerFile = path.join(options.userFolder, 'bf-imported-examples.json');
	const done: string[] = fs.existsSync(ledgerFile) ? JSON.parse(fs.readFileSync(ledgerFile, 'utf8')) : [];
	const fresh = loadExamples().filter((e) => !done.includes(e.file));
	if (fresh.length) {
		await importWorkflows(
			runtime,
			options,
			fresh.map((e) => e.workflow),
		);
		fs.writeFileSync(ledgerFile, JSON.stringify([...done, ...fresh.map((e) => e.file)], null, 2));
	}
	return fresh.map((e) => e.workflow.name);
}

async function main(): Promise<void> {
	const runtime = ensureRuntime();
	const userFolder = path.resolve(process.env.BF_DEV_FOLDER || path.join(REPO_ROOT, '.n8n-dev'));
	fs.mkdirSync(userFolder, { recursive: true });

	say('building the package (npm run build)');
	build();
	installPackage(userFolder);

	const sandbox: RunningSandbox = await startSandbox({
		port: await portOrFree(envPort('BF_DEV_SANDBOX_PORT', 4010)),
		seed: 'demo',
		deliveryRetryDelaysMs: [1000, 5000, 25000],
	});
	say(`sandbox (demo data) at ${sandbox.baseUrl}, API key ${sandbox.apiKey}`);

	const port = await portOrFree(envPort('BF_DEV_N8N_PORT', 5678));
	const logFile = path.join(userFolder, 'n8n.log');
	const options: N8nOptions = { userFolder, port };

	say(`importing the credential "${SANDBOX_CREDENTIAL_NAME}" (n8n import:credentials)`);
	await importCredentials(runtime, options, [{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl }]);
	const imported = await importNewExamples(runtime, options);
	if (imported.length) say(`imported the examples: ${imported.join('; ')}`);

	say(`starting n8n on port ${port} (log: ${path.relative(process.cwd(), logFile)})`);
	let n8n: N8nServer = await N8nServer.start(runtime, {
		userFolder,
		port,
		logLevel: 'info',
		logFile,
		extraEnv: { GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE || 'UTC' },
	});
	// Whatever happens to this process, n8n (its own process group) goes with it.
	process.on('exit', () => n8n.killNow());
	await n8n.setupOwner();

	const banner = () =>
		[
			'',
			`  n8n editor:   ${n8n.baseUrl}/`,
			`  login:        ${DEV_OWNER.email} / ${DEV_OWNER.password}   (created for you; dev only)`,
			`  credential:   "${SANDBOX_CREDENTIAL_NAME}" -> ${sandbox.baseUrl}`,
			`  sandbox:      ${sandbox.baseUrl}/v1  (admin routes: ${sandbox.baseUrl}/_admin/..., see sandbox/API.md)`,
			'  Editing nodes/, credentials/ or icons/ rebuilds and restarts n8n. Ctrl-C stops everything.',
			'',
		].join('\n');
	console.log(banner());

	// ---- watch and reload ----
	let timer: NodeJS.Timeout | undefined;
	let busy = false;
	let again = false;
	let changed = new Set<string>();
	const reload = async () => {
		if (busy) {
			again = true;
			return;
		}
		busy = true;
		const files = [...changed].slice(0, 3).join(', ') + (changed.size > 3 ? ', ...' : '');
		changed = new Set();
		try {
			say(`changed: ${files || 'sources'}; rebuilding`);
			try {
				build();
			} catch (error) {
				console.error(`[dev] build failed; n8n keeps the previous build:\n${(error as Error).message}`);
				return;
			}
			installPackage(userFolder);
			say('restarting n8n');
			await n8n.stop();
			n8n = await N8nServer.start(runtime, {
				userFolder,
				port,
				logLevel: 'info',
				logFile,
				extraEnv: { GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE || 'UTC' },
			});
			say(`n8n is back at ${n8n.baseUrl}/ (reload the editor page)`);
		} catch (error) {
			console.error(`[dev] reload failed: ${(error as Error).message}`);
		} finally {
			busy = false;
			if (again) {
				again = false;
				void reload();
			}
		}
	};
	const schedule = (dir: string) => (_event: string, file: string | Buffer | null) => {
		const name = file ? String(file) : '';
		if (name.endsWith('~') || name.includes('.swp') || name.endsWith('.tsbuildinfo')) return;
		changed.add(dir === 'package.json' ? dir : path.join(dir, name));
		clearTimeout(timer);
		timer = setTimeout(() => void reload(), 400);
	};
	const watchers: fs.FSWatcher[] = [];
	for (const dir of ['nodes', 'credentials', 'icons']) {
		const full = path.join(REPO_ROOT, dir);
		if (fs.existsSync(full)) watchers.push(fs.watch(full, { recursive: true }, schedule(dir)));
	}
	watchers.push(fs.watch(path.join(REPO_ROOT, 'package.json'), schedule('package.json')));

	// ---- stop ----
	let stopping = false;
	const stop = async (signal: string) => {
		if (stopping) return;
		stopping = true;
		say(`${signal}: stopping n8n and the sandbox`);
		clearTimeout(timer);
		for (const w of watchers) w.close();
		await n8n.stop();
		await sandbox.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
	console.error(`[dev] ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
});
