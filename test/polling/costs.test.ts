/** Issue 36's targets, measured at the scripted service. */
import { type ListItem, PollHarness, stamp, useScriptedList } from './support';

const list = useScriptedList();

const items = (prefix: string, count: number, from: number): ListItem[] =>
	Array.from({ length: count }, (_, i) => ({
		id: `${prefix}-${String(i).padStart(6, '0')}`,
		created_at: stamp(from + i),
		updated_at: stamp(from + i),
		type: 'deposit',
	}));

async function measured(trigger: PollHarness) {
	const before = list.requests.length;
	const emitted = await trigger.poll();
	return { requests: list.requests.length - before, emitted: emitted.length };
}

it.each([
	['New Treasury Transaction', 'treasury.transaction.created', 'transactions'],
	['New Vendor', 'vendor.created', 'vendors'],
] as const)('%s, 10k items: idle ≤ 2 requests, 250 new ≤ 5, moved ≤ 10', async (_, event, name) => {
	list.add(name, ...items('a', 10_000, 0));
	const trigger = new PollHarness({ event }, list.baseUrl);
	await trigger.activate();
	const idle = await measured(trigger);
	list.add(name, ...items('b', 250, 20_000));
	const busy = await measured(trigger);
	const idleAgain = await measured(trigger);
	// 10,000 inserted before the cursor (backdated): the guessed page ends before it, so halves
	list.add(name, ...items('z', 10_000, 10_000));
	const moved = await measured(trigger);
	console.log(
		`${event}: nothing new ${idle.requests}, 250 new ${busy.requests}, then ${idleAgain.requests}, moved ${moved.requests}`,
	);
	expect(idle).toEqual({ requests: expect.any(Number), emitted: 0 });
	expect(idle.requests).toBeLessThanOrEqual(2);
	expect(busy.emitted).toBe(250);
	expect(busy.requests).toBeLessThanOrEqual(5);
	expect(idleAgain.requests).toBeLessThanOrEqual(2);
	expect(moved).toEqual({ requests: expect.any(Number), emitted: 0 });
	expect(moved.requests).toBeLessThanOrEqual(10);
});

it('static data after 100,000 items (20 of them at one created_at): ≤ 2 KB', async () => {
	const trigger = new PollHarness({}, list.baseUrl);
	await trigger.activate();
	const all = items('t', 100_000, 0);
	for (const t of all.slice(-20)) t.created_at = stamp(200_000);
	for (const t of all) t.id = `${t.id}-0b4e7c1e-9f0a-4a5e-8d2c-3f6b1a7e9c00`; // uuid-long ids
	list.add('transactions', ...all);
	let emitted = 0;
	for (let poll = 0; poll < 20 && emitted < all.length; poll++)
		emitted += (await trigger.poll()).length;
	expect(emitted).toBe(100_000);
	const savedBytes = Buffer.byteLength(JSON.stringify(trigger.saved));
	console.log(`static data after 100,000 items: ${savedBytes} bytes`);
	expect(savedBytes).toBeLessThanOrEqual(2048);
}, 120_000);

it('Vendor Changed costs one request per 100 vendors (the whole list)', async () => {
	list.add('vendors', ...items('v', 1_000, 0));
	const trigger = new PollHarness({ event: 'vendor.updated' }, list.baseUrl);
	await trigger.activate();
	expect(await measured(trigger)).toEqual({ requests: 10, emitted: 0 });
});
