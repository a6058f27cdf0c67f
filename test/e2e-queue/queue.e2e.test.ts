/**
 * n8n (package.json's config.n8nVersion) in queue mode (scripts/queue): main + 2 workers (concurrency 1) + 2 webhook
 * processors behind a load balancer. Where an execution ran is shown from n8n's own records
 * (evidence.ts). One environment for the file: it takes about a minute to start.
 */
import * as path from 'path';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import {
	importCredentials,
	importWorkflows,
	redisCredentialsOf,
	requireRuntime,
	type WorkflowJson,
} from '../../scripts/n8n';
import { QueueEnvironment, requireQueueServices } from '../../scripts/queue';
import { manualRuns } from '../e2e/manual-runs';
import {
	IDS,
	TRIGGER_EARLY_WEBHOOK_ID,
	TRIGGER_WEBHOOK_ID,
	CLAIM,
	exampleCopies,
	sharedWorkflows,
} from '../e2e/workflows';
import { processesThatLogged, workerThatRan } from './evidence';
import { runTwoListings } from './listing';
import { listeners } from './listening';
import { runDir } from './run-dir';
import { CRASH, LISTING_CREDENTIAL, crashWorkflows, listingWorkflow } from './workflows';
import { BURST, burstThenCopies, type Route } from '../e2e/overlap';
import { triggerFlows } from '../e2e/trigger-flows';
import { redisCommand } from '../../scripts/queue/redis';
import { eventBody } from '../trigger/support';
import { expectNowhereIn } from '../helpers/secrets';
import { output, post, runManually, signed, sleep, triggerSteps } from '../e2e/service';

const TAG = Date.now().toString(36);
/** 5 s windows: waiting for the whole-second X-RateLimit-Reset is a small part of each. */
const LISTING = { vendors: 10_000, pageSize: 100, limit: 50, windowSeconds: 5 };
const EXAMPLE03_WEBHOOK_ID = '5f4b2a10-0003-4c1a-9e01-0000000000q3';
const COPIES = exampleCopies('bfQueueExmpl', EXAMPLE03_WEBHOOK_ID);
/** Pairs of simultaneous copies: enough that a claim that is not atomic shows (docs/trigger.md). */
const TWINS = 20;

let env: QueueEnvironment;
let sandbox: RunningSandbox;
let listingSandbox: RunningSandbox;
const endpoints = { trigger: '', edited: '' };

const steps = triggerSteps(
	() => sandbox,
	() => env.main,
);
const { v1, createEndpoint } = steps;

async function startSandboxes(): Promise<WorkflowJson[]> {
	[sandbox, listingSandbox] = await Promise.all([
		// Redelivery soon after a failed attempt; a long attempt timeout, since a retry of a delivery
		// a busy processor answered late could reach the other processor and run again.
		startSandbox({
			seed: 'demo',
			deliveryRetryDelaysMs: [300, 1000, 2000],
			deliveryTimeoutMs: 30_000,
		}),
		// Its own key: the package keeps rate-limit state per key, and the demo sandbox's default
		// key has a 60-second window of its own.
		startSandbox({
			seed: 'none',
			apiKey: 'svc_queue_listing_key',
			rateLimit: LISTING.limit,
			rateWindowSeconds: LISTING.windowSeconds,
		}),
	]);
	await listingSandbox.admin.seedVendors(LISTING.vendors);
	const shared = await sharedWorkflows(TAG, COPIES, createEndpoint);
	Object.assign(endpoints, shared.endpoints);
	return shared.workflows;
}

