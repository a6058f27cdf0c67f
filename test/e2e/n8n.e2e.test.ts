/**
 * The package in a real n8n (where 2.x and 1.x differ the test says so, see docs/n8n-notes.md).
 * One n8n for the whole file (start-up costs 30-60 s); everything is imported in one CLI run.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { N8nServer, loadExamples, type ExecuteResult, type Runtime } from '../../scripts/n8n';
import { holdDatabaseWriteLock } from './database-lock';
import { startN8nWithPackage, type PackageInN8n } from './environment';
import { manualRuns, rowNumbers } from './manual-runs';
import { BURST, burstThenCopies } from './overlap';
import { triggerFlows } from './trigger-flows';
import { redisCommand } from '../../scripts/queue/redis';
import {
	CLAIM,
	IDS,
	POLLING_NODES,
	TRIGGER_EARLY_WEBHOOK_ID,
	TRIGGER_WEBHOOK_ID,
	exampleCopies,
	exampleCopy,
	nodeNamed,
	pollTimes,
	pollingWorkflow,
	restartPollingWorkflows,
	sharedWorkflows,
} from './workflows';
import { eventBody } from '../trigger/support';
import { expectNowhereIn } from '../helpers/secrets';
import { addCryptoVendor, allVendors, output, post, signed, sleep, triggerSteps } from './service';

const TAG = Date.now().toString(36);

const EXAMPLE03_COPY_WEBHOOK_ID = '5f4b2a10-0003-4c1a-9e01-00000000e2e3';
const COPIES = exampleCopies('bfE2eExample', EXAMPLE03_COPY_WEBHOOK_ID);
const EXAMPLE01B_SHEETS = exampleCopy(
	'01b-sync-vendors-to-google-sheets.json',
	'bfE2eExample01bG',
	{ manualStart: true },
);
/** Example 02 after the user deleted its two invalid rows, as its notes suggest. */
const EXAMPLE02_FIXED = (() => {
	const copy = exampleCopy('02-create-and-send-receivables.json', 'bfE2eExample02Ok', {});
	copy.name = `${copy.name} (invalid rows deleted)`;
	const rows = nodeNamed(copy, 'Incoming rows');
	rows.parameters.jsCode = rows.parameters.jsCode.replace(/^.*-[23]`.*\n/gm, '');
	return copy;
})();
const RESTART_POLL = restartPollingWorkflows();
let environment: PackageInN8n;
let runtime: Runtime;
let sandbox: RunningSandbox;
let n8n: N8nServer;
let triggerEndpointId: string;

const steps = triggerSteps(
	() => sandbox,
	() => n8n,
);
const { v1 } = steps;

const requestLog = async () => (await sandbox.admin.getRequests()) as any[];
const executionCount = async (id: string) => (await n8n.executions(id, false)).length;
async function executeOk(workflowId: string): Promise<ExecuteResult> {
	const result = await n8n.execute(workflowId);
	if (result.code !== 0 || !result.data) {
		throw new Error(
			`n8n execute failed (exit ${result.code}, signal ${result.signal ?? 'none'})\n--- stdout\n${result.stdout.slice(-6000)}\n--- stderr\n${result.stderr.slice(-3000)}`,
		);
	}
	expect(result.data.data.resultData.error).toBeUndefined();
	return result;
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo', deliveryRetryDelaysMs: [200, 500, 1000] });

	const shared = await sharedWorkflows(TAG, COPIES, steps.createEndpoint);
	triggerEndpointId = shared.endpoints.trigger;
	environment = await startN8nWithPackage({
		credentials: [{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl }],
		workflows: [
			...shared.workflows,
			EXAMPLE01B_SHEETS,
			EXAMPLE02_FIXED,
			pollingWorkflow(),
			pollingWorkflow(IDS.pollingChanged, { [POLLING_NODES.changed]: 'vendor.updated' }),
			...RESTART_POLL.workflows,
		],
		redis: true, // example 03's claim
	});
	({ runtime, n8n } = environment);
}, 600000);

afterAll(async () => {
	await environment?.stop();
	await sandbox?.close();
});

/** 2.x publishes through an outbox: waits until n8n has applied (de)activation. */
async function settled(active: boolean, id: string): Promise<void> {
	if (runtime.major < 2) return; // 1.x answers once the activation's poll has run
	await n8n.waitFor(
		`workflow ${id} to be ${active ? 'published' : 'unpublished'}`,
		async () => {
			const { status } = await n8n.rest('GET', `/workflows/${id}/publication-status`);
			return status === (active ? 'published' : 'not_published');
		},
		60_000,
	);
}

const RUNS = manualRuns(TAG, COPIES);

describe('every operation, and the examples that need no account, through n8n execute --id', () => {
	it.each(Object.keys(RUNS))('%s', async (name) => {
		const result = await executeOk(RUNS[name].workflowId);
		RUNS[name].check(result.data, runtime.major);
		// The key never reaches the output or the CLI's log (the server's: 'secrets' below).
		expect(result.stdout).not.toContain(sandbox.apiKey);
	});
});

describe('examples/', () => {
	const examples = loadExamples();

	it('every example imported (types n8n-nodes-business-finance.*); the syncs start on a Schedule Trigger, and n8n stops each run before the next one starts', async () => {
		const SECONDS: Record<string, number> = { minutes: 60, hours: 3600, days: 86_400 };
		const scheduled: string[] = [];
		for (const { file, workflow } of examples) {
			const stored = await n8n.api('GET', `/workflows/${workflow.id}`);
			expect(stored.name).toBe(workflow.name);
			expect(stored.nodes.map((n: any) => n.type)).toEqual(workflow.nodes.map((n: any) => n.type));
			if (workflow.nodes[0].type !== 'n8n-nodes-base.scheduleTrigger') continue;
			scheduled.push(file.slice(0, 3));
			const [every] = workflow.nodes[0].parameters.rule.interval;
			const intervalSeconds = every[`${every.field}Interval`] * SECONDS[every.field];
			// n8n's workflow timeout (Settings → Timeout Workflow), at most its 3600 s maximum
			expect(stored.settings.executionTimeout).toBeLessThan(Math.min(intervalSeconds, 3601));
		}
		expect(scheduled).toEqual(['01b', '01c', '01d']);
	});

	it('01b Google Sheets variant: n8n refuses to start it until the user picks a spreadsheet', async () => {
		const result = await n8n.execute(EXAMPLE01B_SHEETS.id);
		expect(result.code).not.toBe(0);
		const error = result.data?.data?.resultData?.error;
		expect(error?.name).toBe('WorkflowHasIssuesError');
		// 1.x says only that the workflow has issues; 2.x names the node and the parameter.
		if (runtime.major >= 2) {
			expect(error?.message).toMatch(/Append or update rows in Google Sheets/);
			expect(error?.message).toMatch(/Document/);
		}
		// Once picked, the sheet's rows are updated by vendor id (its columns: manual-runs.ts).
		const sheets = EXAMPLE01B_SHEETS.nodes[2];
		expect(sheets.parameters).toMatchObject({
			operation: 'appendOrUpdate',
			columns: { matchingColumns: ['id'] },
		});
	});

	it('01c passes on only vendors new or changed since its last run', async () => {
		const dedupe = 'Only new or changed vendors';
		const first = await executeOk(COPIES.example01c.id);
		const total = (await v1('GET', '/vendors?limit=1')).body.meta.total;
		expect(output(first.data, dedupe)).toHaveLength(total);

		const again = await executeOk(COPIES.example01c.id);
		expect(output(again.data, dedupe)).toHaveLength(0);

		const someone = output(first.data, 'Get all vendors')[0];
		await v1('PATCH', `/vendors/${someone.id}`, { name: `${someone.name} (renamed ${TAG})` });
		const added = await addCryptoVendor(v1, `E2E 01c ${TAG}`);
		const third = await executeOk(COPIES.example01c.id);
		const passedOn = output(third.data, dedupe).map((v) => v.id);
		expect(passedOn.sort()).toEqual([someone.id, added.id].sort());
	});

	it('02 with its invalid rows deleted: the rows are created and sent, the one without an email fails at send', async () => {
		await sandbox.admin.clearRequests();
		const result = await executeOk(EXAMPLE02_FIXED.id);
		const sent = output(result.data, 'Sent invoices');
		expect(rowNumbers(sent)).toEqual(['1', '4']);
		expect(sent.every((s) => s.status === 'sent')).toBe(true);
		const bad = output(result.data, 'Report bad rows');
		// Only 2.x names the row (manual-runs.ts, example 02); the sandbox's log shows it was created.
		const named = runtime.major >= 2 ? { customerName: 'Pied Piper' } : {};
		expect(bad).toEqual([expect.objectContaining({ failedAt: 'send', ...named })]);
		const creates = (await requestLog()).filter(
			(r) => r.method === 'POST' && r.path === '/v1/receivables',
		);
		expect(creates.map((r) => r.body.customer_name)).toEqual([
			'Globex Corporation',
			'Hooli',
			'Pied Piper',
		]);
	});
});

describe('the trigger in a real n8n', () => {
	const webhookUrl = () => `${n8n.baseUrl}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
	const randomId = (prefix: string) => `${prefix}_e2e_${crypto.randomBytes(6).toString('hex')}`;
	const paidEvent = (id = randomId('rcv')) => eventBody('receivable.paid', { id, status: 'paid' });
	/** Pays a new receivable on the sandbox: its event runs `workflowId`. */
	async function paidReceivableRuns(workflowId: string, trigger: string, before: number) {
		const created = await v1('POST', '/receivables', {
			invoice_number: `E2E-${TAG}-${workflowId}`,
			amount: 99,
			customer_email: 'ap@globex.example',
		});
		const { id } = created.body.data;
		await sandbox.admin.setReceivableStatus(id, 'paid');
		const executions = await n8n.waitForExecutions(workflowId, before, 60000);
		const [latest] = executions.sort((a, b) => Number(b.id) - Number(a.id));
		expect(latest.status).toBe('success');
		expect(output(latest, trigger)).toMatchObject([
			{ type: 'receivable.paid', data: { id, status: 'paid' } },
		]);
	}

	/** n8n's log says why, once for both forgeries: the first names its cause (trigger/verificationWarnings.ts). */
	async function warnedOnce(forged: Record<string, string>) {
		const trigger = `Business Finance Trigger "On receivable paid" (workflow ${IDS.triggerExisting})`;
		const warning = (line: string) =>
			line.includes(trigger) && line.includes('failed signature verification');
		const said = await n8n.waitFor('the verification warning in n8n’s log', async () => {
			const lines = n8n.log().split('\n').filter(warning);
			return lines.length > 0 && lines;
		});
		expect(said).toHaveLength(1);
		expect(said[0]).toMatch(
			/1 delivery failed signature verification.*Likely cause \(1 delivery\): wrong secret/,
		);
		expect(said[0]).not.toContain(forged['webhook-signature'].slice(3));
	}

	triggerFlows({
		sandbox: () => sandbox,
		n8n: () => n8n,
		endpointId: () => triggerEndpointId,
		pointedAt: webhookUrl,
		servedAt: () => [webhookUrl()],
		forged: warnedOnce,
		whileActive: () => {
			it('a delivery n8n could not start (its database locked by another writer) runs on the retry, once; 1.x answers before it starts the run, so there it is lost', async () => {
				const before = await executionCount(IDS.triggerExisting);
				const body = paidEvent();
				const secret = await steps.secretOf(triggerEndpointId);
				const delivery = () =>
					post(webhookUrl(), body, signed(body, `msg_e2e_busy_${TAG}`, secret));
				const lock = await holdDatabaseWriteLock(runtime, environment.userFolder);
				// held past the answer and past n8n's wait for the lock (sqlite3's busy timeout, 1 s)
				const first = await delivery()
					.then(async (answer) => (await sleep(4000), answer))
					.finally(lock.release);
				await sleep(2000);
				expect(await executionCount(IDS.triggerExisting)).toBe(before);
				const retry = await delivery();
				const again = await delivery();
				await sleep(2000);
				if (runtime.major === 1) {
					// 1.x answered 200 before it tried to start the run: the service will not retry
					expect(first.status).toBe(200);
					expect(await retry.json()).toEqual({ received: true, ignored: 'duplicate delivery' });
					expect(await executionCount(IDS.triggerExisting)).toBe(before);
					return;
				}
				expect(first.status).toBe(500);
				expect(retry.status).toBe(200);
				expect(await again.json()).toEqual({ received: true, ignored: 'duplicate delivery' });
				expect(await executionCount(IDS.triggerExisting)).toBe(before + 1);
			});

			it('a delivery sent while n8n is still activating a trigger is verified; later deliveries run; deactivation deletes the endpoint', async () => {
				const { activation, endpointId, secret } = await steps.activateHeld(IDS.triggerEarly);
				const body = eventBody('vendor.created', { id: 'vnd_e2e_early', name: 'Early vendor' });
				const early = await post(
					`${n8n.baseUrl}/webhook/${TRIGGER_EARLY_WEBHOOK_ID}/webhook`,
					body,
					signed(body, `msg_e2e_early_${TAG}`, secret),
				);
				await activation;
				// The latency was spent on the trigger's own fetch.
				expect((await sandbox.admin.clearFaults()).cleared).toBe(0);
				expect(early.status).toBe(200);
				const [first] = await n8n.waitForExecutions(IDS.triggerEarly, 0, 60000);
				expect(first.status).toBe('success');

				// The registration survived the early delivery: the sandbox's own deliveries run...
				const vendor = await addCryptoVendor(v1, `E2E early ${TAG}`);
				const executions = await n8n.waitForExecutions(IDS.triggerEarly, 1, 60000);
				const items = executions.flatMap((e) => output(e, 'On vendor created'));
				expect(items.map((i) => i.data.id).sort()).toEqual([vendor.id, 'vnd_e2e_early'].sort());
				// ...and deactivation still finds the endpoint it created, and deletes it.
				await n8n.deactivate(IDS.triggerEarly);
				await steps.endpointDeleted(endpointId);
			});
		},
	});

	it('example 03 without its Slack credential: 2.x refuses activation, 1.x activates the trigger alone', async () => {
		if (runtime.major >= 2) {
			await expect(n8n.activate('bfExample03Paid0')).rejects.toThrow(/slackApi/);
			return;
		}
		// 1.x checks only the trigger's credential on activation: the trigger creates its endpoint
		// (as in the next test, which checks what it asks for), and deactivation deletes it again.
		await sandbox.admin.clearRequests();
		await n8n.activate('bfExample03Paid0');
		const endpointId = await steps.createdEndpointId();
		await n8n.deactivate('bfExample03Paid0');
		await steps.endpointDeleted(endpointId);
	});

	it('example 03 (Slack node disabled): activation creates an endpoint, a paid receivable runs it, deactivation deletes the endpoint', async () => {
		const hookUrl = `${n8n.baseUrl}/webhook/${EXAMPLE03_COPY_WEBHOOK_ID}/webhook`;
		await sandbox.admin.clearRequests();
		await n8n.activate(COPIES.example03.id);
		const endpointId = await steps.createdEndpointId();
		const createCall = (await requestLog()).find(
			(r) => r.method === 'POST' && r.path === '/v1/webhooks',
		);
		expect(createCall.status).toBe(201);
		expect(createCall.body).toMatchObject({ url: hookUrl, filter_types: ['receivable.paid'] });
		await steps.webhookServed(hookUrl);

		await paidReceivableRuns(COPIES.example03.id, 'Receivable paid', 0);
		await n8n.deactivate(COPIES.example03.id);
		await steps.endpointDeleted(endpointId);
	});

	it(`example 03 under a burst: ${BURST.events} events at concurrency ${BURST.concurrency} each run once; a copy of each under a new webhook-id (a retry after a restart, or at another n8n process) then runs the trigger and stops at the claim`, async () => {
		const hookUrl = `${n8n.baseUrl}/webhook/${EXAMPLE03_COPY_WEBHOOK_ID}/webhook`;
		await sandbox.admin.clearRequests();
		await n8n.activate(COPIES.example03.id);
		const endpointId = await steps.createdEndpointId();
		const secret = (await v1('GET', `/webhooks/${endpointId}/secret`)).body.data.secret;
		await steps.webhookServed(hookUrl);
		const prefix = `burst_${TAG}`;
		const workflow = { id: COPIES.example03.id, trigger: 'Receivable paid' };
		const outcome = await burstThenCopies(n8n, workflow, secret, prefix, () => hookUrl);
		expect(outcome.refused).toEqual({ burst: [], copy: [] });
		expect(outcome.failed).toEqual([]);
		expect(outcome.perEvent.size).toBe(BURST.events);
		const counts = [...outcome.perEvent.values()];
		expect(counts.filter((c) => c.runs !== 2 || c.passed !== 1)).toEqual([]);
		// each event's key in Redis counted both deliveries, and expires in 30 days
		const key = `bf-event:evt_${prefix}_0`;
		expect(await redisCommand(environment.redis!.port, ['GET', key])).toBe('2');
		const ttl = Number(await redisCommand(environment.redis!.port, ['TTL', key]));
		expect(ttl).toBeGreaterThan(2592000 - 600);
		await n8n.deactivate(COPIES.example03.id);
		await steps.endpointDeleted(endpointId);
	}, 600_000);

	it('example 03 while Redis is down: the run waits at the claim; 2.x goes on once Redis is back and handles the event once; on 1.x it stays there, claiming nothing, until stopped', async () => {
		const workflowId = COPIES.example03.id;
		const hookUrl = `${n8n.baseUrl}/webhook/${EXAMPLE03_COPY_WEBHOOK_ID}/webhook`;
		await sandbox.admin.clearRequests();
		await n8n.activate(workflowId);
		const endpointId = await steps.createdEndpointId();
		const secret = (await v1('GET', `/webhooks/${endpointId}/secret`)).body.data.secret;
		await steps.webhookServed(hookUrl);
		const body = eventBody('receivable.paid', { id: `rcv_redis_down_${TAG}`, status: 'paid' });
		const before = await executionCount(workflowId);
		let restartRedis: (() => Promise<void>) | undefined = await environment.stopRedis();
		try {
			const answer = await post(hookUrl, body, signed(body, `msg_redis_down_${TAG}`, secret));
			expect(answer.status).toBe(200);
			await sleep(5000);
			// n8n's list leaves out running executions unless asked for them
			const running = async () =>
				(await n8n.api('GET', `/executions?workflowId=${workflowId}&status=running`)).data;
			const [waiting] = await running();
			expect(waiting).toBeDefined();
			const backAt = Date.now();
			await restartRedis();
			restartRedis = undefined;
			const mine = (runs: any[]) =>
				runs.filter((run) => output(run, 'Receivable paid')[0]?.id === JSON.parse(body).id);
			if (runtime.major >= 2) {
				const runs = mine(await n8n.waitForExecutions(workflowId, before, 120_000));
				console.log(`Redis down 5 s: the run went on ${Date.now() - backAt} ms after it was back`);
				expect(runs.map((run) => [run.status, output(run, CLAIM.gate).length])).toEqual([
					['success', 1],
				]);
				return;
			}
			// 1.x's Redis node does not get over a first connection that failed: the run stays at
			// the claim after Redis is back, and took no claim; stopped, it is canceled
			await sleep(20_000);
			expect((await running()).map((run: any) => run.id)).toEqual([waiting.id]);
			const key = `bf-event:${JSON.parse(body).id}`;
			expect(await redisCommand(environment.redis!.port, ['GET', key])).toBeNull();
			await n8n.rest('POST', `/executions/${waiting.id}/stop`);
			await n8n.waitFor('the run to be stopped', async () => {
				const run = await n8n.api('GET', `/executions/${waiting.id}`);
				return run?.status === 'canceled';
			});
			// n8n's Retry of it: measured, not promised (docs/trigger.md). It varies from run to run
			// (every step, or none past the claim; recorded failed with the stop's error, or
			// succeeded), but it never gets past the claim twice
			await n8n.rest('POST', `/executions/${waiting.id}/retry`, { loadWorkflow: false });
			const retried = await n8n.waitFor(
				'the retry to finish',
				async () =>
					(await n8n.executions(workflowId)).find((run) => run.mode === 'retry' && run.stoppedAt),
				60_000,
			);
			const past = [CLAIM.gate, 'Post to Slack'].map((name) => output(retried, name).length);
			console.log(`1.x, Retry after the stop: ${retried.status}, steps past the claim ${past}`);
			expect(past.every((n) => n <= 1)).toBe(true);
			expect(
				Number((await redisCommand(environment.redis!.port, ['GET', key])) ?? 0),
			).toBeLessThanOrEqual(1);
		} finally {
			await restartRedis?.();
			await n8n.deactivate(workflowId);
			await steps.endpointDeleted(endpointId);
		}
	}, 300_000);
});

/**
 * n8n polls once when it activates a workflow, and that poll's items start an execution too
 * (docs/trigger.md): so a deactivate and activate is a poll, on both lines, when the test chooses.
 * Placed after the tests that create vendors and transactions, which would otherwise be new here.
 */
describe('the polling trigger in a real n8n', () => {
	const WORKFLOW = IDS.polling;
	const { transactions: TX_NODE, vendors: VENDOR_NODE } = POLLING_NODES;
	const expected: Record<string, string[]> = { [TX_NODE]: [], [VENDOR_NODE]: [] };
	/** The newest created_at given to a transaction here: the next ones are later. */
	let lastStamp = 0;
	const nextStamp = () => (lastStamp = Math.max(Date.now(), lastStamp + 1000));

	const activate = async (id = WORKFLOW) => (await n8n.activate(id), await settled(true, id));
	const deactivate = async (id = WORKFLOW) => (await n8n.deactivate(id), await settled(false, id));
	const staticData = async (id = WORKFLOW) =>
		((await n8n.api('GET', `/workflows/${id}`)).staticData ?? {}) as Record<string, any>;
	const cursorOf = (data: Record<string, any>, node: string) => data[`node:${node}`]?.cursor;

	/** Adds one transaction per created_at in `stamps` (equal stamps: transactions that tie). */
	const addTransactions = async (label: string, stamps: number[]): Promise<any[]> =>
		await sandbox.admin.addTransactions(
			stamps.map((at, i) => ({
				type: 'deposit',
				amount: 10 + i,
				currency: 'USD',
				reference: `E2E-poll-${label}${i + 1}-${TAG}`,
				created_at: new Date(at).toISOString(),
			})),
		);
	const listOrder = (items: any[]) =>
		[...items].sort((a, b) =>
			a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1,
		);
	const addVendor = (name: string) => addCryptoVendor(v1, `E2E poll ${name} ${TAG}`);
	const oldestFirst = (executions: any[]) => executions.sort((a, b) => Number(a.id) - Number(b.id));
	const executionsOf = async (node: string, id = WORKFLOW): Promise<any[]> =>
		oldestFirst(await n8n.executions(id)).filter((e) => e.data?.resultData?.runData?.[node]);
	/** Waits for one new finished execution per node in `nodes` (beyond `before`). */
	async function newItems(before: number, nodes: string[], timeoutMs = 60_000, id = WORKFLOW) {
		const executions = await n8n.waitForExecutions(id, before + nodes.length - 1, timeoutMs);
		const fresh = oldestFirst(executions).slice(before);
		const outcome = (e: any) => ({ status: e.status, error: e.data?.resultData?.error?.message });
		expect(fresh.map(outcome)).toEqual(nodes.map(() => ({ status: 'success' })));
		const items: Record<string, any[]> = {};
		for (const node of nodes) {
			const runs = fresh.filter((e) => e.data?.resultData?.runData?.[node]);
			expect(runs).toHaveLength(1);
			items[node] = output(runs[0], node);
		}
		return items;
	}
	function expectEvents(items: any[], type: string, records: Array<{ id: string }>) {
		const ids = records.map((record) => record.id);
		expect(items.map((i) => i.data.id)).toEqual(ids);
		expect(items.map((i) => i.type)).toEqual(ids.map(() => type));
		expect(items.map((i) => i.id)).toEqual(ids.map((id) => `${type}:${id}`));
	}
	async function pollByReactivation(
		id = WORKFLOW,
		nodes = [TX_NODE, VENDOR_NODE],
		timeoutMs = 60_000,
	) {
		const count = await executionCount(id);
		await deactivate(id);
		await activate(id);
		return await newItems(count, nodes, timeoutMs, id);
	}
	async function activateWithCursor(id: string, node: string) {
		await activate(id);
		const cursor = async () => cursorOf(await staticData(id), node);
		await n8n.waitFor(`the cursor of ${node} in static data`, cursor, 60_000);
	}

	it('activation polls once: each cursor at the newest item, nothing emitted', async () => {
		const [newest] = await addTransactions('before', [nextStamp()]);
		const vendors = await allVendors(v1);
		await activate();
		const data = await n8n.waitFor(
			'both cursors in the workflow’s static data',
			async () => {
				const now = await staticData();
				return cursorOf(now, TX_NODE) && cursorOf(now, VENDOR_NODE) && now;
			},
			60_000,
		);
		const { position } = cursorOf(data, TX_NODE);
		expect(position).toEqual({ at: newest.created_at, floor: newest.id, ids: [] });
		const lastVendor = vendors[vendors.length - 1];
		expect(cursorOf(data, VENDOR_NODE).position).toMatchObject({ at: lastVendor.created_at });
		expect(await executionCount(WORKFLOW)).toBe(0);
	});

	it('the next poll: transactions sharing a created_at, 105 vendors at one timestamp (a page boundary among them), each once, in list order', async () => {
		const tie = nextStamp();
		const added = listOrder(await addTransactions('A', [tie, tie, tie, nextStamp()]));
		const before = await allVendors(v1);
		await sandbox.admin.seedVendors(105);
		const seeded = (await allVendors(v1)).slice(before.length);
		expect(seeded).toHaveLength(105);
		expect(new Set(seeded.map((v) => v.created_at)).size).toBe(1);
		expected[TX_NODE].push(...added.map((t) => t.id));
		expected[VENDOR_NODE].push(...seeded.map((v) => v.id));

		const items = await pollByReactivation();
		expectEvents(items[TX_NODE], 'treasury.transaction.created', added);
		// the whole transaction, as the list gives it
		expect(items[TX_NODE][3].data).toMatchObject({ reference: `E2E-poll-A4-${TAG}`, amount: 13 });
		expectEvents(items[VENDOR_NODE], 'vendor.created', seeded);
	});

	it('a poll after that: transactions at the cursor’s own created_at (whatever their ids) and later, vendors created through the API; nothing emitted before comes again', async () => {
		const tieWithCursor = Date.parse(cursorOf(await staticData(), TX_NODE).position.at);
		const later = nextStamp();
		const added = listOrder(
			await addTransactions('B', [tieWithCursor, tieWithCursor, later, later]),
		);
		const vendors = [await addVendor('B1'), await addVendor('B2')];
		expected[TX_NODE].push(...added.map((t) => t.id));
		expected[VENDOR_NODE].push(...listOrder(vendors).map((v) => v.id));

		const items = await pollByReactivation();
		expectEvents(items[TX_NODE], 'treasury.transaction.created', added);
		expectEvents(items[VENDOR_NODE], 'vendor.created', listOrder(vendors));
	});

	it('a poll that fails half-way (a later page answers 500 past the retries): what came before the failure is emitted, the next poll emits the rest once', async () => {
		const base = nextStamp();
		lastStamp = base + 249;
		const stamps = Array.from({ length: 250 }, (_, i) => base + i);
		const added = listOrder(await addTransactions('H', stamps));
		expected[TX_NODE].push(...added.map((t) => t.id));
		await sandbox.admin.clearRequests();
		// the poll's first two pages are held 2 s each; while the second is held, its third page
		// (and the transport's 3 retries of it) are made to fail
		const TX_PATH = '/v1/treasury/transactions';
		await sandbox.admin.addFault({
			kind: 'latency',
			latencyMs: 2000,
			count: 2,
			pathPrefix: TX_PATH,
		});
		// only the transactions node has something new; a 429 (the sandbox's minute spent by the
		// suite) is waited out by the transport and does not reach the faults
		const pageRequests = async () =>
			(await requestLog()).filter((r) => r.path === TX_PATH && r.status !== 429);
		const polled = pollByReactivation(WORKFLOW, [TX_NODE], 150_000);
		await n8n.waitFor(
			'the poll’s second page request',
			async () => (await pageRequests()).length >= 2,
			120_000,
		);
		await sandbox.admin.addFault({ kind: 'status500', count: 4, pathPrefix: TX_PATH });
		const first = (await polled)[TX_NODE].map((i) => i.data.id);
		const answers = (await pageRequests()).map((r) => r.status);
		expect(answers).toEqual([200, 200, 500, 500, 500, 500]);
		expect(first.length).toBeGreaterThanOrEqual(100);
		expect(first.length).toBeLessThan(250);
		expect(first).toEqual(added.slice(0, first.length).map((t) => t.id));
		// not a failed execution: the poll returned what it had, and says so in n8n's log
		const said = `a page failed \\([\\s\\S]*?\\); emitting the ${first.length} new items before it`;
		expect(n8n.log()).toMatch(new RegExp(said));

		const rest = (await pollByReactivation(WORKFLOW, [TX_NODE], 150_000))[TX_NODE];
		expectEvents(rest, 'treasury.transaction.created', added.slice(first.length));
	}, 400_000);

	it('a poll on n8n’s schedule (Poll Times: one second of every minute) emits what was added after the activation, once; every item of every poll exactly once, in order; the static data stays small', async () => {
		await deactivate();
		const workflow = await n8n.api('GET', `/workflows/${WORKFLOW}`);
		// 15 s from now (after this activation's own poll, which finds nothing new), the vendors 10 s
		// later: two polling nodes of one workflow must not poll at the same time, n8n releases the
		// workflow's expression isolate when the first one ends (docs/trigger.md, "Polling trigger")
		const secondIn = (ms: number) => new Date(Date.now() + ms).getUTCSeconds();
		const seconds = { [TX_NODE]: secondIn(15_000), [VENDOR_NODE]: secondIn(25_000) };
		for (const node of workflow.nodes) {
			if (node.parameters.pollTimes)
				node.parameters.pollTimes = pollTimes(`${seconds[node.name]} * * * * *`);
		}
		const { name, nodes, connections, settings, staticData: kept } = workflow;
		const executionOrder = settings?.executionOrder ?? 'v1';
		const edited = { name, nodes, connections, settings: { executionOrder }, staticData: kept };
		await n8n.api('PUT', `/workflows/${WORKFLOW}`, edited);
		const count = await executionCount(WORKFLOW);
		await activate();
		expect(await executionCount(WORKFLOW)).toBe(count);
		const added = listOrder(await addTransactions('C', [nextStamp(), nextStamp()]));
		const vendor = await addVendor('C1');
		expected[TX_NODE].push(...added.map((t) => t.id));
		expected[VENDOR_NODE].push(vendor.id);
		const items = await newItems(count, [TX_NODE, VENDOR_NODE], 90_000);
		await deactivate();
		expectEvents(items[TX_NODE], 'treasury.transaction.created', added);
		expectEvents(items[VENDOR_NODE], 'vendor.created', [vendor]);

		for (const node of [TX_NODE, VENDOR_NODE]) {
			const all = (await executionsOf(node)).flatMap((e) => output(e, node).map((i) => i.data.id));
			expect(all).toEqual(expected[node]);
		}
		// the cursors after 113 items, 105 of them at one timestamp: bounded ids, well under 2 KB
		const data = await staticData();
		expect(JSON.stringify(data).length).toBeLessThan(2048);
		expect(cursorOf(data, VENDOR_NODE).position.ids.length).toBeLessThanOrEqual(20);
	}, 150_000);
	it('Vendor Changed: a vendor updated between polls arrives once, as vendor.updated; the next poll brings only the next change', async () => {
		const CHANGED = IDS.pollingChanged;
		const nodes = [POLLING_NODES.changed];
		await activateWithCursor(CHANGED, POLLING_NODES.changed);
		const [first, second] = await allVendors(v1);
		const rename = async (vendor: any, label: string) => {
			const patched = await v1('PATCH', `/vendors/${vendor.id}`, {
				name: `${vendor.name} (${label} ${TAG})`,
			});
			expect(patched.status).toBe(200);
			return patched.body.data;
		};
		const changed = await rename(first, 'changed once');
		const once = await pollByReactivation(CHANGED, nodes);
		expect(once[POLLING_NODES.changed]).toEqual([
			{
				id: `vendor.updated:${first.id}:${changed.updated_at}`,
				type: 'vendor.updated',
				created_at: changed.updated_at,
				data: expect.objectContaining({ id: first.id, name: changed.name }),
			},
		]);
		await rename(second, 'changed next');
		const next = await pollByReactivation(CHANGED, nodes);
		expect(next[POLLING_NODES.changed].map((i) => i.data.id)).toEqual([second.id]);
		await deactivate(CHANGED);
	});

	it('example 05 as shipped (Poll Times every minute): it activates, its activation emits nothing, a transaction created after it arrives once', async () => {
		const EXAMPLE = 'bfExample05PollT';
		const node = 'New treasury transactions';
		await activateWithCursor(EXAMPLE, node);
		expect(await executionCount(EXAMPLE)).toBe(0);
		const [added] = await addTransactions('05-', [nextStamp()]);
		await pollByReactivation(EXAMPLE, [node]);
		await deactivate(EXAMPLE);
		// a poll on its own schedule may have come first: every execution counts
		const all = (await executionsOf(node, EXAMPLE)).flatMap((e) => output(e, node));
		expectEvents(all, 'treasury.transaction.created', [added]);
		expect(all[0].data).toMatchObject({ reference: `E2E-poll-05-1-${TAG}` });
	});
});

describe('secrets', () => {
	it('neither the API key nor a signing secret shows in n8n’s log', async () => {
		const secret = (await v1('GET', `/webhooks/${triggerEndpointId}/secret`)).body?.data?.secret;
		expect(secret).toMatch(/^whsec_/);
		const log = n8n.log();
		expect(log.length).toBeGreaterThan(0);
		expectNowhereIn(log, sandbox.apiKey, sandbox.keys.expired, secret, secret.slice(6));
	});

	it('n8n’s settings file (the encryption key) and its database are open to no other user', () => {
		const n8nFolder = path.join(environment.userFolder, '.n8n');
		const database = fs.readdirSync(n8nFolder).filter((f) => f.startsWith('database.sqlite'));
		expect(database).toContain('database.sqlite');
		const inside = ['config', ...database].map((f) => path.join(n8nFolder, f));
		const files = [environment.userFolder, n8nFolder, ...inside];
		const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);
		for (const file of files)
			expect({ file, mode: mode(file) }).toEqual({ file, mode: expect.stringMatching(/^[67]00$/) });
	});

	it('the owner’s password is its user folder’s own: the one every dev n8n once shared is refused', async () => {
		const { email, password } = n8n.owner();
		expect(password).not.toBe('BusinessFinance1!');
		const login = (pw: string) =>
			fetch(`${n8n.baseUrl}/rest/login`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'browser-id': 'bf-e2e' },
				body: JSON.stringify({ emailOrLdapLoginId: email, email, password: pw }),
			});
		expect((await login('BusinessFinance1!')).status).toBe(401);
		expect((await login(password)).status).toBe(200);
	});
});

