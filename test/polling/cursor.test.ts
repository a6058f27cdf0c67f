// docs/trigger.md "Polling trigger" guarantees over real HTTP (n8n-core's PollContext). A step
// expecting ['!'] expects the poll to fail.
import type { IDataObject } from 'n8n-workflow';

import { n8nLogger } from '../helpers/n8n';
import { type ListItem, PollHarness, stamp, useScriptedList } from './support';

const list = useScriptedList();

/** A transaction `ms` after the fixed start, or at the stamp given as the service writes it. */
const tx = (id: string, at: number | string, type = 'deposit'): ListItem => ({
	id,
	created_at: typeof at === 'string' ? at : stamp(at),
	type,
	amount: 1,
});
const ids = (items: IDataObject[]) => items.map((item) => (item.data as IDataObject).id);
const many = (prefix: string, count: number, ms: (i: number) => number) =>
	Array.from({ length: count }, (_, i) => tx(`${prefix}${String(i).padStart(4, '0')}`, ms(i)));
const NEW = many('n', 150, (i) => 10 + i);
const NEW_IDS = NEW.map((item) => item.id);
const activated = async (before: ListItem[], parameters: IDataObject = {}) => {
	list.add('transactions', ...before);
	const trigger = new PollHarness(parameters, list.baseUrl);
	expect(await trigger.activate()).toEqual([]);
	return trigger;
};

type Step = { add?: ListItem[]; during?: (index: number) => number | void; expect: string[] };
interface Case {
	name: string;
	before: ListItem[];
	steps: Step[];
	parameters?: IDataObject;
}

const CASES: Case[] = [
	{
		name: 'an item with the cursor’s created_at and a lower id, arriving later',
		before: [tx('m', 1)],
		steps: [
			{ add: [tx('x', 5)], expect: ['x'] },
			{ add: [tx('c', 5)], expect: ['c'] },
			{ add: [tx('d', 5), tx('z', 5)], expect: ['d', 'z'] },
			{ expect: [] },
		],
	},
	{
		name: 'more than 20 items at one created_at: a later one with a lower id is not seen (the limit)',
		before: [tx('old', 1)],
		steps: [
			{ add: many('e', 150, () => 7), expect: many('e', 150, () => 7).map((t) => t.id) },
			{ add: [tx('e0000a', 7), tx('e9999', 7)], expect: ['e9999'] },
		],
	},
	{
		name: 'an item inserted behind the reading at a timestamp it already passed: read again',
		before: many('a', 90, (i) => i),
		steps: [
			{
				add: many('e', 20, () => 500),
				// after page 1 of the first and of the second pass was read: one more at 500 with a low
				// id (on page 1), which shifts e0009 (then e0008) onto page 2: read twice
				during: (index) => {
					if (index === 1) list.add('transactions', tx('e0000a', 500), tx('g', 600));
					if (index === 3) list.add('transactions', tx('e0000b', 500));
				},
				expect: [...many('e', 20, () => 500).map((t) => t.id), 'e0000a', 'e0000b', 'g'].sort(),
			},
			{ expect: [] },
		],
	},
	{
		name: 'the first request failing: nothing emitted, cursor kept, all of it next poll',
		before: [tx('a', 0)],
		steps: [
			{ add: [tx('b', 1)], during: (index) => (index === 0 ? 400 : undefined), expect: ['!'] },
			{ expect: ['b'] },
		],
	},
	{
		name: 'items removed before the cursor: the list moved, the start page is searched again',
		before: many('a', 450, (i) => i),
		steps: [
			{ add: [tx('b', 1_000)], expect: ['b'] },
			{
				// the guessed page (5) now holds only new items: it no longer starts before the cursor
				add: many('c', 60, (i) => 1_001 + i),
				during: (index) => {
					if (index === 0) list.transactions.splice(0, 100);
				},
				expect: many('c', 60, (i) => 1_001 + i).map((t) => t.id),
			},
		],
	},
	{
		name: 'fractions trimmed of trailing zeros (…00.75912Z is 759.120 ms): a later item in the cursor’s millisecond is new',
		before: [tx('a', '2026-01-01T00:00:00.75912Z')],
		steps: [{ add: [tx('b', '2026-01-01T00:00:00.759121Z')], expect: ['b'] }, { expect: [] }],
	},
	{
		name: 'whole seconds written without a fraction (…05Z): an item 417 µs later is new',
		before: [tx('a', '2026-01-01T00:00:05Z')],
		steps: [{ add: [tx('b', '2026-01-01T00:00:05.000417Z')], expect: ['b'] }, { expect: [] }],
	},
	{
		name: 'the same instant written two ways (…05Z and …05.000Z) is one time: the id decides',
		before: [tx('m', '2026-01-01T00:00:05Z')],
		steps: [
			{
				add: [tx('c', '2026-01-01T00:00:05.000Z'), tx('z', '2026-01-01T00:00:05.000Z')],
				expect: ['z'],
			},
		],
	},
	{
		name: 'stamps with an offset: compared as instants (+02:00 is two hours earlier in UTC)',
		before: [tx('a', '2026-01-01T10:00:00Z')],
		steps: [
			// 11:00+02:00 is 09:00Z: older than the cursor; 13:00+02:00 is 11:00Z: new
			{
				add: [tx('old', '2026-01-01T11:00:00+02:00'), tx('b', '2026-01-01T13:00:00+02:00')],
				expect: ['b'],
			},
		],
	},
	{
		name: 'the newest item without created_at at activation: the cursor is the newest readable one, the item skipped',
		before: [
			tx('a', 0),
			tx('b', 1),
			{ id: 'c', type: 'deposit', amount: 1 } as unknown as ListItem,
		],
		steps: [{ add: [tx('d', 2)], expect: ['d'] }, { expect: [] }],
	},
	{
		name: 'a backdated item (older than the cursor) is not seen: the documented limit',
		before: [tx('a', 10)],
		steps: [{ add: [tx('old', 5), tx('b', 11)], expect: ['b'] }],
	},
	{
		name: 'Transaction Type: only that type',
		parameters: { transactionType: 'withdrawal' },
		before: [tx('a', 0, 'withdrawal')],
		steps: [{ add: [tx('d', 1, 'deposit'), tx('w', 2, 'withdrawal')], expect: ['w'] }],
	},
	{
		name: 'new items on later days: the from date moves with the cursor',
		before: [tx('a', 0)],
		steps: [
			{ add: [tx('b', 86_400_000), tx('c', 2 * 86_400_000)], expect: ['b', 'c'] },
			{ add: [tx('d', 2 * 86_400_000 + 1)], expect: ['d'] },
		],
	},
];

