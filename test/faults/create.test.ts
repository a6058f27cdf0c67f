/**
 * Creates while the service fails a share of the POSTs (500, 503, connection reset, a 200 whose
 * body is not JSON; the sandbox processes none of the faulted requests). A create that may have
 * been processed is never retried, so: exactly one POST per item, no duplicates on the service,
 * and every failed item reported (Continue On Fail: an error item paired with its input item;
 * without it: a clear error naming the item, and nothing sent after it).
 */
import type { IDataObject } from 'n8n-workflow';

import { allVendors, fresh, requestLog, startEnv, vendorCreate, type NodeTestEnv } from './support';

const M = 40;
const items = (prefix: string) => Array.from({ length: M }, (_, i) => ({ name: `${prefix} ${i}` }));

let env: NodeTestEnv;
beforeAll(async () => {
	env = await startEnv();
});
afterAll(async () => {
	await env.close();
});
beforeEach(async () => {
	await fresh(env);
});

const KINDS = [
	['status500', /INTERNAL_ERROR|500/],
	['status503', /SERVICE_UNAVAILABLE|503/],
	['reset', /Could not reach the Business Finance service/],
	['malformed', /not valid JSON/],
] as const;

describe('vendor create with 10 % of the POSTs failing (Continue On Fail)', () => {
	it.each(KINDS)(
		'%s: one POST per item, no duplicates, each failed item reported',
		async (kind, message) => {
			await env.sb.admin.addFault({ kind, rate: 0.1, pathPrefix: '/v1/vendors', method: 'POST' });
			const input = items(kind);

			const res = await env.run(vendorCreate, { items: input, continueOnFail: true });

			expect(res.error).toBeUndefined();
			// One output item per input item, in order, paired with it.
			expect(res.items).toHaveLength(M);
			res.items.forEach((item, i) => expect(item.pairedItem).toEqual({ item: i }));
			const failed = res.items.filter((i) => typeof i.json.error === 'string');
			const created = res.items.filter((i) => typeof i.json.error !== 'string');
			expect(failed.length).toBeGreaterThanOrEqual(1); // the seeded faults fired
			for (const f of failed) {
				expect(f.json.error).toMatch(message);
				// The user is told the create may have gone through and was not repeated.
				expect(`${f.json.error} ${f.json.description}`).toMatch(
					/(may or may not have been processed|probably processed).*(check whether|before running it again)/,
				);
			}

			// Exactly one POST per item: nothing retried after a 5xx, a reset or an unreadable answer.
			const log = await requestLog(env);
			const posts = log.filter((r) => r.method === 'POST');
			expect(posts).toHaveLength(M);
			// The sandbox logs no body for a faulted request (it stops before reading it).
			const faulted = posts.filter((r) => r.body === null);
			expect(faulted).toHaveLength(failed.length);
			expect(posts.filter((r) => r.body !== null).map((r) => (r.body as IDataObject).name)).toEqual(
				created.map((i) => input[(i.pairedItem as { item: number }).item].name),
			);
			if (kind !== 'malformed') {
				const status = kind === 'status500' ? 500 : kind === 'status503' ? 503 : 0;
				expect(posts.filter((r) => r.status === status)).toHaveLength(failed.length);
				expect(posts.filter((r) => r.status === 201)).toHaveLength(created.length);
			}

			// The service holds exactly the vendors reported as created, once each: no duplicates.
			const onService = await allVendors(env);
			expect(onService).toHaveLength(created.length);
			expect(new Set(onService.map((v) => v.id))).toEqual(new Set(created.map((i) => i.json.id)));
		},
		60_000,
	);
});

describe('vendor create with faults, Continue On Fail off', () => {
	it('stops at the first failed item with a clear error naming it; nothing after it is sent', async () => {
		// Seeded: the first POST to fail is item 18's.
		await env.sb.admin.addFault({
			kind: 'status503',
			rate: 0.1,
			pathPrefix: '/v1/vendors',
			method: 'POST',
		});
		const input = items('stop');

		const res = await env.run(vendorCreate, { items: input });

		expect(res.error).toBeDefined();
		expect(res.error!.message).toMatch(/SERVICE_UNAVAILABLE/);
		expect(String(res.error!.description)).toMatch(/may or may not have been processed/);
		const failedIndex = (res.error as unknown as { context: { itemIndex: number } }).context
			.itemIndex;
		const log = await requestLog(env);
		expect(log).toHaveLength(failedIndex + 1);
		expect(log[failedIndex].status).toBe(503);
		expect(log[failedIndex].body).toBeNull(); // a faulted request: not processed
		expect(log.slice(0, failedIndex).every((r) => r.status === 201)).toBe(true);
		expect(log.slice(0, failedIndex).map((r) => (r.body as IDataObject).name)).toEqual(
			input.slice(0, failedIndex).map((i) => i.name),
		);
		expect(failedIndex).toBeGreaterThan(0);
		expect(await allVendors(env)).toHaveLength(failedIndex);
	}, 60_000);
});