/**
 * A deploy: n8n stopped and started again on the same database. The trigger's duplicate memory is
 * the process's and goes; example 03's claim (in Redis) and the polling cursor (in the database)
 * stay (the README's events table; docs/trigger.md, "Exactly once, per setup"). Last in the
 * file: the other tests keep the n8n they started with.
 */
describe('n8n restarted between a delivery and its retry, and while the service had new items', () => {
	const WEBHOOK_HOOK = () => `${n8n.baseUrl}/webhook/${EXAMPLE03_COPY_WEBHOOK_ID}/webhook`;
	const POLL_NODE = 'Transactions (restart)';
	const byId = (a: any, b: any) => Number(a.id) - Number(b.id);
	const BALANCE_PATH = '/v1/treasury/balance';
	const event = eventBody('receivable.paid', { id: `rcv_restart_${TAG}`, status: 'paid' });
	const webhookId = `msg_restart_${TAG}`;
	const before = { webhook: 0, errors: 0 };
	let secret = '';
	let endpointId = '';
	let whileDown: any;

	/** Accepted once n8n serves the path and knows the endpoint (a 401 or 404 before is not remembered). */
	const deliver = () =>
		n8n.waitFor(
			'the delivery to be accepted',
			async () => {
				const answer = await post(WEBHOOK_HOOK(), event, signed(event, webhookId, secret));
				return answer.status === 200 && answer;
			},
			90_000,
		);

	beforeAll(async () => {
		await sandbox.admin.clearRequests();
		await n8n.activate(COPIES.example03.id);
		endpointId = await steps.createdEndpointId();
		secret = (await v1('GET', `/webhooks/${endpointId}/secret`)).body.data.secret;
		before.webhook = await executionCount(COPIES.example03.id);
		await deliver();
		await n8n.waitForExecutions(COPIES.example03.id, before.webhook, 60_000);
		await n8n.activate(RESTART_POLL.id);
		await n8n.waitFor(
			'the cursor of the restart workflow',
			async () =>
				(await n8n.api('GET', `/workflows/${RESTART_POLL.id}`)).staticData?.[`node:${POLL_NODE}`],
			60_000,
		);
		before.errors = await executionCount(RESTART_POLL.errorWorkflow);
		// 2.x runs only a published Error Workflow ("… is not active and cannot be executed" in its log)
		if (runtime.major >= 2) await n8n.activate(RESTART_POLL.errorWorkflow);
		// the run the next poll starts fails at its Balance step, past the node's retries
		await sandbox.admin.addFault({ kind: 'status500', count: 50, pathPrefix: BALANCE_PATH });
		n8n = await environment.restart(async () => {
			// later than every transaction the polling tests dated ahead of the clock
			const createdAt = new Date(Date.now() + 600_000).toISOString();
			[whileDown] = await sandbox.admin.addTransactions([
				{
					type: 'deposit',
					amount: 7,
					currency: 'USD',
					reference: `E2E-restart-${TAG}`,
					created_at: createdAt,
				},
			]);
		});
	}, 400_000);

	it('example 03: the retry after the restart is accepted and runs the trigger again; the steps after the claim ran once', async () => {
		await deliver();
		const workflowId = COPIES.example03.id;
		const all = await n8n.waitForExecutions(workflowId, before.webhook + 1, 60_000);
		const runs = all.sort(byId).slice(before.webhook);
		expect(runs.map((run) => run.status)).toEqual(['success', 'success']);
		expect(runs.map((run) => output(run, 'Receivable paid').length)).toEqual([1, 1]);
		// the claim's count is in Redis, which the restart did not touch
		expect(runs.map((run) => Object.values(output(run, CLAIM.count)[0]))).toEqual([[1], [2]]);
		expect(runs.map((run) => output(run, CLAIM.gate).length)).toEqual([1, 0]);
		expect(runs.map((run) => output(run, 'Post to Slack').length)).toEqual([1, 0]);
		await n8n.deactivate(workflowId);
		await steps.endpointDeleted(endpointId);
	});

	it('the polling trigger: a transaction added while n8n was down arrives once, on the poll at start; its run failed later, so the Error Workflow ran; n8n’s Retry runs it again with that item, and no poll brings it again', async () => {
		const [failed] = await n8n.waitForExecutions(RESTART_POLL.id, 0, 120_000);
		expect(failed.status).toBe('error');
		expect(failed.data.resultData.lastNodeExecuted).toBe('Balance');
		expect(output(failed, POLL_NODE).map((item) => item.data.id)).toEqual([whileDown.id]);
		const errors = await n8n.waitForExecutions(RESTART_POLL.errorWorkflow, before.errors, 60_000);
		expect(errors).toHaveLength(before.errors + 1);

		await sandbox.admin.clearFaults();
		await n8n.rest('POST', `/executions/${failed.id}/retry`, { loadWorkflow: false });
		const retried = await n8n.waitFor(
			'the retry to finish',
			async () => {
				const runs = await n8n.executions(RESTART_POLL.id);
				return runs.find((run) => run.mode === 'retry' && run.stoppedAt);
			},
			60_000,
		);
		expect(retried.status).toBe('success');
		expect(output(retried, 'Balance')).toHaveLength(1);
		expect(output(retried, POLL_NODE).map((item) => item.data.id)).toEqual([whileDown.id]);

		// a poll now (re-activation, applied) reads the list and finds nothing new: no execution
		const count = await executionCount(RESTART_POLL.id);
		await n8n.deactivate(RESTART_POLL.id);
		await settled(false, RESTART_POLL.id);
		await sandbox.admin.clearRequests();
		await n8n.activate(RESTART_POLL.id);
		await settled(true, RESTART_POLL.id);
		await n8n.waitFor('the activation’s poll of the transactions', async () =>
			(await requestLog()).some((r) => r.path === '/v1/treasury/transactions'),
		);
		await sleep(2000);
		expect(await executionCount(RESTART_POLL.id)).toBe(count);
		await n8n.deactivate(RESTART_POLL.id);
	});
});
