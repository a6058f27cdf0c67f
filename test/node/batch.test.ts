import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { byId, useEnv, VALID } from './support';

const env = useEnv();

/** Receivables from rows; rows 2 (amount 0) and 4 (malformed email) are invalid. */
const ROWS: IDataObject[] = [
	{ inv: 'B-0', amount: 10, email: 'a@b.co' },
	{ inv: 'B-1', amount: 11, email: 'a@b.co' },
	{ inv: 'B-2', amount: 0, email: 'a@b.co' },
	{ inv: 'B-3', amount: 13, email: 'a@b.co' },
	{ inv: 'B-4', amount: 14, email: 'not-an-email' },
	{ inv: 'B-5', amount: 15, email: 'a@b.co' },
];
const createReceivables = (options: INodeParameters): INodeParameters => ({
	resource: 'receivable',
	operation: 'create',
	invoiceNumber: '={{ $json.inv }}',
	amount: '={{ $json.amount }}',
	additionalFields: { customerEmail: '={{ $json.email }}' },
	options,
});

describe('receivable → create, a batch with invalid items', () => {
	it('on: zero requests, one error naming every invalid item and its reason', async () => {
		const res = await env.run(createReceivables({ validateAllBeforeSending: true }), {
			items: ROWS,
		});
		expect(await env.requests()).toHaveLength(0);
		expect(res.error?.message).toBe(
			'Nothing was sent: 2 of 6 items invalid (items 3, 5, counting from 1)',
		);
		const lines = String(res.error?.description).split('\n');
		expect(lines.slice(1)).toEqual([
			expect.stringMatching(/^Item 3: .*amount/i),
			expect.stringMatching(/^Item 5: .*email/i),
		]);
	});

	it('off (the default): as before, items before the first invalid one are sent, then the node stops', async () => {
		const res = await env.run(createReceivables({}), { items: ROWS });
		const sent = (await env.requests()).map((r) => (r.body as IDataObject).invoice_number);
		expect(sent).toEqual(['B-0', 'B-1']);
		expect(res.error?.message).toMatch(/amount/i);
		expect(res.error?.context.itemIndex).toBe(2);
	});

	it('on, with Continue On Fail: one error item per input item, paired, and nothing sent', async () => {
		const res = await env.run(createReceivables({ validateAllBeforeSending: true }), {
			items: ROWS,
			continueOnFail: true,
		});
		expect(res.error).toBeUndefined();
		expect(await env.requests()).toHaveLength(0);
		expect(res.items.map((item) => item.pairedItem)).toEqual(ROWS.map((_, i) => ({ item: i })));
		const errors = res.items.map((item) => String(item.json.error));
		expect(errors[2]).toMatch(/amount/i);
		expect(errors[4]).toMatch(/email/i);
		for (const i of [0, 1, 3, 5]) {
			expect(errors[i]).toBe('Not sent: 2 of 6 items invalid');
			expect(res.items[i].json.description).toMatch(/\(3, 5, counting from 1\)/);
		}
	});

	it('on, every item valid: all are sent, in order', async () => {
		const valid = ROWS.filter((_, i) => i !== 2 && i !== 4);
		const res = await env.run(createReceivables({ validateAllBeforeSending: true }), {
			items: valid,
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests()).map((r) => (r.body as IDataObject).invoice_number)).toEqual(
			valid.map((row) => row.inv),
		);
		expect(res.items.map((item) => item.pairedItem)).toEqual(valid.map((_, i) => ({ item: i })));
	});

	it('on: an invalid node option (Max Wait for Rate Limits) counts as a failing item too', async () => {
		const res = await env.run(
			createReceivables({
				validateAllBeforeSending: true,
				rateLimitWaitSeconds: '={{ $json.wait }}',
			}),
			{
				items: [
					{ ...ROWS[0], wait: 10 },
					{ ...ROWS[1], wait: -1 },
				],
			},
		);
		expect(await env.requests()).toHaveLength(0);
		expect(res.error?.message).toMatch(/\(item 2, counting from 1\)$/);
	});
});

// One invalid item among valid ones: nothing is sent, and the error names the item and the field.
it.each([
	[
		'receivable → send: a malformed id',
		{ resource: 'receivable', operation: 'send', receivableId: '={{ $json.id }}' },
		[{ id: '5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' }, { id: 'not-a-uuid' }],
		/^Item 2: .*'Receivable ID'/m,
	],
	[
		'payable → create: an amount of 0 in the last row',
		{
			resource: 'payable',
			operation: 'create',
			invoiceNumber: 'P',
			amount: '={{ $json.amount }}',
			vendorId: byId(''),
			additionalFields: { vendorName: 'Acme' },
		},
		[{ amount: 1 }, { amount: 2 }, { amount: 0 }],
		/^Item 3: .*'Amount'/m,
	],
	[
		'vendor → create: a blank name',
		{
			resource: 'vendor',
			operation: 'create',
			name: '={{ $json.name }}',
			paymentMethod: 'crypto',
			additionalFields: { walletAddress: VALID.evm, walletChain: 'ethereum' },
		},
		[{ name: 'V0' }, { name: ' ' }],
		/^Item 2: .*'Name'/m,
	],
] as Array<[string, INodeParameters, IDataObject[], RegExp]>)(
	'%s: sends nothing',
	async (_name, parameters, items, reason) => {
		const options = { validateAllBeforeSending: true };
		const res = await env.run({ ...parameters, options }, { items });
		expect(await env.requests()).toHaveLength(0);
		expect(res.error?.message).toMatch(new RegExp(`\\(item ${items.length}, counting from 1\\)$`));
		expect(res.error?.description).toMatch(reason);
	},
);
