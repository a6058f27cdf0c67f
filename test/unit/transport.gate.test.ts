/**
 * The per-key rate-limit gate (gate.ts) and the budget its callers wait on (budget.ts), on an
 * injected fake clock: what one answer can do to a key at most, and that every wait is bounded,
 * cancellable and leaves nothing behind.
 */
import fc from 'fast-check';

import {
	Budget,
	CancelledError,
	OverBudgetError,
} from '../../nodes/BusinessFinance/transport/budget';
import { KeyGate, MAX_KEY_BLOCK_MS, type Ticket } from '../../nodes/BusinessFinance/transport/gate';
import { SPEC_WINDOW_MS } from '../../nodes/BusinessFinance/transport/window';
import { FakeClock } from './transport-fakes';

let fake: FakeClock;
let gate: KeyGate;
beforeEach(() => {
	fake = new FakeClock();
	gate = new KeyGate(fake.clock, true);
});

const budget = (ms: number, cancel?: AbortSignal) => new Budget(fake.clock, ms, cancel);
const seconds = (fromNowMs: number) => String(Math.ceil((fake.now + fromNowMs) / 1000));
const timing = () => ({ sentAtMs: fake.now, receivedAtMs: fake.now });

/** Acquire and release at once; how long the acquire waited (virtual ms). */
async function pass(
	waitBudgetMs = 10 * SPEC_WINDOW_MS,
	headers?: Record<string, string>,
): Promise<number> {
	const started = fake.now;
	const ticket = await fake.run(gate.acquire(budget(waitBudgetMs)));
	if (headers) ticket.answered(headers, timing());
	ticket.release();
	return fake.now - started;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
	try {
		await promise;
	} catch (error) {
		return error;
	}
	throw new Error('expected a rejection');
}

describe('what one answer can do to a key at most', () => {
	it('a 429 asking for a day blocks the key for at most MAX_KEY_BLOCK_MS', async () => {
		gate.rateLimited(fake.now + 86_400_000, fake.now, { sentAtMs: fake.now });
		expect(await pass()).toBe(MAX_KEY_BLOCK_MS);
	});

	it('a wait longer than the budget fails at once, without sleeping', async () => {
		gate.rateLimited(fake.now + 30_000, fake.now, { sentAtMs: fake.now });
		const error = await rejection(fake.run(gate.acquire(budget(1_000))));
		expect(error).toBeInstanceOf(OverBudgetError);
		expect((error as OverBudgetError).neededMs).toBe(30_000);
		expect(fake.totalSlept).toBe(0);
	});

	it('"remaining 0" with a reset a day ahead holds back for at most MAX_KEY_BLOCK_MS', async () => {
		await pass(0, {
			'x-ratelimit-limit': '100',
			'x-ratelimit-remaining': '0',
			'x-ratelimit-reset': seconds(86_400_000),
		});
		expect(await pass()).toBe(MAX_KEY_BLOCK_MS);
	});

	it('"remaining 0" without a usable reset: a backoff from 0.5–1 s, doubling, never over a window', async () => {
		const zero = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0' };
		await pass(0, zero);
		const waits: number[] = [];
		for (let i = 0; i < 9; i++) waits.push(await pass(10 * SPEC_WINDOW_MS, zero));
		expect(waits).toEqual([750, 1_500, 3_000, 6_000, 12_000, 24_000, 45_000, 45_000, 45_000]);
		await pass(SPEC_WINDOW_MS, { ...zero, 'x-ratelimit-remaining': '5' }); // the count resets
		expect(await pass(SPEC_WINDOW_MS, zero)).toBe(0);
		expect(await pass()).toBe(750);
	});

	it('property: whatever the answers said, after MAX_KEY_BLOCK_MS of silence the key admits a request at once', async () => {
		const headerValue = fc.oneof(
			fc.string(),
			fc.nat().map(String),
			fc.integer({ min: -1e13, max: 1e13 }).map(String),
			fc.integer({ min: -86_400, max: 10 * 86_400 }).map((s) => seconds(s * 1000)),
		);
		const answer = fc.record(
			{
				'x-ratelimit-limit': headerValue,
				'x-ratelimit-remaining': headerValue,
				'x-ratelimit-reset': headerValue,
				'retry-after': headerValue,
				date: fc.oneof(
					fc.string(),
					fc
						.integer({ min: -1e7, max: 1e7 })
						.map((d) => new Date(fake.now + d * 1000).toUTCString()),
				),
			},
			{ requiredKeys: [] },
		);
		const event = fc.oneof(
			answer.map((headers) => ({ kind: 'answer' as const, headers })),
			fc.nat(10 * 86_400_000).map((ms) => ({ kind: '429' as const, ms })),
		);
		await fc.assert(
			fc.asyncProperty(fc.array(event, { maxLength: 8 }), async (events) => {
				fake = new FakeClock();
				gate = new KeyGate(fake.clock, true);
				for (const e of events) {
					if (e.kind === '429') gate.rateLimited(fake.now + e.ms, fake.now, { sentAtMs: fake.now });
					else gate.record(e.headers as Record<string, string>, timing());
				}
				fake.now += MAX_KEY_BLOCK_MS;
				const ticket = await fake.run(gate.acquire(budget(0)));
				ticket.release();
			}),
			{ numRuns: 300 },
		);
	});
});

