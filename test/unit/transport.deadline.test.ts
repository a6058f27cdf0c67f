/**
 * The Deadline (deadline.ts) every wait of the transport is made on, on an injected fake clock:
 * what is charged, what fits, and that no sleep is longer than Node's timer limit.
 */
import {
	Deadline,
	MAX_TIMER_MS,
	OverBudgetError,
} from '../../nodes/BusinessFinance/transport/deadline';
import { FakeClock } from './transport-fakes';

let fake: FakeClock;
beforeEach(() => {
	fake = new FakeClock();
});

describe('Deadline', () => {
	it('charges every wait and fails a wait that does not fit, without waiting', async () => {
		const d = new Deadline(fake.clock, 5_000, undefined);
		await fake.run(d.wait(3_000));
		expect(fake.totalSlept).toBe(3_000);
		await expect(fake.run(d.wait(2_001))).rejects.toBeInstanceOf(OverBudgetError);
		expect(fake.totalSlept).toBe(3_000);
		await fake.run(d.wait(2_000));
		expect(d.leftMs).toBe(0);
	});

	it("charges the call's whole time, not only its waits", async () => {
		const d = new Deadline(fake.clock, 5_000, undefined);
		fake.now += 4_000; // an attempt that took 4 s
		expect(d.spentMs).toBe(4_000);
		await expect(fake.run(d.wait(1_001))).rejects.toBeInstanceOf(OverBudgetError);
		expect(fake.totalSlept).toBe(0);
	});

	it('a deadline for the whole call bounds what is left, whatever the budget', () => {
		const d = new Deadline(fake.clock, 60_000, undefined, fake.now + 2_000);
		fake.now += 500;
		expect(d.untilEndMs).toBe(1_500);
		expect(d.leftMs).toBe(1_500);
	});

	it("never asks the clock for a sleep longer than Node's timer limit (it would fire at once)", async () => {
		const d = new Deadline(fake.clock, 30 * 86_400_000, undefined);
		await fake.run(d.wait(25 * 86_400_000));
		expect(Math.max(...fake.sleeps)).toBe(MAX_TIMER_MS);
	});
});