it.each(CASES)('$name', async ({ before, steps, parameters = {} }) => {
	const trigger = await activated(before, parameters);
	for (const step of steps) {
		list.add('transactions', ...(step.add ?? []));
		const start = list.requests.length;
		list.onRequest = step.during && (({ index }) => step.during!(index - start));
		if (step.expect[0] === '!') {
			await expect(trigger.poll()).rejects.toThrow();
		} else {
			expect(ids(await trigger.poll())).toEqual(step.expect);
		}
		list.onRequest = undefined;
	}
});

it.each([
	['a 400', 400, 2],
	['a 5xx that outlasts the retries', 503, 5], // page 1, then page 2 four times
])(
	'%s half-way: the pages before it are emitted, then the rest',
	async (_, status, requests) => {
		const trigger = await activated([tx('a', 0)]);
		list.add('transactions', ...NEW);
		const start = list.requests.length;
		list.onRequest = ({ index, query }) =>
			index > start && query.get('page') === '2' ? status : undefined;
		// page 1 holds 'a' and the first 99
		expect(ids(await trigger.poll())).toEqual(NEW_IDS.slice(0, 99));
		expect(list.requests.length - start).toBe(requests);
		list.onRequest = undefined;
		expect(ids(await trigger.poll())).toEqual(NEW_IDS.slice(99));
	},
	30_000,
);

it.each([
	['three passes at most: the one inserted in the third is the next poll’s', 0, 2, 'e0000c'],
	[
		'a later pass failing: the first pass’s items are emitted, the insert next poll',
		2,
		0,
		'e0000a',
	],
	[
		'the third pass failing: both passes’ items are emitted in order, the insert next poll',
		3,
		1,
		'e0000b',
	],
])('items inserted behind the reading in every pass, %s', async (_, failPass, extra, next) => {
	const trigger = await activated(many('a', 90, (i) => i));
	const first = many('e', 12, () => 500); // e0000–e0009 end page 1, e0010–e0011 on page 2
	list.add('transactions', ...first);
	const late = ['e0000a', 'e0000b', 'e0000c', 'e0000d'];
	let pageOneRequests = 0;
	// each page 2 asked for gets one more at 500 behind page 1's end: every pass reads one twice
	list.onRequest = ({ query }) => {
		if (query.get('page') === '2') list.add('transactions', tx(late.shift()!, 500));
		return query.get('page') === '1' && ++pageOneRequests === failPass ? 400 : undefined;
	};
	const emitted = [...first.map((t) => t.id), ...late.slice(0, extra)].sort();
	expect(ids(await trigger.poll())).toEqual(emitted);
	list.onRequest = undefined;
	expect(ids(await trigger.poll())).toEqual([next]);
});

