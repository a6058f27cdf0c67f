/**
 * Each event once while runs overlap (docs/trigger.md, "Exactly once, per setup"): a burst of
 * distinct events, then a copy of each under a new webhook-id, which is what a retry that reaches
 * another webhook processor, or n8n after a restart, looks like to the trigger. Run by test/e2e
 * (one process) and test/e2e-queue (a burst spread over both webhook processors).
 */
import type { N8nServer } from '../../scripts/n8n';
import { send, signedDeliveries, type Delivery } from '../helpers/deliveries';
import { output } from './service';
import { CLAIM } from './workflows';

export const BURST = { events: 100, concurrency: 20 };

/** Where delivery `index` of a phase goes. */
export type Route = (phase: 'burst' | 'copy', index: number) => string;

export interface OverlapOutcome {
	/** Answers other than 200, per phase. */
	refused: { burst: number[]; copy: number[] };
	/** Per event id: how many runs it started, and how many went past the claim. */
	perEvent: Map<string, { runs: number; passed: number }>;
	/** The runs that did not succeed, with their first error. */
	failed: Array<{ id: string; status: string; error?: string }>;
}

export async function burstThenCopies(
	n8n: N8nServer,
	workflow: { id: string; trigger: string },
	secret: string,
	prefix: string,
	route: Route,
): Promise<OverlapOutcome> {
	const start = await finishedRuns(n8n, workflow.id);
	const phases = { burst: [] as number[], copy: [] as number[] };
	for (const [phase, copy] of [['burst', ''] as const, ['copy', '_copy'] as const]) {
		const deliveries = signedDeliveries(secret, prefix, BURST.events, copy);
		const statuses = await sendRouted(deliveries, (index) => route(phase, index));
		phases[phase] = statuses.filter((status) => status !== 200);
		const expected = start + BURST.events * (phase === 'burst' ? 1 : 2);
		await n8n.waitFor(
			`${expected} finished runs of ${workflow.id}`,
			async () => (await finishedRuns(n8n, workflow.id)) >= expected,
			240_000,
		);
	}
	const runs = (await n8n.executions(workflow.id)).filter((run) =>
		String(output(run, workflow.trigger)[0]?.id ?? '').startsWith(`evt_${prefix}_`),
	);
	const perEvent = new Map<string, { runs: number; passed: number }>();
	for (const run of runs) {
		const id = output(run, workflow.trigger)[0].id;
		const seen = perEvent.get(id) ?? { runs: 0, passed: 0 };
		perEvent.set(id, { runs: seen.runs + 1, passed: seen.passed + output(run, CLAIM.gate).length });
	}
	const failed = runs
		.filter((run) => run.status !== 'success')
		.map((run) => ({
			id: String(run.id),
			status: run.status,
			error: run.data?.resultData?.error?.message,
		}));
	return { refused: phases, perEvent, failed };
}

const finishedRuns = async (n8n: N8nServer, workflowId: string) =>
	(await n8n.executions(workflowId, false)).filter((run) => run.stoppedAt).length;

/** Sends each group of deliveries to its URL, all groups at once, BURST.concurrency in all. */
async function sendRouted(deliveries: Delivery[], urlOf: (index: number) => string) {
	const groups = new Map<string, Delivery[]>();
	deliveries.forEach((delivery, index) => {
		const url = urlOf(index);
		groups.set(url, [...(groups.get(url) ?? []), delivery]);
	});
	const concurrency = Math.max(1, Math.floor(BURST.concurrency / groups.size));
	const answers = await Promise.all(
		[...groups].map(([url, group]) => send(url, group, concurrency)),
	);
	return answers.flat().map((answer) => answer.status);
}