beforeAll(async () => {
	const shared = await startSandboxes();
	const dir = path.join(runDir(), 'environment');
	env = await QueueEnvironment.start(requireRuntime(), requireQueueServices(), { dir });
	await env.main.setupOwner();
	const cli = env.cliOptions();
	const workflows = [...shared, listingWorkflow(), ...crashWorkflows()];
	await importCredentials(env.main.runtime, cli, [
		{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
		{ ...LISTING_CREDENTIAL, apiKey: listingSandbox.apiKey, baseUrl: listingSandbox.baseUrl },
		// example 03's claim, on the queue's own Redis (its keys do not clash with Bull's)
		...redisCredentialsOf(workflows, env.settings.redisPort),
	]);
	await importWorkflows(env.main.runtime, cli, workflows);
}, 600_000);

afterAll(async () => {
	await env?.stop();
	await Promise.all([sandbox?.close(), listingSandbox?.close()]);
});

describe('the queue-mode environment', () => {
	it('runs Redis, PostgreSQL 17, main, 2 workers and 2 webhook processors, listening on loopback only', () => {
		const groups = env.processGroups();
		expect(groups.map((g) => g.name)).toEqual([
			'redis',
			'postgres',
			'main',
			'worker-1',
			'worker-2',
			'webhook-1',
			'webhook-2',
		]);
		expect(groups.every((g) => g.process.running())).toBe(true);
		const found = listeners(groups.map((g) => g.process.child.pid!));
		const n8nPorts = [...env.workers, ...env.webhookProcessors].map((p) => p.port);
		const { redisPort, postgres } = env.settings;
		const ports = [redisPort, postgres.port, env.main.options.port, ...n8nPorts];
		expect(found.map((l) => l.port)).toEqual(expect.arrayContaining(ports));
		const loopback = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
		expect(found.filter((l) => !loopback.test(l.address))).toEqual([]);
		expect(groups[1].process.log()).toMatch(/starting PostgreSQL 17\./);
		expect(env.main.log()).not.toMatch(
			/Postgres \d+ is (not supported|outside the supported range)/,
		);
	});
});

describe('workflows run on the workers, started from main', () => {
	/** One workflow per resource and the examples that run without third-party accounts. */
	const runs = manualRuns(TAG, COPIES);
	const executions: Record<string, any> = {};

	beforeAll(async () => {
		// All at once, as the editor's Execute button would start them: main queues them all
		// (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS).
		const started = Object.entries(runs).map(async ([name, { workflowId }]) => {
			executions[name] = await runManually(env.main, workflowId);
		});
		await Promise.all(started);
	}, 300_000);

	it.each(Object.keys(runs))('%s: queued by main, run by one worker, did its work', (name) => {
		const execution = executions[name];
		expect(execution.data.resultData.error?.message).toBeUndefined();
		expect(execution).toMatchObject({ status: 'success', mode: 'manual' });
		expect(processesThatLogged(env, String(execution.id), 'Enqueued execution')).toEqual(['main']);
		expect(workerThatRan(env, String(execution.id))).toMatch(/^worker-[12]$/);
		runs[name].check(execution, env.main.runtime.major);
	});

	it('both workers took part (each runs one job at a time)', () => {
		const workers = Object.values(executions).map((e) => workerThatRan(env, String(e.id)));
		expect(new Set(workers)).toEqual(new Set(['worker-1', 'worker-2']));
	});
});

describe('the trigger: activated by main, served by the webhook processors, run by the workers', () => {
	const hookPath = `webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
	triggerFlows({
		sandbox: () => sandbox,
		n8n: () => env.main,
		endpointId: () => endpoints.trigger,
		pointedAt: () => `${env.loadBalancer.url}/${hookPath}`,
		servedAt: () => env.webhookProcessors.map((p) => `http://127.0.0.1:${p.port}/${hookPath}`),
		// Main does not serve production webhooks itself (N8N_DISABLE_PRODUCTION_MAIN_PROCESS).
		activated: async () =>
			expect((await post(`${env.main.baseUrl}/${hookPath}`, '{}')).status).toBe(404),
		// one webhook processor queued it (the one the balancer sent the delivery to), one worker ran it
		ran: (run) => {
			const delivery = env.loadBalancer.routed.filter((r) => r.path === `/${hookPath}`).at(-1);
			expect(delivery).toMatchObject({ path: `/${hookPath}`, status: 200 });
			const processor = env.webhookProcessors[delivery!.target].name;
			expect(processesThatLogged(env, String(run.id), 'Enqueued execution')).toEqual([processor]);
			expect(workerThatRan(env, String(run.id))).toMatch(/^worker-[12]$/);
		},
	});
});

