import { freePort } from '../ports';
import { pollUntil } from '../poll';
import { stopGroup, type GroupProcess } from '../process-group';
import { runCli, type CliResult } from './cli';
import type { N8nOptions } from './environment';
import { N8nApi } from './http';
import { isServing, startN8nProcess } from './process';
import type { Runtime } from './runtime';

export interface StartOptions extends Omit<N8nOptions, 'port'> {
	/** Default: a free one. */
	port?: number;
	logFile?: string;
	startTimeoutMs?: number;
}

export interface ExecuteResult extends CliResult {
	/** `--rawOutput`'s JSON, or the execution read back; null when neither. */
	data: any;
}

export class N8nServer extends N8nApi {
	private constructor(
		readonly runtime: Runtime,
		readonly options: N8nOptions,
		readonly process: GroupProcess,
	) {
		super(`http://127.0.0.1:${options.port}`, options.userFolder);
	}

	static async start(runtime: Runtime, start: StartOptions): Promise<N8nServer> {
		const { logFile, startTimeoutMs = 180_000, ...rest } = start;
		const options = { ...rest, port: start.port ?? (await freePort()) };
		const n8nProcess = await startN8nProcess(runtime, options, {
			name: 'n8n',
			args: ['start'],
			isReady: isServing,
			logFile,
			timeoutMs: startTimeoutMs,
		});
		return new N8nServer(runtime, options, n8nProcess);
	}

	log(): string {
		return this.process.log();
	}

	async stop(): Promise<void> {
		await stopGroup(this.process);
	}

	/** Asynchronous in 2.x: it returns before the trigger's webhook methods have run. */
	async activate(workflowId: string): Promise<any> {
		return await this.api('POST', `/workflows/${workflowId}/activate`);
	}

	async deactivate(workflowId: string): Promise<any> {
		return await this.api('POST', `/workflows/${workflowId}/deactivate`);
	}

	/** The workflow's newest `max` executions (all by default), newest first: pages of 100. */
	async executions(workflowId: string, includeData = true, max = Infinity): Promise<any[]> {
		const runs: any[] = [];
		let cursor = '';
		do {
			const query = `workflowId=${encodeURIComponent(workflowId)}&includeData=${includeData}&limit=100`;
			const page = await this.api('GET', `/executions?${query}${cursor && `&cursor=${cursor}`}`);
			runs.push(...(page?.data ?? []));
			cursor = page?.nextCursor ? encodeURIComponent(page.nextCursor) : '';
		} while (cursor && runs.length < max);
		return runs.slice(0, max);
	}

	async waitForExecutions(workflowId: string, count: number, timeoutMs = 60_000): Promise<any[]> {
		let finished: any[] = [];
		return await pollUntil(
			() => `more than ${count} executions of workflow ${workflowId} (have ${finished.length})`,
			async () => {
				const all = await this.executions(workflowId);
				finished = all.filter((e) => e.finished || e.stoppedAt);
				return finished.length > count && finished;
			},
			timeoutMs,
			500,
		);
	}

	/** A failed run prints only an error, so its execution is read back from the public API instead. */
	async execute(workflowId: string): Promise<ExecuteResult> {
		const known = new Set((await this.executions(workflowId, false)).map((e) => String(e.id)));
		// The CLI prints the run data through its logger at level info: below that, nothing.
		const args = ['execute', `--id=${workflowId}`, '--rawOutput'];
		const cli = await runCli(this.runtime, { ...this.options, logLevel: 'info' }, args);
		const result = { ...cli, data: parseRawOutput(cli.stdout) };
		if (!result.data) {
			const fresh = (await this.executions(workflowId)).filter((e) => !known.has(String(e.id)));
			if (fresh.length) result.data = fresh.sort((a, b) => Number(b.id) - Number(a.id))[0];
		}
		return result;
	}

	async waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000) {
		return await pollUntil(what, check, timeoutMs);
	}
}

/**
 * As the editor's "Execute workflow" does: needed for the Data Table node, which `n8n execute`
 * does not load. 2.x takes only the trigger's name; 1.x takes the workflow too.
 */
export async function runInServer(
	n8n: N8nApi,
	major: number,
	workflowId: string,
	triggerName: string,
	timeoutMs = 600_000,
): Promise<any> {
	const triggerToStartFrom = { name: triggerName };
	const body =
		major >= 2
			? { triggerToStartFrom }
			: { workflowData: await n8n.rest('GET', `/workflows/${workflowId}`), triggerToStartFrom };
	const started = await n8n.rest('POST', `/workflows/${workflowId}/run`, body);
	const executionId = started?.executionId;
	if (!executionId) throw new Error(`no execution started: ${JSON.stringify(started)}`);
	// Polled without its data: a run over thousands of items has megabytes of it.
	await pollUntil(
		`execution ${executionId} of workflow ${workflowId} to finish`,
		async () => Boolean((await n8n.api('GET', `/executions/${executionId}`))?.stoppedAt),
		timeoutMs,
		500,
	);
	return await n8n.api('GET', `/executions/${executionId}?includeData=true`);
}

/** `--rawOutput` prints the document pretty-printed among log lines. */
/**
 * The run `n8n execute --rawOutput` printed: the JSON block holding `data.resultData`. Other
 * blocks a loaded n8n prints around it (a log line's object) are not the run: taken for it, they
 * read as a run whose every node put out nothing.
 */
function parseRawOutput(stdout: string): any {
	const lines = stdout.split('\n');
	for (let start = lines.indexOf('{'); start >= 0; start = lines.indexOf('{', start + 1)) {
		for (let end = lines.lastIndexOf('}'); end > start; end = lines.lastIndexOf('}', end - 1)) {
			try {
				const parsed = JSON.parse(lines.slice(start, end + 1).join('\n'));
				if (parsed?.data?.resultData) return parsed;
			} catch {
				// not this closing line
			}
		}
	}
	return null;
}
