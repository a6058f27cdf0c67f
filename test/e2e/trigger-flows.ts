// The webhook trigger's flows, written once for both e2e suites: n8n.e2e.test.ts (one process)
// and test/e2e-queue (activated by main, served by the webhook processors, run by the workers).
import type { RunningSandbox } from '../../sandbox';
import type { N8nServer } from '../../scripts/n8n';
import { eventBody } from '../trigger/support';
import { output, post, signed, sleep, triggerSteps } from './service';
import { IDS, TRIGGER_ENDPOINT_BEFORE } from './workflows';

/**
 * `n8n`: the process that activates workflows and lists their runs; `pointedAt`: where activation
 * points the endpoint; `servedAt`: every URL that serves the webhook. The hooks add a suite's own
 * checks; `whileActive` declares its tests that need the trigger active.
 */
export interface TriggerSetup {
	sandbox: () => RunningSandbox;
	n8n: () => N8nServer;
	endpointId: () => string;
	pointedAt: () => string;
	servedAt: () => string[];
	activated?: () => Promise<void>;
	ran?: (run: any) => void;
	forged?: (headers: Record<string, string>) => Promise<void>;
	whileActive?: () => void;
}

/** Declares the flows in the caller's describe, in order: activate, deliver, forge, deactivate. */
export function triggerFlows(setup: TriggerSetup): void {
	const { n8n, sandbox } = setup;
	const steps = triggerSteps(sandbox, n8n);
	const workflowId = IDS.triggerExisting;
	const runs = async () => await n8n().executions(workflowId, false);

	it('activation points the existing endpoint at the workflow', async () => {
		await n8n().activate(workflowId);
		// 2.x publishes through an outbox: the trigger's create() runs shortly after the call.
		const endpoint = await steps.endpointWhen(
			setup.endpointId(),
			'the endpoint to point at n8n',
			(now) => now.url !== TRIGGER_ENDPOINT_BEFORE.url,
		);
		const { description } = TRIGGER_ENDPOINT_BEFORE;
		expect(endpoint).toMatchObject({ url: setup.pointedAt(), disabled: false, description });
		expect([...endpoint.filter_types].sort()).toEqual(['receivable.overdue', 'receivable.paid']);
		await setup.activated?.();
	});

	it('a signed delivery from the sandbox starts one run with the event', async () => {
		const before = (await runs()).length;
		const created = await steps.v1('POST', '/receivables', {
			invoice_number: `E2E-${Date.now().toString(36)}-PAID`,
			amount: 99,
			customer_email: 'ap@globex.example',
		});
		const { id } = created.body.data;
		await sandbox().admin.setReceivableStatus(id, 'paid');
		const executions = await n8n().waitForExecutions(workflowId, before, 60_000);
		expect(executions).toHaveLength(before + 1);
		const [latest] = executions.sort((a, b) => Number(b.id) - Number(a.id));
		expect(latest).toMatchObject({ status: 'success', mode: 'webhook' });
		expect(output(latest, 'On receivable paid')).toMatchObject([
			{ type: 'receivable.paid', data: { id, status: 'paid' } },
		]);
		const deliveries = await sandbox().admin.getDeliveries();
		const toTrigger = (type: string) =>
			deliveries.filter((d) => d.endpoint_id === setup.endpointId() && d.event_type === type);
		expect(toTrigger('receivable.paid').some((d) => d.status === 200)).toBe(true);
		// An event type outside the filter is not delivered to it.
		expect(toTrigger('receivable.created')).toEqual([]);
		setup.ran?.(latest);
	});

	it('a forged delivery, or one without a signature, is refused with 401 wherever it arrives and starts nothing', async () => {
		const before = (await runs()).length;
		const body = eventBody('receivable.paid', { id: 'forged', status: 'paid' });
		const forged = signed(body, 'msg_forged');
		for (const url of setup.servedAt()) {
			expect((await post(url, body, forged)).status).toBe(401);
			expect((await post(url, body)).status).toBe(401);
		}
		await sleep(3000);
		expect(await runs()).toHaveLength(before);
		await setup.forged?.(forged);
	});

	setup.whileActive?.();

	it('deactivation restores the endpoint as it was and removes the webhook', async () => {
		await n8n().deactivate(workflowId);
		const endpoint = await steps.endpointWhen(
			setup.endpointId(),
			'the endpoint to be restored',
			(now) => now.url === TRIGGER_ENDPOINT_BEFORE.url,
		);
		expect(endpoint).toMatchObject(TRIGGER_ENDPOINT_BEFORE);
		for (const url of setup.servedAt()) await steps.webhookServed(url, false);
	});
}
