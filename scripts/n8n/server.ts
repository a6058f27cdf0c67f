/**
 * A running n8n server with this package installed, as `npm run dev` and the e2e suite use it:
 * the process (process.ts), an owner session on its APIs (http.ts) and workflow runs
 * (execute.ts) behind one handle.
 */
import { freePort } from '../ports';
import { pollUntil } from '../poll';
import type { LogLevel, N8nOptions } from './environment';
import {
	activateWorkflow,
	deactivateWorkflow,
	executeAndReadBack,
	listExecutions,
	runInServer,
	waitForExecutions,
	type ExecuteResult,
} from './execute';
import { newSession, publicApi, rest, setupOwner, type N8nSession } from './http';
import {
	killN8nProcess,
	startN8nProcess,
	stopN8nProcess,
	type N8nProcess,
	type OutputOptions,
} from './process';
import type { Runtime } from './runtime';

export interface StartOptions extends OutputOptions {
	userFolder: string;
	/** Default: a free port. */
	port?: number;
	logLevel?: LogLevel;
	startTimeoutMs?: number;
	extraEnv?: Record<string, string>;
}

export class N8nServer {
	readonly baseUrl: string;
	private readonly session: N8nSession;

	private constructor(
		readonly runtime: Runtime,
		readonly options: N8nOptions,
		private readonly n8nProcess: N8nProcess,
	) {
		this.baseUrl = `http://127.0.0.1:${options.port}`;
		this.session = newSession(this.baseUrl);
	}

	/** Starts `n8n start` and resolves once its REST API answers. */
	static async start(runtime: Runtime, start: StartOptions): Promise<N8nServer> {
		const { userFolder, logLevel, extraEnv } = start;
		const options = { userFolder, port: start.port ?? (await freePort()), logLevel, extraEnv };
		const n8nProcess = await startN8nProcess(runtime, options, start, start.startTimeoutMs);
		return new N8nServer(runtime, options, n8nProcess);
	}

	/** The `n8n start` process (its group holds the task runner too). */
	get process(): N8nProcess {
		return this.n8nProcess;
	}

	/** n8n's output so far (empty when inherited). */
	log(): string {
		return this.n8nProcess.log();
	}

	async stop(): Promise<void> {
		await stopN8nProcess(this.n8nProcess);
	}

	/** Synchronous last resort (process 'exit' handlers): kills n8n's process group. */
	killNow(): void {
		killN8nProcess(this.n8nProcess);
	}

	/** Creates the owner when the instance has none (idempotent), then logs in. */
	async setupOwner(): Promise<void> {
		await setupOwner(this.session);
	}

	/** Internal REST (`/rest/...`) as the owner. */
	async rest(method: string, urlPath: string, body?: unknown): Promise<any> {
		return await rest(this.session, method, urlPath, body);
	}

	/** Public REST API (`/api/v1/...`) with the owner's API key. */
	async api(method: string, urlPath: string, body?: unknown): Promise<any> {
		return await publicApi(this.session, method, urlPath, body);
	}

	async activate(workflowId: string): Promise<any> {
		return await activateWorkflow(this.session, workflowId);
	}

	async deactivate(workflowId: string): Promise<any> {
		return await deactivateWorkflow(this.session, workflowId);
	}

	async executions(workflowId: string, includeData = true): Promise<any[]> {
		return await listExecutions(this.session, workflowId, includeData);
	}

	async waitForExecutions(workflowId: string, count: number, timeoutMs?: number) {
		return await waitForExecutions(this.session, workflowId, count, timeoutMs);
	}

	/** `n8n execute --id=<id> --rawOutput`; a failed run's data is read back from the API. */
	async execute(workflowId: string): Promise<ExecuteResult> {
		return await executeAndReadBack(this.runtime, this.options, this.session, workflowId);
	}

	/**
	 * Runs a saved workflow in the server from `triggerName` (the editor's "Execute workflow"),
	 * where n8n's modules are loaded (data tables); resolves with the finished execution.
	 */
	async runInServer(workflowId: string, triggerName: string, timeoutMs?: number): Promise<any> {
		return await runInServer(this.session, this.runtime.major, workflowId, triggerName, timeoutMs);
	}

	/** Polls `check` until it returns a value other than undefined/false. */
	async waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000) {
		return await pollUntil(what, check, timeoutMs);
	}
}
