/**
 * Property: across 100 polls with items added between polls and while a poll pages (created_at
 * never before the newest item, up to 20 items per created_at, as docs/trigger.md's guarantees
 * assume), every item added after activation is emitted exactly once, in created_at order.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { type ListItem, PollHarness, stamp, useScriptedList } from './support';

const list = useScriptedList();

/** One change to the list: how many items, each at the same or a later time (ties kept ≤ 20). */
const batch = fc.array(
	fc.record({
		later: fc.boolean(),
		id: fc.integer({ min: 0, max: 0xffffffff }).map((n) => n.toString(16)),
	}),
	{
		maxLength: 130,
	},
);
const round = fc.record({ between: batch, during: batch, atRequest: fc.nat(4) });

it('every item exactly once, in order, over 100 polls', async () => {
	await fc.assert(
		fc.asyncProperty(fc.array(round, { minLength: 100, maxLength: 100 }), async (rounds) => {
			list.transactions = [];
			list.onRequest = undefined;
			let clock = 0;
			let tie = 0;
			let serial = 0;
			const make = (spec: Array<{ later: boolean; id: string }>): ListItem[] =>
				spec.map(({ later, id }) => {
					if (later || tie >= 20) [clock, tie] = [clock + 1, 0];
					tie += 1;
					return { id: `${id}-${serial++}`, created_at: stamp(clock), type: 'deposit' };
				});
			list.add('transactions', { id: 'first', created_at: stamp(clock++), type: 'deposit' });
			const trigger = new PollHarness({}, list.baseUrl);
			await trigger.activate();
			const added: string[] = [];
			const emitted: IDataObject[] = [];
			for (const { between, during, atRequest } of rounds) {
				const now = make(between);
				list.add('transactions', ...now);
				added.push(...now.map((t) => t.id));
				const start = list.requests.length;
				list.onRequest = ({ index }) => {
					if (index - start !== atRequest) return;
					const meanwhile = make(during);
					list.add('transactions', ...meanwhile);
					added.push(...meanwhile.map((t) => t.id));
				};
				emitted.push(...(await trigger.poll()).map((e) => e.data as IDataObject));
				list.onRequest = undefined;
			}
			emitted.push(...(await trigger.poll()).map((e) => e.data as IDataObject));
			const got = emitted.map((t) => String(t.id));
			expect(new Set(got).size).toBe(got.length);
			expect([...got].sort()).toEqual([...added].sort());
			const stamps = emitted.map((t) => String(t.created_at));
			expect(stamps).toEqual([...stamps].sort());
		}),
		{ numRuns: 5, endOnFailure: true },
	);
}, 120_000);