it('a spent rate-limit budget half-way: emitted up to it, the rest next poll', async () => {
	list.add('transactions', tx('a', 0));
	const trigger = new PollHarness({}, list.baseUrl, 'svc_polling_429', 2_000);
	await trigger.activate();
	list.add('transactions', ...NEW);
	const start = list.requests.length;
	list.onRequest = ({ index }) => (index === start + 1 ? 429 : undefined);
	expect(ids(await trigger.poll())).toEqual(NEW_IDS.slice(0, 99));
	list.onRequest = undefined;
	// the limiter holds the key until the window the 429 named ends: a new budget after it
	const later = new PollHarness({}, list.baseUrl, 'svc_polling_429b');
	later.saved = trigger.saved;
	later.restart();
	expect(ids(await later.poll())).toEqual(NEW_IDS.slice(99));
});

it.each([
	[
		'a list element that is not an object',
		{ data: [{ id: 'x', created_at: stamp(5) }, 'x'] },
		/element 1 is not an object \(string\)/,
	],
	['no list in "data"', { data: { id: 'x' } }, /without a list in "data"/],
])('an answer with %s is refused with that reason, the cursor unmoved', async (_, body, reason) => {
	const trigger = await activated([tx('a', 0)]);
	const before = trigger.state();
	list.onRequest = () => ({ body: { ...body, meta: { total: 2, has_more: false } } });
	await expect(trigger.poll()).rejects.toThrow(reason);
	list.onRequest = undefined;
	expect(trigger.state()).toEqual(before);
	list.add('transactions', tx('b', 1));
	expect(ids(await trigger.poll())).toEqual(['b']);
});

it('a restart between polls: only what a poll emitted was saved, nothing skipped or repeated', async () => {
	const trigger = await activated([tx('a', 0)]);
	list.add('transactions', tx('b', 1));
	expect(ids(await trigger.poll())).toEqual(['b']);
	expect(ids(await trigger.poll())).toEqual([]); // changes nothing worth saving
	trigger.restart();
	list.add('transactions', tx('c', 2));
	expect(ids(await trigger.poll())).toEqual(['c']);
});

it('Fetch Test Event: the newest item as an event, the cursor untouched', async () => {
	const trigger = await activated([tx('a', 0), tx('b', 1)]);
	const before = trigger.state();
	const [event] = await trigger.fetchTestEvent();
	expect(event).toEqual({
		id: 'treasury.transaction.created:b',
		type: 'treasury.transaction.created',
		created_at: stamp(1),
		data: tx('b', 1),
	});
	expect(trigger.state()).toEqual(before);
});

it('Output Data Only: the transaction alone', async () => {
	const trigger = await activated([], { options: { output: 'data' } });
	list.add('transactions', tx('a', 0));
	const [item] = await trigger.poll();
	expect(item).toMatchObject({ id: 'a', created_at: stamp(0) });
});

it('changing Trigger On starts afresh: the activation of the new choice emits nothing', async () => {
	const trigger = await activated([tx('a', 0)]);
	trigger.node.parameters.transactionType = 'deposit';
	expect(await trigger.poll()).toEqual([]);
	list.add('transactions', tx('b', 1));
	expect(ids(await trigger.poll())).toEqual(['b']);
});

it('Vendor Changed: each change once, in updated_at order; new vendors are not changes', async () => {
	const vendor = (id: string, created: number, updated = created): ListItem => ({
		id,
		created_at: stamp(created),
		updated_at: stamp(updated),
	});
	list.add('vendors', vendor('a', 0), vendor('b', 1, 5));
	const trigger = await activated([], { event: 'vendor.updated' });
	list.vendors = [vendor('a', 0, 9), vendor('b', 1, 7), vendor('c', 2)];
	const events = await trigger.poll();
	expect(events.map((e) => e.id)).toEqual([
		`vendor.updated:b:${stamp(7)}`,
		`vendor.updated:a:${stamp(9)}`,
	]);
	expect(await trigger.poll()).toEqual([]);
	list.vendors = [vendor('a', 0, 9), vendor('b', 1, 9), vendor('c', 2)];
	expect(ids(await trigger.poll())).toEqual(['b']);
});