describe('queueing behind the first request on a key', () => {
	it('while the count is unknown one request goes first and the others wait until it is answered', async () => {
		const probe = await fake.run(gate.acquire(budget(0)));
		const waiter = gate.acquire(budget(60_000));
		void fake.clock.sleep(2_000).then(() => {
			probe.answered(
				{
					'x-ratelimit-limit': '100',
					'x-ratelimit-remaining': '99',
					'x-ratelimit-reset': seconds(60_000),
				},
				timing(),
			);
			probe.release();
		});
		const second = await fake.run(waiter);
		second.release();
		expect(fake.now).toBe(1_800_000_002_000);
		expect(gate.waiting).toBe(0);
	});

	it('a caller whose budget ends first stops waiting at its budget and leaves no waiter or timer', async () => {
		const probe = await fake.run(gate.acquire(budget(0)));
		const error = await rejection(fake.run(gate.acquire(budget(1_000))));
		expect(error).toBeInstanceOf(OverBudgetError);
		expect((error as OverBudgetError).untilWoken).toBe(true);
		expect(fake.now).toBe(1_800_000_001_000);
		expect(gate.waiting).toBe(0);
		expect(fake.pendingTimers).toBe(0);
		probe.release();
	});

	it('a cancelled caller stops at once and leaves no waiter or timer', async () => {
		const probe = await fake.run(gate.acquire(budget(0)));
		const execution = new AbortController();
		void fake.clock.sleep(300).then(() => execution.abort());
		const error = await rejection(fake.run(gate.acquire(budget(60_000, execution.signal))));
		expect(error).toBeInstanceOf(CancelledError);
		expect(fake.now).toBe(1_800_000_000_300);
		expect(gate.waiting).toBe(0);
		expect(fake.pendingTimers).toBe(0);
		probe.release();
	});

	it('without rate-limit headers nothing is tracked and nobody queues', async () => {
		const first = await fake.run(gate.acquire(budget(0)));
		first.answered({}, timing());
		first.release();
		const tickets = await fake.run(
			Promise.all(Array.from({ length: 5 }, () => gate.acquire(budget(0)))),
		);
		expect(tickets).toHaveLength(5);
	});

	it('counts the requests still in flight: an answer says what remained when it was counted', async () => {
		await pass(0, {
			'x-ratelimit-limit': '5',
			'x-ratelimit-remaining': '3',
			'x-ratelimit-reset': seconds(10_000),
		});
		const [a, b] = await fake.run(Promise.all([gate.acquire(budget(0)), gate.acquire(budget(0))]));
		a.answered(
			{
				'x-ratelimit-limit': '5',
				'x-ratelimit-remaining': '2',
				'x-ratelimit-reset': seconds(10_000),
			},
			timing(),
		);
		a.release();
		b.release(); // no answer (a connection reset, say): it may have been counted
		// 2 remained when `a` was counted, and `b` was on its way: one is left.
		await pass(0);
		await expect(fake.run(gate.acquire(budget(0)))).rejects.toBeInstanceOf(OverBudgetError);
	});

	const limitFive = (remaining: number) => ({
		'x-ratelimit-limit': '5',
		'x-ratelimit-remaining': String(remaining),
		'x-ratelimit-reset': seconds(10_000),
	});

	/**
	 * `a` and `b` on their way; the service counts both before it answers `a`. Taking `b` as
	 * uncounted, `a2` gets what looks like the last slot.
	 */
	async function bCountedBeforeAWasAnswered() {
		await pass(0, limitFive(4));
		const [a, b] = await fake.run(Promise.all([gate.acquire(budget(0)), gate.acquire(budget(0))]));
		a.answered(limitFive(2), timing());
		a.release();
		const a2 = await fake.run(gate.acquire(budget(0)));
		return { b, a2 };
	}

	it('a request the service counted before another request was answered gives its slot back once answered', async () => {
		const { b, a2 } = await bCountedBeforeAWasAnswered();
		await expect(fake.run(gate.acquire(budget(0)))).rejects.toBeInstanceOf(OverBudgetError);
		b.answered(limitFive(2), timing()); // `b`'s answer: it was among the 3 already counted
		b.release();
		a2.answered(limitFive(1), timing());
		a2.release();
		// 4 requests counted, one left: it is admitted, and then nothing more.
		await pass(0);
		await expect(fake.run(gate.acquire(budget(0)))).rejects.toBeInstanceOf(OverBudgetError);
	});

	it('a caller waiting for a slot is admitted as soon as an answer gives one back, not at the end of the window', async () => {
		const { b, a2 } = await bCountedBeforeAWasAnswered();
		const waiter = gate.acquire(budget(60_000));
		void fake.clock.sleep(300).then(() => {
			b.answered(limitFive(2), timing()); // `b`'s answer: one slot is left after `a2`
			b.release();
		});
		(await fake.run(waiter)).release();
		expect(fake.now).toBe(1_800_000_000_300);
		a2.release();
	});
	it('a caller whose budget ends before the window still takes a slot an answer gives back', async () => {
		const { b, a2 } = await bCountedBeforeAWasAnswered();
		const waiter = gate.acquire(budget(1_000)); // the window ends in 10 s
		void fake.clock.sleep(300).then(() => {
			b.answered(limitFive(2), timing());
			b.release();
		});
		(await fake.run(waiter)).release();
		expect(fake.now).toBe(1_800_000_000_300);
		a2.release();
	});

	it('with no answer giving a slot back, such a caller fails at the end of its budget', async () => {
		const { b, a2 } = await bCountedBeforeAWasAnswered();
		const error = await rejection(fake.run(gate.acquire(budget(1_000))));
		expect(error).toBeInstanceOf(OverBudgetError);
		expect(fake.now).toBe(1_800_000_001_000);
		expect(gate.waiting).toBe(0);
		b.release();
		a2.release();
	});

	it('an answer that does not tell the count (a gateway 504, say) keeps its slot taken', async () => {
		await pass(0, limitFive(4));
		await pass(0, {}); // counted by the service, perhaps: the gateway does not say
		for (let i = 0; i < 3; i++) await pass(0);
		await expect(fake.run(gate.acquire(budget(0)))).rejects.toBeInstanceOf(OverBudgetError);
	});

	const fromNow = (remaining: number, seconds: number) => ({
		'x-ratelimit-limit': '5',
		'x-ratelimit-remaining': String(remaining),
		'x-ratelimit-reset': String(seconds),
	});

	it('a reset sent as seconds from now, a little earlier on a later answer, is still the same window', async () => {
		await pass(0, fromNow(4, 60));
		fake.now += 500;
		await pass(0, fromNow(0, 59)); // 500 ms earlier than the first answer's, same window
		await expect(fake.run(gate.acquire(budget(0)))).rejects.toBeInstanceOf(OverBudgetError);
	});

	it('a reset sent as seconds from now, a little later on a later answer, is still the same window', async () => {
		await pass(0, fromNow(4, 60));
		(await fake.run(gate.acquire(budget(0)))).release(); // no answer: it may be counted yet
		fake.now += 500;
		await pass(0, fromNow(3, 60)); // 500 ms later than the first answer's; the other not counted
		// 3 remained, less the one that got no answer, less nothing on its way: 2.
		for (let i = 0; i < 2; i++) await pass(0);
		await expect(fake.run(gate.acquire(budget(0)))).rejects.toBeInstanceOf(OverBudgetError);
	});

	it('a late answer from an earlier window says nothing about the current one', async () => {
		const earlierReset = seconds(10_000);
		await pass(0, limitFive(4));
		const late = await fake.run(gate.acquire(budget(0)));
		fake.now += 11_000; // that window is over; the next one opens
		await pass(0, limitFive(4));
		late.answered({ ...limitFive(0), 'x-ratelimit-reset': earlierReset }, timing());
		late.release();
		for (let i = 0; i < 4; i++) await pass(0);
		await expect(fake.run(gate.acquire(budget(0)))).rejects.toBeInstanceOf(OverBudgetError);
	});
});