describe('a delivery that reaches a webhook processor while main is still activating', () => {
	const hookPath = `/webhook/${TRIGGER_EARLY_WEBHOOK_ID}/webhook`;

	it('is refused with 401 (that processor has no endpoint recorded yet); the service’s retry after activation runs once, on a worker', async () => {
		const { activation, endpointId, secret } = await steps.activateHeld(IDS.triggerEarly);
		const body = eventBody('vendor.created', { id: 'vnd_queue_early', name: 'Early vendor' });
		const deliver = () =>
			post(`${env.loadBalancer.url}${hookPath}`, body, signed(body, `msg_q_early_${TAG}`, secret));
		const early = await deliver();
		await activation;
		expect((await sandbox.admin.clearFaults()).cleared).toBe(0); // the trigger's fetch took it
		// n8n registers the webhook before it runs the trigger's activation, so the processor serves
		// the path; the trigger there has no endpoint recorded yet, hence no secret to verify with.
		expect(early.status).toBe(401);

		const retry = await env.main.waitFor('the retry to be accepted', async () => {
			const answer = await deliver();
			return answer.status === 200 && answer;
		});
		expect(retry.status).toBe(200);
		const [execution] = await env.main.waitForExecutions(IDS.triggerEarly, 0, 60_000);
		expect(output(execution, 'On vendor created')).toEqual([
			expect.objectContaining({ id: JSON.parse(body).id }),
		]);
		expect(workerThatRan(env, String(execution.id))).toMatch(/^worker-[12]$/);
		await sleep(2000);
		expect(await env.main.executions(IDS.triggerEarly, false)).toHaveLength(1);
		await env.main.deactivate(IDS.triggerEarly);
		await steps.endpointDeleted(endpointId);
	});
});

describe('example 03’s claim (Redis Increment) across the two webhook processors and two workers', () => {
	const workflowId = COPIES.example03.id;
	const hookPath = `webhook/${EXAMPLE03_WEBHOOK_ID}/webhook`;
	const processorUrls = () =>
		env.webhookProcessors.map((p) => `http://127.0.0.1:${p.port}/${hookPath}`);
	let endpoint = { id: '', secret: '' };

	beforeAll(async () => {
		endpoint = await activateWithEndpoint(workflowId);
	}, 120_000);

	afterAll(async () => {
		await env.main.deactivate(workflowId);
		await steps.endpointDeleted(endpoint.id);
	}, 120_000);

	it('a delivery answered by one processor and its retry (same webhook-id, new signature) sent to the other: both accepted, the steps after the claim run once', async () => {
		const body = eventBody('receivable.paid', { id: `rcv_q_dedupe_${TAG}`, status: 'paid' });
		const webhookId = `msg_q_dedupe_${TAG}`;
		const [first, other] = processorUrls();
		const before = (await env.main.executions(workflowId, false)).length;
		await accepted(first, body, webhookId, endpoint.secret);
		await sleep(1100); // a later webhook-timestamp, so a new signature, as a service's retry has
		await accepted(other, body, webhookId, endpoint.secret);
		const runs = (await env.main.waitForExecutions(workflowId, before + 1, 60_000))
			.filter((run) => output(run, 'Receivable paid')[0]?.id === JSON.parse(body).id)
			.sort((a, b) => Number(a.id) - Number(b.id));
		expect(runs.map((run) => run.status)).toEqual(['success', 'success']);
		// each processor queued its own (its trigger knows only the deliveries it answered)
		const queuedBy = runs.map((run) =>
			processesThatLogged(env, String(run.id), 'Enqueued execution'),
		);
		expect(queuedBy.flat().sort()).toEqual(['webhook-1', 'webhook-2']);
		expect(runs.map((run) => output(run, CLAIM.gate).length)).toEqual([1, 0]);
		expect(runs.map((run) => output(run, 'Post to Slack').length)).toEqual([1, 0]);
	});

	it(`${TWINS} times two copies at the same moment, one to each processor: one of each pair goes past the claim`, async () => {
		const [first, other] = processorUrls();
		const twins = Array.from({ length: TWINS }, (_, i) =>
			eventBody('receivable.paid', { id: `rcv_q_twin_${i}_${TAG}`, status: 'paid' }),
		);
		const before = (await env.main.executions(workflowId, false)).length;
		for (const [i, twin] of twins.entries()) {
			const headers = signed(twin, `msg_q_twin_${i}_${TAG}`, endpoint.secret);
			const answers = await Promise.all([first, other].map((url) => post(url, twin, headers)));
			expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		}
		const all = await env.main.waitForExecutions(workflowId, before + 2 * TWINS - 1, 120_000);
		const ids = twins.map((twin) => JSON.parse(twin).id);
		const runsOf = (id: string) =>
			all.filter((run) => output(run, 'Receivable paid')[0]?.id === id);
		const passed = ids.map((id) => runsOf(id).map((run) => output(run, CLAIM.gate).length));
		const workers = new Set(ids.flatMap(runsOf).map((run) => workerThatRan(env, String(run.id))));
		expect(workers).toEqual(new Set(['worker-1', 'worker-2']));
		expect(passed.map((runs) => [runs.length, runs.reduce((a, b) => a + b, 0)])).toEqual(
			ids.map(() => [2, 1]),
		);
	}, 300_000);

	it(`a burst of ${BURST.events} spread over both processors, then a copy of each (new webhook-id) sent to the other one: each event runs twice and goes past the claim once`, async () => {
		const urls = processorUrls();
		const route: Route = (phase, i) => urls[(i + (phase === 'copy' ? 1 : 0)) % 2];
		const prefix = `q_burst_${TAG}`;
		const workflow = { id: workflowId, trigger: 'Receivable paid' };
		const outcome = await burstThenCopies(env.main, workflow, endpoint.secret, prefix, route);
		expect(outcome.refused).toEqual({ burst: [], copy: [] });
		expect(outcome.failed).toEqual([]);
		expect(outcome.perEvent.size).toBe(BURST.events);
		const counts = [...outcome.perEvent.values()];
		expect(counts.filter((c) => c.runs !== 2 || c.passed !== 1)).toEqual([]);
	}, 900_000);
});