it('timestamps without an offset are UTC, whatever n8n’s time zone (the suite runs west of UTC)', async () => {
	// jest.config.js runs the suite in America/New_York unless TZ says otherwise
	if (process.env.TZ === 'America/New_York') expect(new Date(2026, 0, 1, 21).getUTCHours()).toBe(2);
	// read as New York time, 21:00 would be 02:00Z the next day: after b, which would never come
	const trigger = await activated([tx('a', '2026-01-01T21:00:00')]);
	list.add('transactions', tx('b', '2026-01-01T21:30:00Z'), tx('c', '2026-01-01T22:00:00'));
	expect(ids(await trigger.poll())).toEqual(['b', 'c']);
});

it('an item skipped for its created_at is named in n8n’s log once, not at every poll', async () => {
	const warnings = jest.spyOn(n8nLogger(), 'warn');
	try {
		// New Vendor: no from-date filter, which would leave the item out at the service
		list.add('vendors', tx('a', 0));
		const trigger = new PollHarness({ event: 'vendor.created' }, list.baseUrl);
		expect(await trigger.activate()).toEqual([]);
		list.add('vendors', tx('b', 1), tx('bad', ''));
		expect(ids(await trigger.poll())).toEqual(['b']);
		expect(await trigger.poll()).toEqual([]);
		const said = warnings.mock.calls
			.map(([message]) => String(message))
			.filter((m) => m.includes('"bad"'));
		expect(said).toEqual([
			expect.stringMatching(
				/skipped vendor "bad": its created_at \(""\) is not an ISO 8601 timestamp/,
			),
		]);
	} finally {
		warnings.mockRestore();
	}
});

it('activation refuses a list whose newest items have no readable created_at (it would take every item as new)', async () => {
	list.add('transactions', tx('a', 0), { id: 'b', type: 'deposit' } as unknown as ListItem);
	const trigger = new PollHarness({}, list.baseUrl);
	list.transactions = [tx('a', 0), { id: 'b', type: 'deposit' } as unknown as ListItem].slice(1);
	await expect(trigger.activate()).rejects.toThrow(/newest items have no readable created_at/);
});

describe('a service that lies about its pages: the read ends as the transport’s listing does', () => {
	const answerWith = (data: ListItem[], total: number, page: number) => ({
		body: { data, meta: { page, limit: 100, total, has_more: true } },
	});

	it('page 1 again for every page (page ignored, has_more true): each new item once, then a failed poll naming the repeat; a few requests each', async () => {
		const trigger = await activated([tx('a', 0)]);
		list.add('transactions', tx('b', 1), tx('c', 2));
		const lying = (start: number) => {
			list.onRequest = ({ query }) =>
				answerWith(list.transactions, 1_000, Number(query.get('page')));
			return start;
		};
		let start = lying(list.requests.length);
		expect(ids(await trigger.poll())).toEqual(['b', 'c']);
		expect(list.requests.length - start).toBeLessThanOrEqual(3);
		start = list.requests.length;
		await expect(trigger.poll()).rejects.toThrow(
			/returned page \d+ of \/v1\/treasury\/transactions again/,
		);
		expect(list.requests.length - start).toBeLessThanOrEqual(3);
	});

	it('new ids on every page past what meta.total allows (150: two pages): the read ends after one page more', async () => {
		const trigger = await activated([tx('a', 0)]);
		let serial = 0;
		const start = list.requests.length;
		list.onRequest = ({ query }) => {
			const page = Number(query.get('page'));
			const made = Array.from({ length: 100 }, () =>
				tx(`g${String(serial++).padStart(5, '0')}`, 10 + serial),
			);
			return answerWith(page === 1 ? [tx('a', 0), ...made.slice(1)] : made, 150, page);
		};
		const emitted = await trigger.poll();
		expect(list.requests.length - start).toBeLessThanOrEqual(4); // pages 1–3, and no more
		expect(emitted.length).toBeLessThanOrEqual(300);
	});
});