describe('a service that counts concurrent requests in any order', () => {
	interface InFlight {
		ticket: Ticket;
		countedAs?: number;
	}

	/**
	 * Callers on one key against a service that counts each request at some moment while it is on
	 * its way and reports the count as of counting or of answering: a random schedule of sends,
	 * countings and answers (with `failures`, also requests that get no answer or one without the
	 * count, counted or not),
	 * then every request left is counted and answered.
	 */
	async function schedule(
		limit: number,
		callers: number,
		steps: number[],
		asAnswered: boolean,
		failures = false,
	) {
		fake = new FakeClock();
		gate = new KeyGate(fake.clock, true);
		let count = 1; // the request that opened the window
		let mostCounted = count;
		let failed = 0;
		const said = (n: number) => ({
			'x-ratelimit-limit': String(limit),
			'x-ratelimit-remaining': String(limit - n),
			'x-ratelimit-reset': seconds(10_000),
		});
		await pass(0, said(count));
		const onTheirWay: InFlight[] = [];
		const tryToSend = async () => {
			try {
				onTheirWay.push({ ticket: await fake.run(gate.acquire(budget(0))) });
			} catch (error) {
				expect(error).toBeInstanceOf(OverBudgetError);
			}
		};
		const countOne = (r: InFlight) => {
			count += 1;
			mostCounted = Math.max(mostCounted, count);
			r.countedAs = count;
		};
		const answer = (index: number) => {
			const [r] = onTheirWay.splice(index, 1);
			if (r.countedAs === undefined) countOne(r);
			r.ticket.answered(said(asAnswered ? count : (r.countedAs as number)), timing());
			r.ticket.release();
		};
		const fail = (index: number, withoutCount: boolean) => {
			const [r] = onTheirWay.splice(index, 1);
			failed += 1;
			// a gateway's answer without the count, or a timeout or a reset: counted or not
			if (withoutCount) r.ticket.answered({}, timing());
			r.ticket.release();
		};
		for (const step of steps) {
			const uncounted = onTheirWay.filter((r) => r.countedAs === undefined);
			if (failures && step % 7 === 6 && onTheirWay.length > 0) {
				fail(step % onTheirWay.length, step % 2 === 0);
				continue;
			}
			if (step % 3 === 0 && onTheirWay.length < callers) await tryToSend();
			else if (step % 3 === 1 && uncounted.length > 0) countOne(uncounted[step % uncounted.length]);
			else if (onTheirWay.length > 0) answer(step % onTheirWay.length);
		}
		while (onTheirWay.length > 0) answer(0);
		// Now alone on the key: it sends while the gate admits.
		for (let sent = true; sent;) {
			const before = onTheirWay.length;
			await tryToSend();
			sent = onTheirWay.length > before;
			if (sent) answer(0);
		}
		return { mostCounted, count, failed };
	}

	it('property: the count never passes the limit, and no slot of the window is left unused (but those of requests that got no answer)', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 2, max: 12 }),
				fc.integer({ min: 1, max: 4 }),
				fc.array(fc.nat({ max: 1000 }), { minLength: 0, maxLength: 120 }),
				fc.boolean(),
				fc.boolean(),
				async (limit, callers, steps, asAnswered, failures) => {
					const run = await schedule(limit, callers, steps, asAnswered, failures);
					expect(run.mostCounted).toBeLessThanOrEqual(limit);
					// each one unanswered may cost its slot, whether the service counted it or not
					expect(run.count).toBeGreaterThanOrEqual(limit - run.failed);
				},
			),
			{ numRuns: 500 },
		);
	});
});

