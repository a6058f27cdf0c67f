import { expectNowhereIn } from '../helpers/secrets';
import { useEnv } from './support';

const env = useEnv();

describe('treasury', () => {
	// Passed through as the service returned them: no stable columns, no unwrapping.
	it.each([
		['getDepositInstructions', 'deposit-instructions', ['ach', 'crypto', 'swift', 'wire']],
		['getBalance', 'balance', ['balances', 'updated_at']],
	])(
		'%s: one GET without query, one item as the service returned it',
		async (operation, path, keys) => {
			const get = { resource: 'treasury', operation };
			const output = await env.runOne(get, `GET /v1/treasury/${path} 200`, undefined, {});
			expect((await env.requests())[0].query).toEqual({});
			expect(Object.keys(output).sort()).toEqual(keys);
			expect(output).toEqual(await env.api('GET', `/v1/treasury/${path}`));
		},
	);

	it('getTransactions: from/to as dates, type, limit; one item per transaction', async () => {
		await env.sb.admin.addTransactions([
			{ type: 'deposit', amount: 1, currency: 'USD', created_at: '2026-01-01T10:00:00Z' },
			{ type: 'deposit', amount: 2, currency: 'USD', created_at: '2026-01-02T10:00:00Z' },
			{ type: 'withdrawal', amount: 3, currency: 'USD', created_at: '2026-01-02T11:00:00Z' },
			{ type: 'deposit', amount: 4, currency: 'USD', created_at: '2026-01-03T10:00:00Z' },
			{ type: 'deposit', amount: 5, currency: 'USD', created_at: '2026-01-04T10:00:00Z' },
		]);
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
	});

	it('get: one GET, the endpoint as one item', async () => {
		const output = await env.runOne(
			{ resource: 'webhookEndpoint', operation: 'get', webhookEndpointId: id },
			`GET /v1/webhooks/${id} 200`,
			undefined,
			{ id, url: 'http://127.0.0.1:9/hook', filter_types: ['receivable.created'] },
		);
		expectNowhereIn(output, 'whsec_');
	});

	// [what, updateFields, the PATCH body, what the output then holds]
	it.each([
		[
			'url, description, filter types and disabled, in API names',
			{
				url: 'http://127.0.0.1:9/other',
				description: 'second',
				filterTypes: ['payable.paid', 'vendor.created'],
				disabled: true,
			},
			{
				url: 'http://127.0.0.1:9/other',
				description: 'second',
				filter_types: ['payable.paid', 'vendor.created'],
				disabled: true,
			},
			{ disabled: true, description: 'second' },
		],
		[
			'an empty event type selection is sent as [] (every event type)',
			{ filterTypes: [] },
			{ filter_types: [] },
			{ filter_types: [] },
		],
	])('update: %s', async (_name, updateFields, body, output) => {
		await env.runOne(
			{ resource: 'webhookEndpoint', operation: 'update', webhookEndpointId: id, updateFields },
			`PATCH /v1/webhooks/${id} 200`,
			body,
			{ id, ...output },
		);
	});
});