describe('two listings at once on one key, on two workers (the rate limit is per process)', () => {
	it('each returns every vendor once, with the fewest page requests and at most one 429 per window per worker', async () => {
		const rate = { limit: LISTING.limit, windowSeconds: LISTING.windowSeconds };
		const { executions, workers, vendors, figures } = await runTwoListings(
			env,
			listingSandbox,
			rate,
		);
		console.log(`queue-mode listing: ${JSON.stringify(figures, null, 1)}`);
		expect((await listingSandbox.admin.getStats()).counts.vendors).toBe(LISTING.vendors);
		expect(executions.map((e) => e.status)).toEqual(['success', 'success']);
		for (const listed of vendors) {
			expect(listed).toHaveLength(LISTING.vendors);
			expect(new Set(listed.map((v) => v.id)).size).toBe(LISTING.vendors);
		}
		expect(new Set(workers).size).toBe(2);
		expect(figures.overlapMs).toBeGreaterThan(0);
		expect(figures.pageRequests).toBe(2 * Math.ceil(LISTING.vendors / LISTING.pageSize));
		expect(figures.throttled).toBeLessThanOrEqual(2 * figures.windows);
	});
});

/** Accepted once that processor knows the endpoint main recorded (a 401 before is not remembered). */
const accepted = (url: string, body: string, webhookId: string, secret: string) =>
	env.main.waitFor(
		`a delivery accepted by ${url}`,
		async () => {
			const answer = await post(url, body, signed(body, webhookId, secret));
			return answer.status === 200 && answer;
		},
		90_000,
	);

async function activateWithEndpoint(workflowId: string): Promise<{ id: string; secret: string }> {
	await sandbox.admin.clearRequests();
	await env.main.activate(workflowId);
	const id = await steps.createdEndpointId();
	return { id, secret: (await v1('GET', `/webhooks/${id}/secret`)).body.data.secret };
}

/**
 * Measured, not a guarantee: what n8n 2.x (2.40.7, 2.41.1) does when a worker dies mid-run (docs/trigger.md,
 * "Exactly once, per setup"). The service was answered on receipt, so it does not deliver again.
 */