describe('a 429 in a window, with a learnt window length (several processes on one key)', () => {
	const LIMIT = '5';
	let openedAtMs: number;
	let resetMs: number;
	beforeEach(async () => {
		// This process opens a 2 s window 0.3 s after a whole second: it ends at 2.3 s, and its
		// whole-second X-RateLimit-Reset says 3 s.
		fake.now += 300;
		openedAtMs = fake.now;
		resetMs = Math.ceil((openedAtMs + 2_000) / 1000) * 1000;
		const headers = {
			'x-ratelimit-limit': LIMIT,
			'x-ratelimit-remaining': '4',
			'x-ratelimit-reset': String(resetMs / 1000),
		};
		await pass(0, headers);
		expect(gate.learner.learntLengthMs).toBe(2_000);
	});

	it('used up early by another process: held until the learnt end, not the reset, and the length is kept', async () => {
		fake.now += 500;
		const endMs = gate.rateLimited(resetMs + 50, fake.now, {
			sentAtMs: fake.now - 3,
			windowResetAtMs: resetMs,
		});
		expect(endMs).toBe(openedAtMs + 2_000 + 5);
		expect(gate.learner.learntLengthMs).toBe(2_000);
		expect(fake.now + (await pass())).toBe(endMs);
	});

	it('a 429 to a request sent after the learnt end, in the same window, disproves the length', async () => {
		fake.now = openedAtMs + 2_005;
		const endMs = gate.rateLimited(resetMs + 50, fake.now, {
			sentAtMs: fake.now,
			windowResetAtMs: resetMs,
		});
		expect(endMs).toBe(resetMs + 50);
		expect(gate.learner.learntLengthMs).toBeUndefined();
	});

	it('a 429 with Retry-After, or naming a window another process opened, waits as asked', async () => {
		fake.now += 500;
		expect(gate.rateLimited(fake.now + 7_000, fake.now, { sentAtMs: fake.now })).toBe(
			fake.now + 7_000,
		);
		fake.now += 1_600;
		const next = resetMs + 2_000;
		expect(
			gate.rateLimited(next + 50, fake.now, { sentAtMs: fake.now, windowResetAtMs: next }),
		).toBe(next + 50);
		expect(gate.learner.learntLengthMs).toBe(2_000);
	});
});

describe('Budget', () => {
	it('charges every wait and fails a wait that does not fit, without waiting', async () => {
		const b = budget(5_000);
		await fake.run(b.wait(3_000));
		expect(b.waitedMs).toBe(3_000);
		await expect(fake.run(b.wait(2_001))).rejects.toBeInstanceOf(OverBudgetError);
		expect(b.waitedMs).toBe(3_000);
		await fake.run(b.wait(2_000));
		expect(b.leftMs).toBe(0);
	});
});
