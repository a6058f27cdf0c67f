/**
 * What n8n itself records about where an execution ran: its execution records (public API) and
 * the processes' logs. A queue-mode process logs, at level info, "Enqueued execution <id> (job
 * <n>)" where an execution is handed to the queue (main for manual runs, a webhook processor for
 * webhooks) and "Worker started execution <id> (job <n>)" in the worker that runs it.
 */
import type { N8nServer } from '../../scripts/n8n';
import { pollUntil } from '../../scripts/poll';
import type { QueueEnvironment } from '../../scripts/queue';

/**
 * Starts a workflow as the editor's "Execute workflow" button does (from its Manual Trigger);
 * main hands it to a worker (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS). Returns the execution id.
 */
export async function startManualRun(main: N8nServer, workflowId: string): Promise<string> {
	const workflow = await main.api('GET', `/workflows/${workflowId}`);
	const start = workflow.nodes.find((n: any) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!start) throw new Error(`workflow ${workflowId} has no Manual Trigger`);
	const answer = await main.rest('POST', `/workflows/${workflowId}/run`, {
		triggerToStartFrom: { name: start.name },
	});
	if (!answer?.executionId) throw new Error(`run answered ${JSON.stringify(answer)}`);
	return String(answer.executionId);
}

/** The execution with its data, once it has stopped. */
export async function finishedExecution(
	main: N8nServer,
	executionId: string,
	timeoutMs = 120_000,
): Promise<any> {
	return await pollUntil(
		`execution ${executionId} to finish`,
		async () => {
			const execution = await main.api('GET', `/executions/${executionId}?includeData=true`);
			const done = Boolean(execution.stoppedAt) && !['new', 'running'].includes(execution.status);
			return done ? execution : undefined;
		},
		timeoutMs,
		300,
	);
}

/** Names of the processes whose log says `message` about this execution ("Enqueued", ...). */
export function processesThatLogged(
	env: QueueEnvironment,
	executionId: string,
	message: 'Enqueued execution' | 'Worker started execution',
): string[] {
	const line = new RegExp(`${message} ${executionId} \\(job \\d+\\)`);
	return logNames(env).filter((name) => line.test(plain(env.log(name))));
}

/** The worker that ran the execution, from the workers' logs; throws unless exactly one did. */
export function workerThatRan(env: QueueEnvironment, executionId: string): string {
	const ran = processesThatLogged(env, executionId, 'Worker started execution');
	if (ran.length !== 1 || !ran[0].startsWith('worker-')) {
		throw new Error(`execution ${executionId} was started by [${ran.join(', ')}], not one worker`);
	}
	return ran[0];
}

export function logNames(env: QueueEnvironment): string[] {
	return env.processGroups().map((group) => group.name);
}

/** n8n colours its debug-level lines with ANSI escape sequences. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function plain(text: string): string {
	return text.replace(COLOUR, '');
}
