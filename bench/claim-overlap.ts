// `npm run bench -- overlap` (docs/benchmarks.md, "Each event once while runs overlap"): a burst of
// distinct events at concurrency 20, then a copy of each with a new webhook-id (what a retry at
// another webhook processor, or after a restart, looks like to the trigger), through two recipes
// in one n8n: n8n's Remove Duplicates, and a claim with n8n's Redis node (Increment, atomic).
import { setTimeout as sleep } from 'timers/promises';
import type { N8nServer, WorkflowJson } from '../scripts/n8n';
import { pollUntil } from '../scripts/poll';
import { CLAIM, chain, exampleClaimNodes, trigger } from '../test/e2e/workflows';
import { send, signedDeliveries } from '../test/helpers/deliveries';
import { printMarkdownTable, type Outcome } from './common';
import {
	createEndpoint,
	removeDuplicatesNode,
	reportRun,
	startN8nFor,
	stepMs,
	triggerUrl,
	untilEndpointPointsAt,
	withSandboxAndCollector,
	type Collector,
} from './trigger-burst';

const EVENTS = Math.min(100, Number(process.env.BENCH_OVERLAP_N ?? 100)); // settle(): at most 100
const CONCURRENCY = Number(process.env.BENCH_OVERLAP_CONCURRENCY ?? 20);
const CLAIM_NODE = CLAIM.count; // the step whose time is reported, in both recipes

interface Recipe {
	name: string;
	webhookId: string;
	/** The nodes between the trigger and the step that reports a run. */
	steps: () => Array<Record<string, any>>;
}

const RECIPES: Recipe[] = [
	{
		name: 'removeDuplicates',
		webhookId: '8c2d4e61-5555-4c1a-9e01-00000000d0d1',
		steps: () => [removeDuplicatesNode(CLAIM_NODE)],
	},
	{
		name: 'redisClaim',
		webhookId: '8c2d4e61-5555-4c1a-9e01-00000000d0d2',
		steps: exampleClaimNodes, // example 03's, with its Redis credential
	},
];

function workflowOf(recipe: Recipe, endpointId: string, collector: Collector): WorkflowJson {
	const start = trigger('Receivable paid', recipe.webhookId, {
		webhookEndpointId: endpointId,
		events: ['receivable.paid'],
	});
	const report = reportRun(collector.url, recipe.name, "={{ $('Receivable paid').item.json.id }}");
	const id = `bfOverlap${recipe.name.slice(0, 7)}`;
	return chain(id, `bench: ${recipe.name}`, [start, ...recipe.steps(), report]);
}

/**
 * Waits until n8n has finished a run for each delivery of the phase that began at `sinceMs` (1.x
 * answers before it creates the run, so the answers alone do not say so), then 3 s more for the
 * last reports. n8n's list gives the newest 100 runs: hence at most 100 events.
 */
async function settle(n8n: N8nServer, workflowId: string, sinceMs: number): Promise<void> {
	await pollUntil(
		`${EVENTS} finished runs of ${workflowId}`,
		async () => {
			const runs = await n8n.executions(workflowId, false);
			const ofPhase = runs.filter((run) => Date.parse(run.startedAt) >= sinceMs - 1000);
			return ofPhase.filter((run) => run.stoppedAt).length >= EVENTS;
		},
		180_000,
		500,
	);
	await sleep(3000);
}

/** The phase's runs (the newest EVENTS) that did not succeed, and the first error message among them. */
async function failures(n8n: N8nServer, workflowId: string) {
	const failed = (await n8n.executions(workflowId, true, EVENTS)).filter(
		(run) => run.status !== 'success',
	);
	const message: string | undefined = failed
		.map((run) => run.data?.resultData?.error?.message)
		.find(Boolean);
	return { failed: failed.length, message };
}

type RecipeResult = Awaited<ReturnType<typeof measureRecipe>>;