describe('a worker killed during a run', () => {
	it('the job is found stalled and not run again; the webhook processor that queued it records the run as failed without its data (saved progress included) and starts the Error Workflow; Retry cannot bring the event back; the claim stays until released, then a replay runs once', async () => {
		const endpoint = await activateWithEndpoint(CRASH.workflowId);
		await env.main.activate(CRASH.errorWorkflowId); // 2.x runs only a published Error Workflow
		const body = eventBody('receivable.paid', { id: `rcv_q_crash_${TAG}`, status: 'paid' });
		const hook = `${env.loadBalancer.url}/webhook/${CRASH.webhookId}/webhook`;
		await accepted(hook, body, `msg_q_crash_${TAG}`, endpoint.secret);
		const run = await env.main.waitFor(
			'the run to have saved its claim',
			async () => {
				const [latest] = await env.main.executions(CRASH.workflowId);
				return latest && output(latest, CLAIM.gate).length === 1 && latest;
			},
			60_000,
		);
		expect(run.status).toBe('running');
		const killedAt = Date.now();
		await env.kill(workerThatRan(env, String(run.id)));
		const statuses = new Set<string>();
		const failed = await env.main.waitFor(
			'the run to be recorded failed',
			async () => {
				const now = await env.main.api('GET', `/executions/${run.id}?includeData=true`);
				if (now?.stoppedAt) statuses.add(now.status);
				return now?.stoppedAt && now.status === 'error' ? now : undefined;
			},
			180_000,
		);
		const seconds = Math.round((Date.now() - killedAt) / 1000);
		console.log(`a run whose worker was killed: recorded ${[...statuses]} ${seconds} s later`);
		// 2.41.1 first shows it crashed, with the worker's saved progress; then, like 2.40.7, failed
		// with none (measured: "crashed,error" 35 s after the kill)
		const stalled = /failed to be processed too many times and will no longer retry/;
		expect(failed.data.resultData.error.message).toMatch(stalled);
		expect(failed.data.resultData.runData).toEqual({});
		expect(processesThatLogged(env, String(run.id), 'Enqueued execution')).toEqual([
			expect.stringMatching(/^webhook-[12]$/),
		]);
		const [told] = await env.main.waitForExecutions(CRASH.errorWorkflowId, 0, 60_000);
		expect(output(told, 'Error Trigger')).toEqual([
			expect.objectContaining({
				execution: expect.objectContaining({
					id: String(run.id),
					error: expect.objectContaining({ message: expect.stringMatching(stalled) }),
				}),
			}),
		]);
		expect(await env.main.executions(CRASH.workflowId, false)).toHaveLength(1);

		await env.main.rest('POST', `/executions/${run.id}/retry`, { loadWorkflow: false });
		const retried = await env.main.waitFor(
			'the retry to finish',
			async () => {
				const runs = await env.main.executions(CRASH.workflowId);
				return runs.find((r) => r.mode === 'retry' && r.stoppedAt);
			},
			120_000,
		);
		expect(retried.status).toBe('error');
		expect(output(retried, CRASH.handled)).toEqual([]);

		// The claim outlived the run: a replay of the event (a new webhook-id) stops at it...
		const key = `bf-event:${JSON.parse(body).id}`;
		expect(await redisCommand(env.settings.redisPort, ['GET', key])).toBe('1');
		const replay = async (label: string) => {
			const count = (await env.main.executions(CRASH.workflowId, false)).length;
			await accepted(hook, body, `msg_q_crash_${label}_${TAG}`, endpoint.secret);
			const runs = await env.main.waitForExecutions(CRASH.workflowId, count, 90_000);
			return runs.reduce((a, b) => (Number(b.id) > Number(a.id) ? b : a));
		};
		const stopped = await replay('copy');
		expect([stopped.status, output(stopped, CLAIM.gate), output(stopped, CRASH.handled)]).toEqual([
			'success',
			[],
			[],
		]);
		// ...until the claim is released (docs/trigger.md): then the replay is handled, once
		expect(await redisCommand(env.settings.redisPort, ['DEL', key])).toBe(1);
		const handled = await replay('released');
		expect([handled.status, output(handled, CRASH.handled).length]).toEqual(['success', 1]);
		await env.main.deactivate(CRASH.workflowId);
		await steps.endpointDeleted(endpoint.id);
	}, 400_000);
});

