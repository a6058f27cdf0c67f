/**
 * Running workflows: a manual one with `n8n execute --id=<id> --rawOutput` (its start node is a
 * Manual Trigger) or in the server as the editor's "Execute workflow" does, a trigger one by
 * activating it through the public API; their executions read back through the public API.
 */
import { pollUntil } from '../poll';
import { runCli, type CliResult } from './cli';
import type { N8nOptions } from './environment';
import { publicApi, rest, type N8nSession } from './http';
import type { Runtime } from './runtime';

export interface ExecuteResult extends CliResult {
	/** Parsed JSON that `--rawOutput` printed, or the execution read back; null when neither. */
	data: any;
}

/** `n8n execute --id=<id> --rawOutput` and the JSON document it printed. */
async function executeWorkflow(
	runtime: Runtime,
	options: N8nOptions,
	workflowId: string,
): Promise<ExecuteResult> {
	// The CLI prints the run data through its logger at level info: below that it prints nothing.
	const args = ['execute', `--id=${workflowId}`, '--rawOutput'];
	const result = await runCli(runtime, { ...options, logLevel: 'info' }, args);
	return { ...result, data: parseRawOutput(result.stdout) };
}

/**
 * executeWorkflow, and when the run failed (the CLI then prints only an error, no JSON) the new
 * execution read back from the public API instead.
 */
export async function executeAndReadBack(
	runtime: Runtime,
	options: N8nOptions,
	session: N8nSession,
	workflowId: string,
): Promise<ExecuteResult> {
	const before = await listExecutions(session, workflowId, false);
	const known = new Set(before.map((e) => String(e.id)));
	const result = await executeWorkflow(runtime, options, workflowId);
	if (!result.data) {
		const after = await listExecutions(session, workflowId, true);
		const fresh = after.filter((e) => !known.has(String(e.id)));
		if (fresh.length) result.data = fresh.sort((a, b) => Number(b.id) - Number(a.id))[0];
	}
	return result;
}

/** Finds the JSON document `n8n execute --rawOutput` prints among log lines. */
function parseRawOutput(stdout: string): any {
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

/**
 * Runs a saved workflow in the server from its trigger `triggerName`, as the editor's "Execute
 * workflow" button does, and resolves with the finished execution and its data. Needed for nodes
 * that use n8n's modules (the Data Table node): `n8n execute` runs in a CLI process that does not
 * load them. 2.x takes only the trigger's name and runs the saved workflow; 1.x takes the workflow.
 */
export async function runInServer(
	session: N8nSession,
	major: number,
	workflowId: string,
	triggerName: string,
	timeoutMs = 600_000,
): Promise<any> {
	const triggerToStartFrom = { name: triggerName };
	const body =
		major >= 2
			? { triggerToStartFrom }
			: {
					workflowData: await rest(session, 'GET', `/workflows/${workflowId}`),
					triggerToStartFrom,
				};
	const started = await rest(session, 'POST', `/workflows/${workflowId}/run`, body);
	const executionId = started?.executionId;
	if (!executionId) throw new Error(`no execution started: ${JSON.stringify(started)}`);
	// Polled without its data: a run over thousands of items has megabytes of it.
	await pollUntil(
		`execution ${executionId} of workflow ${workflowId} to finish`,
		async () => Boolean((await publicApi(session, 'GET', `/executions/${executionId}`))?.stoppedAt),
		timeoutMs,
		500,
	);
	return await publicApi(session, 'GET', `/executions/${executionId}?includeData=true`);
}

/**
 * Activation is asynchronous in 2.x: the call returns before the trigger's webhook methods have
 * run, so callers poll for the effect.
 */
export async function activateWorkflow(session: N8nSession, workflowId: string): Promise<any> {
	return await publicApi(session, 'POST', `/workflows/${workflowId}/activate`);
}

export async function deactivateWorkflow(session: N8nSession, workflowId: string): Promise<any> {
	return await publicApi(session, 'POST', `/workflows/${workflowId}/deactivate`);
}

/** The workflow's executions (up to 100; one page of the public API). */
export async function listExecutions(
	session: N8nSession,
	workflowId: string,
	includeData = true,
): Promise<any[]> {
	const query = `workflowId=${encodeURIComponent(workflowId)}&includeData=${includeData}&limit=100`;
	const answer = await publicApi(session, 'GET', `/executions?${query}`);
	return answer?.data ?? [];
}

/** Waits until the workflow has more than `count` finished executions; returns them all. */
export async function waitForExecutions(
	session: N8nSession,
	workflowId: string,
	count: number,
	timeoutMs = 60_000,
): Promise<any[]> {
	let finished: any[] = [];
	return await pollUntil(
		() => `more than ${count} executions of workflow ${workflowId} (have ${finished.length})`,
		async () => {
			const all = await listExecutions(session, workflowId);
			finished = all.filter((e) => e.finished || e.stoppedAt);
			return finished.length > count && finished;
		},
		timeoutMs,
		500,
	);
}