async function measureRecipe(
	n8n: N8nServer,
	collector: Collector,
	recipe: Recipe,
	workflowId: string,
	secret: string,
) {
	const url = triggerUrl(n8n.baseUrl, recipe.webhookId);
	const tag = Date.now().toString(36);
	const passes = () =>
		[...collector.runs.entries()].filter(([key]) => key.startsWith(`${recipe.name}:`));
	const burstSent = Date.now();
	const prefix = `${tag}_${recipe.name}`;
	const burst = await send(url, signedDeliveries(secret, prefix, EVENTS), CONCURRENCY);
	await settle(n8n, workflowId, burstSent);
	const burstRunsFailed = await failures(n8n, workflowId);
	const afterBurst = passes().map(([, times]) => times.length);
	const copiesSent = Date.now();
	const copies = await send(url, signedDeliveries(secret, prefix, EVENTS, '_copy'), CONCURRENCY);
	await settle(n8n, workflowId, copiesSent);
	const copyRunsFailed = await failures(n8n, workflowId);
	const afterCopies = passes().reduce((sum, [, times]) => sum + times.length, 0);
	return {
		recipe: recipe.name,
		burstAnswered200: burst.filter((a) => a.status === 200).length,
		burstRunsFailed,
		copyRunsFailed,
		eventsRunOnce: afterBurst.filter((n) => n === 1).length,
		eventsRunTwice: afterBurst.filter((n) => n > 1).length,
		copiesAnswered200: copies.filter((a) => a.status === 200).length,
		copiesPassed: afterCopies - afterBurst.reduce((a, b) => a + b, 0),
		claimStepMs: await stepMs(n8n, workflowId, CLAIM_NODE),
	};
}

export async function runClaimOverlap(): Promise<Outcome> {
	return await withSandboxAndCollector(async (sb, collector) => {
		const endpoints = await Promise.all(RECIPES.map(() => createEndpoint(sb)));
		const workflows = RECIPES.map((r, i) => workflowOf(r, endpoints[i].id, collector));
		const env = await startN8nFor(sb, workflows, true);
		try {
			const { n8n, runtime } = env;
			const results: RecipeResult[] = [];
			for (const [i, recipe] of RECIPES.entries()) {
				const workflowId = workflows[i].id!;
				const { id, secret } = endpoints[i];
				await n8n.activate(workflowId);
				await untilEndpointPointsAt(sb, id, triggerUrl(n8n.baseUrl, recipe.webhookId));
				results.push(await measureRecipe(n8n, collector, recipe, workflowId, secret));
			}
			report(results, runtime.version);
			return {
				file: `claim-overlap-${runtime.version}.json`,
				record: { settings: { events: EVENTS, concurrency: CONCURRENCY }, results },
			};
		} finally {
			await env.stop();
		}
	});
}

function report(results: RecipeResult[], version: string): void {
	console.log(
		`\nn8n ${version}: ${EVENTS} distinct events at concurrency ${CONCURRENCY}, then a copy of each with a new webhook-id`,
	);
	const head = ['recipe', 'burst: each once', 'burst: twice', 'burst: runs failed'];
	head.push('copies that passed', 'copies: runs failed', 'claim step p50 / p90 ms');
	printMarkdownTable(
		head,
		results.map((r) => [
			r.recipe,
			`${r.eventsRunOnce} of ${EVENTS}`,
			String(r.eventsRunTwice),
			String(r.burstRunsFailed.failed),
			`${r.copiesPassed} of ${EVENTS}`,
			String(r.copyRunsFailed.failed),
			`${r.claimStepMs.p50} / ${r.claimStepMs.p90}`,
		]),
	);
	for (const r of results) {
		for (const [phase, f] of [
			['burst', r.burstRunsFailed],
			['copies', r.copyRunsFailed],
		] as const) {
			if (f.message) console.log(`${r.recipe}, ${phase}: a failed run says "${f.message}"`);
		}
	}
}
