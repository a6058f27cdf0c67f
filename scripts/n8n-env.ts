/**
 * Running a real n8n (2.40.7, provisioned by scripts/provision-n8n.sh) with this package loaded
 * as a community package. Used by `npm run dev` (scripts/dev.ts) and the e2e suite (test/e2e).
 *
 * What is done here, and how, for n8n 2.40.7 (found by trying it, kept here so it stays true):
 * - the package is copied (package.json + the `files` of package.json) into
 *   `<N8N_USER_FOLDER>/.n8n/nodes/node_modules/n8n-nodes-business-finance`, so its node types are
 *   `n8n-nodes-business-finance.businessFinance` / `.businessFinanceTrigger`;
 * - credentials and workflows are imported with `n8n import:credentials` / `n8n import:workflow`,
 *   workflows run with `n8n execute --id=<id> --rawOutput` (start node: Manual Trigger);
 * - the editor needs no sign-up: the owner is created through `POST /rest/owner/setup` with fixed
 *   dev credentials (printed by `npm run dev`);
 * - trigger workflows are activated and executions read through the public REST API
 *   (`/api/v1/...`) with an API key that the owner creates through `POST /rest/api-keys`
 *   (CLI alternative: `n8n publish:workflow --id=<id>` and a restart);
 * - activation is asynchronous in 2.x ("publication" through an outbox polled every 15 s, set to
 *   500 ms here): the API call returns before the trigger's webhook methods run, so callers
 *   poll for the effect (N8nServer.waitFor);
 * - a workflow n8n finds issues in (a missing credential or required parameter) is refused on
 *   activation (400) and by `n8n execute` ("No active execution found"; the execution is stored
 *   with a WorkflowHasIssuesError, read back through the API);
 * - `n8n start` exits silently with NODE_ENV=test (jest sets it), so it is removed from the env;
 * - each n8n process (CLI commands included) opens a task-runner broker: a free port each.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

export const PACKAGE_NAME = 'n8n-nodes-business-finance';
export const N8N_VERSION = '2.40.7';
export const REPO_ROOT = path.resolve(__dirname, '..');

/** Fixed ids the examples and the dev environment use. */
export const SANDBOX_CREDENTIAL_ID = 'bfSandboxCred001';
export const SANDBOX_CREDENTIAL_NAME = 'Business Finance sandbox';

/** The owner `npm run dev` creates so the editor opens without a sign-up step. */
export const DEV_OWNER = {
	email: 'dev@business-finance.local',
	firstName: 'Dev',
	lastName: 'Owner',
	password: 'BusinessFinance1!',
};

export interface Runtime {
	/** Node >= 24 that runs n8n. */
	nodeBin: string;
	/** The folder holding node_modules/n8n. */
	n8nDir: string;
	/** n8n's bin script (run with nodeBin). */
	n8nScript: string;
}

export function cacheDir(): string {
	return process.env.BF_N8N_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-business-finance');
}

/** The provisioned runtime, or null when `npm run provision` has not run (or not finished). */
export function findRuntime(): Runtime | null {
	const marker = path.join(cacheDir(), `n8n-${N8N_VERSION}`, '.provisioned');
	if (!fs.existsSync(marker)) return null;
	const values: Record<string, string> = {};
	for (const line of fs.readFileSync(marker, 'utf8').split('\n')) {
		const at = line.indexOf('=');
		if (at > 0) values[line.slice(0, at)] = line.slice(at + 1);
	}
	const nodeBin = values.NODE_BIN;
	const n8nDir = values.N8N_DIR;
	if (!nodeBin || !n8nDir) return null;
	const n8nScript = path.join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n');
	if (!fs.existsSync(nodeBin) || !fs.existsSync(n8nScript)) return null;
	return { nodeBin, n8nDir, n8nScript };
}

