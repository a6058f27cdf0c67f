/**
 * Where an execution ran, from what n8n itself logs in each process. A queue-mode process logs,
 * at level info, "Enqueued execution <id> (job <n>)" where an execution is handed to the queue
 * (main for manual runs, a webhook processor for webhooks) and "Worker started execution <id>
 * (job <n>)" in the worker that runs it.
 */
import type { QueueEnvironment } from '../../scripts/queue';

const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

export function processesThatLogged(
	env: QueueEnvironment,
	executionId: string,
	message: 'Enqueued execution' | 'Worker started execution',
): string[] {
	const line = new RegExp(`${message} ${executionId} \\(job \\d+\\)`);
	// n8n colours its debug-level lines with ANSI escape sequences.
	const logged = env.processGroups().filter((g) => line.test(g.process.log().replace(COLOUR, '')));
	return logged.map((group) => group.name);
}

/** The worker that ran the execution, from the workers' logs; throws unless exactly one did. */
export function workerThatRan(env: QueueEnvironment, executionId: string): string {
	const ran = processesThatLogged(env, executionId, 'Worker started execution');
	if (ran.length !== 1 || !ran[0].startsWith('worker-')) {
		throw new Error(`execution ${executionId} was started by [${ran.join(', ')}], not one worker`);
	}
	return ran[0];
}