describe('an activation whose page meta.total points to is empty starts after the newest item, never from nothing', () => {
	/** Pages of `size` from the list, with `meta.total` said to be `total`. */
	const pagesWith = (size: number, total: number) => {
		list.onRequest = ({ query }) => {
			const page = Number(query.get('page'));
			const data = list.transactions.slice((page - 1) * size, page * size);
			return { body: { data, meta: { page, limit: size, total, has_more: page * size < total } } };
		};
	};
	it.each([
		['an item removed between page 1 and the last page (total one too high)', 100, 201],
		['a total that counts more than the filter lets through (twice the items)', 100, 400],
		['pages larger than asked for (200 a page)', 200, 200],
	])('%s: the next poll emits only what is new', async (_, size, total) => {
		const trigger = new PollHarness({}, list.baseUrl);
		list.add('transactions', ...many('o', 200, (i) => i));
		pagesWith(size, total);
		expect(await trigger.activate()).toEqual([]);
		list.onRequest = undefined;
		list.add('transactions', tx('new', 5_000));
		expect(ids(await trigger.poll())).toEqual(['new']);
	});
});

describe('a removal, then a page that fails', () => {
	it('the poll emits nothing (the removal moved an item onto a page already read); the next poll emits every new item once, that one included', async () => {
		const trigger = await activated([tx('a', 0)]);
		const added = many('n', 250, (i) => 10 + i);
		list.add('transactions', ...added);
		let failing = true;
		list.onRequest = ({ query }) => {
			const page = Number(query.get('page'));
			// n0005 (page 1, read) is removed before page 2 is answered: n0099 moves onto page 1
			if (page === 2) list.transactions = list.transactions.filter((t) => t.id !== 'n0005');
			return page === 3 && failing ? 500 : undefined;
		};
		await expect(trigger.poll()).rejects.toThrow(/500|INTERNAL_ERROR/);
		failing = false;
		const left = added.map((t) => t.id).filter((id) => id !== 'n0005');
		expect(ids(await trigger.poll())).toEqual(left);
		expect(await trigger.poll()).toEqual([]);
	});
});

describe('a list that is not oldest first is refused, never read as new', () => {
	const ORDER =
		/does not list \/v1\/treasury\/transactions oldest first: created_at .* comes before /;

	it.each([
		['one page (40 transactions)', 40],
		['several pages (250 transactions)', 250],
	])('activation on %s listed newest first: refused, nothing emitted', async (_, count) => {
		list.add('transactions', ...many('o', count, (i) => i));
		list.newestFirst = true;
		const trigger = new PollHarness({}, list.baseUrl);
		await expect(trigger.activate()).rejects.toThrow(ORDER);
		expect(trigger.saved).toEqual({});
	});

	it('a service that turns newest first after activation: the poll fails with the reason, nothing emitted, the cursor kept', async () => {
		const trigger = await activated(many('o', 40, (i) => i));
		const before = trigger.state();
		list.add('transactions', ...many('n', 5, (i) => 100 + i));
		list.newestFirst = true;
		await expect(trigger.poll()).rejects.toThrow(ORDER);
		expect(trigger.state()).toEqual(before);
		list.newestFirst = false;
		expect(ids(await trigger.poll())).toEqual(many('n', 5, (i) => 100 + i).map((t) => t.id));
	});

	it('ties in any id order are not refused: the order checked is created_at’s', async () => {
		const trigger = await activated([tx('a', 0)]);
		list.add('transactions', tx('b', 1));
		list.onRequest = ({ query }) => ({
			body: {
				data: [tx('a', 0), tx('z', 1), tx('b', 1)],
				meta: { page: Number(query.get('page')), limit: 100, total: 3, has_more: false },
			},
		});
		expect(ids(await trigger.poll()).sort()).toEqual(['b', 'z']);
	});
});

it('vendors removed while a poll pages (meta.total drops): read again, none of the new ones skipped', async () => {
	const old = many('o', 150, (i) => i);
	list.add('vendors', ...old);
	const trigger = new PollHarness({ event: 'vendor.created' }, list.baseUrl);
	expect(await trigger.activate()).toEqual([]);
	const fresh = many('n', 100, (i) => 1_000 + i);
	list.add('vendors', ...fresh);
	let removed = false;
	list.onRequest = ({ query }) => {
		// before page 3: 5 old vendors leave page 1, and 5 new ones move from page 3 onto page 2
		if (query.get('page') === '3' && !removed) {
			removed = true;
			list.vendors = list.vendors.filter((v) => !old.slice(0, 5).includes(v));
		}
	};
	expect(ids(await trigger.poll())).toEqual(fresh.map((v) => v.id));
	expect(removed).toBe(true);
	list.onRequest = undefined;
	expect(await trigger.poll()).toEqual([]);
});
