/**
 * A real delivery: the trigger is activated against the sandbox with its webhook URL on a local
 * HTTP server that runs webhook() in n8n-core's WebhookContext; an API operation makes the
 * sandbox emit and deliver a signed event; the handler verifies it with the endpoint's secret
 * (fetched from the service) and starts exactly one execution.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RunningSandbox } from '../../sandbox';
import { forgetAllSecrets } from '../../nodes/BusinessFinance/trigger/secrets';
import type { HttpClient } from '../helpers/http';
import { closeAll, sandboxTrigger, startTriggerSandbox, until } from './support';

let sb: RunningSandbox;
let api: HttpClient;
let admin: HttpClient;

beforeAll(async () => {
	({ sb, api, admin } = await startTriggerSandbox());
});

afterAll(async () => {
	await closeAll();
	await sb.close();
});

async function deliveries(endpointId: string): Promise<IDataObject[]> {
	const all: IDataObject[] = (await admin.get('/_admin/deliveries')).body.data;
	return all.filter((d) => d.endpoint_id === endpointId);
}

const activeTrigger = (events: string[], options: IDataObject = {}) =>
	sandboxTrigger(sb, options, events);

describe('a real delivery from the sandbox', () => {
	it('verifies the signed event of an API operation and starts one execution', async () => {
		const { t, served, endpointId } = await activeTrigger(['receivable.created']);
		try {
			const created = await api.post('/v1/receivables', {
				invoice_number: 'INV-TRIG-1',
				amount: 42.5,
			});
			expect(created.status).toBe(201);
			const receivable = created.body.data;

			const execution = await until('the execution', () => served.executions[0]);
			const event = execution[0][0].json;
			expect(event).toMatchObject({
				type: 'receivable.created',
				data: { id: receivable.id, amount: 42.5 },
			});
			expect(event.id).toMatch(/^evt_/);

			const log = await until('the delivery log', async () => {
				const list = await deliveries(endpointId);
				return list.length > 0 ? list : undefined;
			});
			expect(log).toHaveLength(1);
			expect(log[0]).toMatchObject({
				event_type: 'receivable.created',
				status: 200,
				url: t.webhookUrl(),
			});
			expect(served.executions).toHaveLength(1);
		} finally {
			await t.deactivate();
		}
	});

	it('fetches the secret again after a restart (it is not kept in static data) and outputs only data', async () => {
		const { t, served, endpointId } = await activeTrigger(['vendor.created'], { output: 'data' });
		try {
			// A new process: nothing in memory, only the saved static data.
			forgetAllSecrets();
			await admin.delete('/_admin/requests');

			const created = await api.post('/v1/vendors', {
				name: 'Trigger Vendor',
				payment_method: 'crypto',
				wallet_address: '0x' + 'ab'.repeat(20),
				wallet_chain: 'base',
			});
			expect(created.status).toBe(201);
			const execution = await until('the execution', () => served.executions[0]);
			expect(execution[0][0].json).toMatchObject({
				id: created.body.data.id,
				name: 'Trigger Vendor',
			});

			const log: IDataObject[] = (await admin.get('/_admin/requests')).body.data;
			const secretFetches = log.filter((r) => r.path === `/v1/webhooks/${endpointId}/secret`);
			expect(secretFetches).toHaveLength(1);
			// The event filter on the service side: only the selected type is delivered.
			await api.post('/v1/receivables', { invoice_number: 'INV-TRIG-2', amount: 1 });
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect((await deliveries(endpointId)).map((d) => d.event_type)).toEqual(['vendor.created']);
			expect(served.executions).toHaveLength(1);
		} finally {
			await t.deactivate();
		}
	});

	it("refuses a delivery signed with another endpoint's secret", async () => {
		const a = await activeTrigger(['receivable.created']);
		const b = await activeTrigger(['receivable.created']);
		try {
			// Point B's endpoint at A's URL: B's deliveries carry B's signature, which A rejects.
			await api.patch(`/v1/webhooks/${b.endpointId}`, { url: a.t.webhookUrl() });
			await api.post('/v1/receivables', { invoice_number: 'INV-TRIG-3', amount: 3 });
			await until('both deliveries', async () => {
				const la = await deliveries(a.endpointId);
				const lb = await deliveries(b.endpointId);
				return la.length >= 1 && lb.length >= 1 ? true : undefined;
			});
			const fromB = await until("B's retries to end", async () => {
				const list = await deliveries(b.endpointId);
				return list.length >= 3 ? list : undefined;
			});
			expect(fromB.every((d) => d.status === 401)).toBe(true);
			expect(a.served.executions).toHaveLength(1);
			expect(b.served.executions).toHaveLength(0);
		} finally {
			await a.t.deactivate();
			await b.t.deactivate();
		}
	});
});