/** Runs the provisioning script (instant when already done) and returns the runtime. */
export function ensureRuntime(): Runtime {
	const found = findRuntime();
	if (found) return found;
	const result = spawnSync('bash', [path.join(REPO_ROOT, 'scripts', 'provision-n8n.sh')], {
		stdio: 'inherit',
	});
	if (result.status !== 0) throw new Error(`scripts/provision-n8n.sh failed (exit ${result.status})`);
	const runtime = findRuntime();
	if (!runtime) throw new Error('provisioning finished but left no usable n8n; see its output');
	return runtime;
}

export function requireRuntime(): Runtime {
	const runtime = findRuntime();
	if (!runtime) {
		throw new Error(
			`n8n ${N8N_VERSION} is not provisioned in ${cacheDir()}: run \`npm run provision\` first ` +
				'(about 8 minutes once; cached afterwards).',
		);
	}
	return runtime;
}

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---- the package as a community package -------------------------------------------------------

function copyDir(from: string, to: string): void {
	fs.mkdirSync(to, { recursive: true });
	for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
		const src = path.join(from, entry.name);
		const dst = path.join(to, entry.name);
		if (entry.isDirectory()) copyDir(src, dst);
		else if (!entry.name.endsWith('.map')) fs.copyFileSync(src, dst);
	}
}

/** Runs `npm run build` in the repository; throws with its output when it fails. */
export function build(): void {
	const result = spawnSync('npm', ['run', 'build', '--silent'], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	if (result.status !== 0) {
		throw new Error(`npm run build failed:\n${result.stdout}\n${result.stderr}`);
	}
}

/**
 * Installs the built package (what `npm pack` would ship: package.json and the `files` entries)
 * as a community package of the n8n whose user folder is `userFolder`.
 */
export function installPackage(userFolder: string): string {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials] as string[]) {
		if (!fs.existsSync(path.join(REPO_ROOT, file))) {
			throw new Error(`${file} is missing: run \`npm run build\` (the nodes must build first)`);
		}
	}
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	const shipped = { ...pkg };
	delete shipped.devDependencies;
	delete shipped.scripts;
	fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify(shipped, null, 2));
	for (const entry of pkg.files as string[]) {
		if (entry.startsWith('!')) continue;
		const src = path.join(REPO_ROOT, entry);
		if (!fs.existsSync(src)) continue;
		if (fs.statSync(src).isDirectory()) copyDir(src, path.join(target, entry));
		else fs.copyFileSync(src, path.join(target, entry));
	}
	// n8n's community-package folder is an npm project listing what it installed.
	const manifest = path.join(nodesDir, 'package.json');
	const current = fs.existsSync(manifest)
		? JSON.parse(fs.readFileSync(manifest, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	current.dependencies = { ...(current.dependencies || {}), [PACKAGE_NAME]: pkg.version };
	fs.writeFileSync(manifest, JSON.stringify(current, null, 2));
	return target;
}

// ---- environment and CLI ----------------------------------------------------------------------

export interface N8nOptions {
	userFolder: string;
	port: number;
	/** Port of the task-runner broker (each n8n process, CLI included, opens one). */
	brokerPort?: number;
	logLevel?: 'error' | 'warn' | 'info' | 'debug';
	extraEnv?: Record<string, string>;
}

export function n8nEnv(runtime: Runtime, options: N8nOptions): NodeJS.ProcessEnv {
	const base = `http://127.0.0.1:${options.port}`;
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PATH: `${path.dirname(runtime.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: options.userFolder,
		N8N_PORT: String(options.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${base}/`,
		N8N_WEBHOOK_URL: `${base}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_LEVEL: options.logLevel ?? 'info',
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort ?? 0),
		// 2.x activates ("publishes") workflows through an outbox polled every 15 s; poll faster so
		// an activation through the API takes effect within a second.
		N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '500',
		// Nothing leaves the machine: anything n8n would fetch from the internet goes to a dead
		// loopback proxy; loopback itself (the sandbox, n8n) is direct.
		HTTP_PROXY: 'http://127.0.0.1:9',
		HTTPS_PROXY: 'http://127.0.0.1:9',
		http_proxy: 'http://127.0.0.1:9',
		https_proxy: 'http://127.0.0.1:9',
		NO_PROXY: '127.0.0.1,localhost,::1',
		no_proxy: '127.0.0.1,localhost,::1',
		...options.extraEnv,
	};
	// The repository's own npm/ts-node/jest settings must not leak into n8n: `n8n start` exits
	// silently with NODE_ENV=test (which jest sets).
	for (const name of Object.keys(env)) {
		if (name === 'NODE_ENV' || name === 'NODE_OPTIONS' || name.startsWith('TS_NODE_') || name.startsWith('JEST_')) {
			delete env[name];
		}
	}
	return env;
}

export interface CliResult {
	code: number | null;
	/** The signal that ended the CLI, when one did. */
	signal?: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** Runs `n8n <args>` (a CLI command such as import:workflow) against a user folder. */
export async function runCli(
	runtime: Runtime,
	options: N8nOptions,
	args: string[],
	timeoutMs = 180000,
): Promise<CliResult> {
	const brokerPort = await freePort();
	const env = n8nEnv(runtime, { ...options, brokerPort, logLevel: options.logLevel ?? 'warn' });
	// Output goes to files, not pipes: n8n's CLI calls process.exit() right after printing, and
	// a large `--rawOutput` document written to a pipe is then lost (pipe writes are async).
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
			const child = spawn(runtime.nodeBin, [runtime.n8nScript, ...args], {
				env,
				cwd: options.userFolder,
				stdio: ['ignore', outFd, errFd],
			});
			const timer = setTimeout(() => {
				child.kill('SIGKILL');
				const { stdout, stderr } = read();
				reject(new Error(`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
			}, timeoutMs);
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

