import { route, useEnv } from './support';

const env = useEnv();

describe('treasury', () => {
	it('getDepositInstructions: one GET without query, one item with the four groups', async () => {
		const { items, requests } = await env.runOk({
			resource: 'treasury',
			operation: 'getDepositInstructions',
		});
		expect(requests.map((r) => [route(r), r.query])).toEqual([
			['GET /v1/treasury/deposit-instructions 200', {}],
		]);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
		expect(Object.keys(items[0].json).sort()).toEqual(['ach', 'crypto', 'swift', 'wire']);
	});

	it('getBalance: one item, passed through as the service returned it', async () => {
		await env.sb.admin.addTransactions([
			{ type: 'deposit', amount: 100, currency: 'USD' },
			{ type: 'deposit', amount: 5, currency: 'USD', status: 'pending' },
		]);
		await env.clear();
		const { items, requests } = await env.runOk({ resource: 'treasury', operation: 'getBalance' });
		expect(requests.map(route)).toEqual(['GET /v1/treasury/balance 200']);
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			balances: [{ currency: 'USD', available: 100, pending: 5 }],
			updated_at: expect.any(String),
		});
	});

	it('getTransactions: from/to as dates, type, limit; one item per transaction', async () => {
		await env.sb.admin.addTransactions([
			{ type: 'deposit', amount: 1, currency: 'USD', created_at: '2026-01-01T10:00:00Z' },
			{ type: 'deposit', amount: 2, currency: 'USD', created_at: '2026-01-02T10:00:00Z' },
			{ type: 'withdrawal', amount: 3, currency: 'USD', created_at: '2026-01-02T11:00:00Z' },
			{ type: 'deposit', amount: 4, currency: 'USD', created_at: '2026-01-03T10:00:00Z' },
			{ type: 'deposit', amount: 5, currency: 'USD', created_at: '2026-01-04T10:00:00Z' },
		]);
		await env.clear();
		const { items, requests } = await env.runOk({
			resource: 'treasury',
			operation: 'getTransactions',
			returnAll: false,
			limit: 5,
			filters: { from: '2026-01-02T00:00:00', to: '2026-01-03', type: 'deposit' },
		});
		expect(requests.map((r) => r.query)).toEqual([
			{ from: '2026-01-02', to: '2026-01-03', type: 'deposit', page: '1', limit: '5' },
		]);
		expect(items.map((i) => [i.json.amount, i.pairedItem])).toEqual([
			[2, { item: 0 }],
			[4, { item: 0 }],
		]);
	});
});

describe('webhookEndpoint', () => {
	let id: string;
	beforeEach(async () => {
		const ep = await env.api('POST', '/v1/webhooks', {
			url: 'http://127.0.0.1:9/hook',
			description: 'first',
			filter_types: ['receivable.created'],
		});
		id = ep.id as string;
		await env.clear();
	});

	it('get: one GET, the endpoint as one item', async () => {
		const { items, requests } = await env.runOk({
			resource: 'webhookEndpoint',
			operation: 'get',
			webhookEndpointId: id,
		});
		expect(requests.map(route)).toEqual([`GET /v1/webhooks/${id} 200`]);
		expect(items).toEqual([
			{
				json: expect.objectContaining({
					id,
					url: 'http://127.0.0.1:9/hook',
					filter_types: ['receivable.created'],
				}),
				pairedItem: { item: 0 },
			},
		]);
		expect(JSON.stringify(items)).not.toContain('whsec_');
	});

	it('update: url, description, filter types and disabled, in API names', async () => {
		const { items, requests } = await env.runOk({
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: id,
			updateFields: {
				url: 'http://127.0.0.1:9/other',
				description: 'second',
				filterTypes: ['payable.paid', 'vendor.created'],
				disabled: true,
			},
		});
		expect(requests.map(route)).toEqual([`PATCH /v1/webhooks/${id} 200`]);
		expect(requests[0].body).toEqual({
			url: 'http://127.0.0.1:9/other',
			description: 'second',
			filter_types: ['payable.paid', 'vendor.created'],
			disabled: true,
		});
		expect(items[0].json).toMatchObject({ id, disabled: true, description: 'second' });
	});

	it('update: an empty event type selection is sent as [] (every event type)', async () => {
		const { items, requests } = await env.runOk({
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: id,
			updateFields: { filterTypes: [] },
		});
		expect(requests[0].body).toEqual({ filter_types: [] });
		expect(items[0].json.filter_types).toEqual([]);
	});
});