describe('Redis stopped while a delivery arrives (example 03)', () => {
	const workflowId = COPIES.example03.id;
	const hook = () =>
		`http://127.0.0.1:${env.webhookProcessors[0].port}/webhook/${EXAMPLE03_WEBHOOK_ID}/webhook`;
	const paid = (label: string) =>
		eventBody('receivable.paid', { id: `rcv_q_redis_${label}_${TAG}`, status: 'paid' });
	let endpoint = { id: '', secret: '' };
	const runningN8n = () =>
		env
			.processGroups()
			.filter((g) => !['redis', 'postgres'].includes(g.name) && g.process.running())
			.map((g) => g.name);

	beforeAll(async () => {
		endpoint = await activateWithEndpoint(workflowId);
		const before = (await env.main.executions(workflowId, false)).length;
		const warm = paid('warm');
		await accepted(hook(), warm, `msg_q_redis_warm_${TAG}`, endpoint.secret);
		await env.main.waitForExecutions(workflowId, before, 60_000);
	}, 200_000);

	it('for 4 s (under n8n’s 10 s): the delivery is answered once Redis is back, and runs once', async () => {
		const before = (await env.main.executions(workflowId, false)).length;
		const body = paid('short');
		const running = runningN8n();
		const restartRedis = await env.stopRedis();
		const sent = Date.now();
		const answer = post(hook(), body, signed(body, `msg_q_redis_short_${TAG}`, endpoint.secret));
		await sleep(4000);
		await restartRedis();
		const { status } = await answer;
		const waitedMs = Date.now() - sent;
		console.log(`a delivery while Redis was down for 4 s: answered ${status} after ${waitedMs} ms`);
		expect(status).toBe(200);
		expect(waitedMs).toBeGreaterThanOrEqual(4000);
		const runs = (await env.main.waitForExecutions(workflowId, before, 60_000)).filter(
			(run) => output(run, 'Receivable paid')[0]?.id === JSON.parse(body).id,
		);
		expect(runs.map((run) => [run.status, output(run, 'Post to Slack').length])).toEqual([
			['success', 1],
		]);
		expect(runningN8n()).toEqual(running);
	});

	it('for longer than 10 s: every n8n process exits and the delivery is not accepted; started again, the service’s retry runs once', async () => {
		const body = paid('long');
		const webhookId = `msg_q_redis_long_${TAG}`;
		const running = runningN8n();
		const restartRedis = await env.stopRedis();
		const answer = post(hook(), body, signed(body, webhookId, endpoint.secret)).then(
			(a) => `answered ${a.status}`,
			(error) => `no answer (${(error as Error).cause ?? error})`,
		);
		const exited = () => env.processGroups().filter((g) => running.includes(g.name));
		await env.main.waitFor(
			'every n8n process to exit',
			async () => exited().every((g) => !g.process.running()),
			60_000,
		);
		const outcome = await answer;
		console.log(`a delivery while Redis was down past n8n's threshold: ${outcome}`);
		expect(outcome).not.toMatch(/answered 2\d\d/);
		for (const g of exited())
			expect(g.process.log()).toMatch(/Exiting process due to Redis connection error/);

		await restartRedis();
		expect((await env.restartStopped()).sort()).toEqual([
			'main',
			'webhook-1',
			'webhook-2',
			'worker-1',
			'worker-2',
		]);
		await env.main.setupOwner();
		await accepted(hook(), body, webhookId, endpoint.secret);
		const all = await env.main.waitFor(
			'the retry’s run',
			async () => {
				const runs = await env.main.executions(workflowId);
				const mine = runs.filter(
					(run) => output(run, 'Receivable paid')[0]?.id === JSON.parse(body).id,
				);
				return mine.some((run) => run.stoppedAt && run.status !== 'crashed') && mine;
			},
			90_000,
		);
		const summary = all.map((run: any) => [run.status, output(run, 'Post to Slack').length]);
		console.log(`the event's runs after n8n came back: ${JSON.stringify(summary)}`);
		expect(summary.filter(([status]: any) => status === 'success')).toEqual([['success', 1]]);
		await env.main.deactivate(workflowId);
		await steps.endpointDeleted(endpoint.id);
	}, 600_000);
});

describe('secrets', () => {
	it('no process logs the API key, a signing secret or the encryption key', async () => {
		const secrets = [sandbox.apiKey, listingSandbox.apiKey, env.settings.encryptionKey];
		for (const id of Object.values(endpoints)) {
			const secret = (await v1('GET', `/webhooks/${id}/secret`)).body.data.secret as string;
			secrets.push(secret, secret.slice('whsec_'.length));
		}
		for (const { name, process: group } of env.processGroups()) {
			const log = group.log();
			expect(log.length).toBeGreaterThan(0);
			expectNowhereIn(`${name}:\n${log}`, ...secrets);
		}
	});
});