export async function runCliOk(
	runtime: Runtime,
	options: N8nOptions,
	args: string[],
	timeoutMs?: number,
): Promise<CliResult> {
	const result = await runCli(runtime, options, args, timeoutMs);
	if (result.code !== 0) {
		throw new Error(`n8n ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
	}
	return result;
}

// ---- credential and workflow files ------------------------------------------------------------

export interface SandboxCredential {
	apiKey: string;
	baseUrl: string;
	webhookSigningSecret?: string;
	id?: string;
	name?: string;
}

export function credentialFile(dir: string, credentials: SandboxCredential[]): string {
	const file = path.join(dir, `credentials-${process.pid}-${Date.now()}.json`);
	const now = new Date().toISOString();
	const entries = credentials.map((c) => {
		const data: Record<string, string> = { apiKey: c.apiKey, baseUrl: c.baseUrl };
		if (c.webhookSigningSecret) data.webhookSigningSecret = c.webhookSigningSecret;
		return {
			id: c.id ?? SANDBOX_CREDENTIAL_ID,
			name: c.name ?? SANDBOX_CREDENTIAL_NAME,
			type: 'businessFinanceApi',
			data,
			createdAt: now,
			updatedAt: now,
		};
	});
	fs.writeFileSync(file, JSON.stringify(entries, null, 2), { mode: 0o600 });
	return file;
}

/** Imports credentials (a temp file, removed afterwards: it holds the API key in clear). */
export async function importCredentials(
	runtime: Runtime,
	options: N8nOptions,
	credentials: SandboxCredential[],
): Promise<void> {
	const file = credentialFile(options.userFolder, credentials);
	try {
		await runCliOk(runtime, options, ['import:credentials', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<Record<string, any>>;
	connections: Record<string, any>;
	settings?: Record<string, any>;
	active?: boolean;
	[key: string]: any;
}

/** Imports workflows (each with its `id` set) in one CLI run. */
export async function importWorkflows(
	runtime: Runtime,
	options: N8nOptions,
	workflows: WorkflowJson[],
): Promise<void> {
	const dir = fs.mkdtempSync(path.join(options.userFolder, 'import-'));
	try {
		workflows.forEach((workflow, index) => {
			if (!workflow.id) throw new Error(`workflow "${workflow.name}" needs an id to be imported`);
			const body = { active: false, settings: {}, ...workflow };
			fs.writeFileSync(path.join(dir, `${String(index).padStart(3, '0')}.json`), JSON.stringify(body));
		});
		await runCliOk(runtime, options, ['import:workflow', '--separate', `--input=${dir}`]);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** Loads the workflows in examples/ (each file one workflow). */
export function loadExamples(): Array<{ file: string; workflow: WorkflowJson }> {
	const dir = path.join(REPO_ROOT, 'examples');
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => ({
			file: name,
			workflow: JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as WorkflowJson,
		}));
}

// ---- the server -------------------------------------------------------------------------------

export interface StartOptions {
	userFolder: string;
	port?: number;
	logLevel?: N8nOptions['logLevel'];
	/** Where n8n's output goes (default: kept in memory, see N8nServer.log). */
	output?: 'inherit' | 'buffer';
	/** Append n8n's output to this file instead (N8nServer.log reads it back). */
	logFile?: string;
	startTimeoutMs?: number;
	extraEnv?: Record<string, string>;
}

interface HttpAnswer {
	status: number;
	headers: Headers;
	body: any;
	text: string;
}

export class N8nServer {
	readonly baseUrl: string;
	private child: ChildProcess | null = null;
	private output = '';
	private cookie = '';
	private apiKey = '';
	private exited: Promise<void> = Promise.resolve();

	private constructor(
		readonly runtime: Runtime,
		readonly options: N8nOptions,
		private readonly startOptions: StartOptions,
	) {
		this.baseUrl = `http://127.0.0.1:${options.port}`;
	}

	static async start(runtime: Runtime, startOptions: StartOptions): Promise<N8nServer> {
		const port = startOptions.port ?? (await freePort());
		const server = new N8nServer(
			runtime,
			{
				userFolder: startOptions.userFolder,
				port,
				logLevel: startOptions.logLevel,
				extraEnv: startOptions.extraEnv,
			},
			startOptions,
		);
		await server.boot();
		return server;
	}

	/** n8n's output so far (when not inherited). */
	log(): string {
		const file = this.startOptions.logFile;
		if (file) return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
		return this.output;
	}

	private async boot(): Promise<void> {
		const brokerPort = await freePort();
		const env = n8nEnv(this.runtime, { ...this.options, brokerPort });
		const inherit = this.startOptions.output === 'inherit';
		const logFd = this.startOptions.logFile ? fs.openSync(this.startOptions.logFile, 'a') : undefined;
		this.output = '';
		const out = logFd ?? (inherit ? 'inherit' : 'pipe');
		const child = spawn(this.runtime.nodeBin, [this.runtime.n8nScript, 'start'], {
			env,
			cwd: this.options.userFolder,
			stdio: ['ignore', out, out],
			detached: true, // its own process group, so stop() also ends the task runner it spawns
		});
		if (logFd !== undefined) fs.closeSync(logFd);
		this.child = child;
		if (out === 'pipe') {
			const keep = (chunk: Buffer) => {
				this.output += chunk.toString();
				if (this.output.length > 2_000_000) this.output = this.output.slice(-1_000_000);
			};
			child.stdout?.on('data', keep);
			child.stderr?.on('data', keep);
		}
		let exitCode: number | null | undefined;
		this.exited = new Promise((resolve) =>
			child.on('close', (code) => {
				exitCode = code;
				resolve();
			}),
		);
		const deadline = Date.now() + (this.startOptions.startTimeoutMs ?? 180000);
		while (Date.now() < deadline) {
			if (exitCode !== undefined) {
				throw new Error(`n8n exited (${exitCode}) while starting:\n${this.log().slice(-4000)}`);
			}
			try {
				const res = await fetch(`${this.baseUrl}/healthz`);
				if (res.ok && ((await res.json()) as { status?: string }).status === 'ok') {
					// /healthz answers before the REST API and the webhooks are mounted.
					const ready = await fetch(`${this.baseUrl}/healthz/readiness`).catch(() => null);
					if (!ready || ready.ok) {
						const settings = await fetch(`${this.baseUrl}/rest/settings`).catch(() => null);
						if (settings && settings.ok) return;
					}
				}
			} catch {
				// not listening yet
			}
			await sleep(500);
		}
		await this.stop();
		throw new Error(`n8n did not answer /healthz within the start timeout:\n${this.log().slice(-4000)}`);
	}

	async stop(): Promise<void> {
		const child = this.child;
		this.child = null;
		if (!child || child.exitCode !== null || child.pid === undefined) return;
		const pid = child.pid;
		try {
			process.kill(-pid, 'SIGTERM');
		} catch {
			return;
		}
		let timer: NodeJS.Timeout | undefined;
		const done = await Promise.race([
			this.exited.then(() => true),
			new Promise<boolean>((resolve) => {
				timer = setTimeout(() => resolve(false), 20000);
			}),
		]);
		clearTimeout(timer);
		if (!done) {
			try {
				process.kill(-pid, 'SIGKILL');
			} catch {
				// gone
			}
			await this.exited;
		}
	}

	/** Synchronous last resort (process 'exit' handlers): kills n8n's process group. */
	killNow(): void {
		const pid = this.child?.pid;
		if (pid === undefined || this.child?.exitCode !== null) return;
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}

	async restart(): Promise<void> {
		await this.stop();
		this.cookie = '';
		await this.boot();
	}

	// ---- HTTP ----

	async request(
		method: string,
		urlPath: string,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<HttpAnswer> {
		const res = await fetch(`${this.baseUrl}${urlPath}`, {
			method,
			headers: {
				'browser-id': 'bf-dev-scripts',
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
				...headers,
			},
			body: body !== undefined ? JSON.stringify(body) : undefined,
		});
		const text = await res.text();
		let parsed: any = undefined;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			parsed = undefined;
		}
		return { status: res.status, headers: res.headers, body: parsed, text };
	}

	/** Internal REST (`/rest/...`) as the owner. */
	async rest(method: string, urlPath: string, body?: unknown): Promise<any> {
		if (!this.cookie) await this.login();
		const answer = await this.request(method, `/rest${urlPath}`, body, { cookie: this.cookie });
		if (answer.status >= 300) {
			throw new Error(`${method} /rest${urlPath} -> ${answer.status}: ${answer.text.slice(0, 2000)}`);
		}
		return answer.body?.data ?? answer.body;
	}

	/** Public REST API (`/api/v1/...`) with the owner's API key. */
	async api(method: string, urlPath: string, body?: unknown): Promise<any> {
		if (!this.apiKey) await this.createApiKey();
		const answer = await this.request(method, `/api/v1${urlPath}`, body, { 'x-n8n-api-key': this.apiKey });
		if (answer.status >= 300) {
			throw new Error(`${method} /api/v1${urlPath} -> ${answer.status}: ${answer.text.slice(0, 2000)}`);
		}
		return answer.body;
	}

	private takeCookie(answer: HttpAnswer): void {
		const setCookies = answer.headers.getSetCookie?.() ?? [];
		const auth = setCookies.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
	}

	/** Creates the owner when the instance has none (idempotent), then logs in. */
	async setupOwner(owner = DEV_OWNER): Promise<void> {
		const settings = await this.request('GET', '/rest/settings');
		const showSetup = settings.body?.data?.userManagement?.showSetupOnFirstLoad;
		if (showSetup !== false) {
			const answer = await this.request('POST', '/rest/owner/setup', owner);
			if (answer.status >= 300) {
				throw new Error(`owner setup failed (${answer.status}): ${answer.text.slice(0, 1000)}`);
			}
			this.takeCookie(answer);
		}
		if (!this.cookie) await this.login(owner);
	}

	async login(owner = DEV_OWNER): Promise<void> {
		const answer = await this.request('POST', '/rest/login', {
			emailOrLdapLoginId: owner.email,
			email: owner.email,
			password: owner.password,
		});
		if (answer.status >= 300) {
			throw new Error(`login failed (${answer.status}): ${answer.text.slice(0, 1000)}`);
		}
		this.takeCookie(answer);
		if (!this.cookie) throw new Error('login answered without an n8n-auth cookie');
	}

	async createApiKey(): Promise<string> {
		let scopes: string[] | undefined;
		try {
			scopes = await this.rest('GET', '/api-keys/scopes');
		} catch {
			scopes = undefined;
		}
		const created = await this.rest('POST', '/api-keys', {
			label: `bf-scripts-${Date.now()}`,
			expiresAt: null,
			...(scopes ? { scopes } : {}),
		});
		const key = created?.rawApiKey ?? created?.apiKey;
		if (!key) throw new Error(`POST /rest/api-keys answered without a key: ${JSON.stringify(created)}`);
		this.apiKey = key;
		return key;
	}

	// ---- workflows and executions ----

	async activate(workflowId: string): Promise<any> {
		return await this.api('POST', `/workflows/${workflowId}/activate`);
	}

	async deactivate(workflowId: string): Promise<any> {
		return await this.api('POST', `/workflows/${workflowId}/deactivate`);
	}

	async executions(workflowId: string, includeData = true): Promise<any[]> {
		const answer = await this.api(
			'GET',
			`/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=${includeData}&limit=100`,
		);
		return answer?.data ?? [];
	}

	/** Waits until the workflow has more than `count` finished executions; returns them all. */
	async waitForExecutions(workflowId: string, count: number, timeoutMs = 60000): Promise<any[]> {
		const deadline = Date.now() + timeoutMs;
		let last: any[] = [];
		while (Date.now() < deadline) {
			last = (await this.executions(workflowId)).filter((e) => e.finished || e.stoppedAt);
			if (last.length > count) return last;
			await sleep(500);
		}
		throw new Error(
			`workflow ${workflowId}: expected more than ${count} executions within ${timeoutMs} ms, have ${last.length}`,
		);
	}

	/**
	 * `n8n execute --id=<id> --rawOutput`; returns the parsed run data. A failed execution prints
	 * no JSON (only an error), so its data is read back from the public API.
	 */
	async execute(workflowId: string): Promise<ExecuteResult> {
		const before = new Set((await this.executions(workflowId, false)).map((e) => String(e.id)));
		const result = await executeWorkflow(this.runtime, this.options, workflowId);
		if (!result.data) {
			const fresh = (await this.executions(workflowId, true)).filter((e) => !before.has(String(e.id)));
			if (fresh.length) result.data = fresh.sort((a, b) => Number(b.id) - Number(a.id))[0];
		}
		return result;
	}

	/** Polls `check` until it returns a value other than undefined/false. */
	async waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30000): Promise<T> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const value = await check();
			if (value !== undefined && value !== false) return value as T;
			if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
			await sleep(250);
		}
	}
}

export interface ExecuteResult extends CliResult {
	/** Parsed JSON that `--rawOutput` printed (null when none could be parsed). */
	data: any;
}

/** Finds the JSON document `n8n execute --rawOutput` prints among log lines. */
export function parseRawOutput(stdout: string): any {
	const lines = stdout.split('\n');
	for (let start = 0; start < lines.length; start++) {
		if (lines[start] !== '{') continue;
		// The document is pretty-printed: it ends with a line holding only "}".
		for (let end = lines.length - 1; end > start; end--) {
			if (lines[end] !== '}') continue;
			try {
				return JSON.parse(lines.slice(start, end + 1).join('\n'));
			} catch {
				// not this closing line
			}
		}
	}
	return null;
}

export async function executeWorkflow(
	runtime: Runtime,
	options: N8nOptions,
	workflowId: string,
): Promise<ExecuteResult> {
	// The CLI prints the run data through its logger at level info: below that it prints nothing.
	const result = await runCli(runtime, { ...options, logLevel: 'info' }, [
		'execute',
		`--id=${workflowId}`,
		'--rawOutput',
	]);
	return { ...result, data: parseRawOutput(result.stdout) };
}
