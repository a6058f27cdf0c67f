/**
 * The duplicate memory (nodes/BusinessFinance/trigger/duplicates.ts) under bursts larger than its
 * old 2,000-id bound: every copy of a verified delivery that arrives while an earlier copy could
 * still verify is reported as a duplicate, so each id starts the workflow once.
 */
import fc from 'fast-check';

import { recordVerified, replayableUntil } from '../../nodes/BusinessFinance/trigger/duplicates';

/** A copy's place in its window, in millionths, so that one shape fits any tolerance. */
const SCALE = 1_000_000;
const fraction = fc.integer({ min: 0, max: SCALE });
/** A timestamp anywhere the tolerance allows: from a full tolerance behind to a full one ahead. */
const skew = fc.integer({ min: -SCALE, max: SCALE });
const idSpec = fc.record({
	arrival: fraction,
	skew,
	retries: fc.array(fc.record({ delay: fraction, skew }), { maxLength: 3 }),
});
const schedule = fc.record({
	tolerance: fc.integer({ min: 1, max: 600 }),
	ids: fc.array(idSpec, { minLength: 2_001, maxLength: 3_500 }),
});

type Schedule = typeof schedule extends fc.Arbitrary<infer T> ? T : never;

interface Copy {
	id: string;
	arrival: number;
	timestamp: number;
}

/**
 * The deliveries in arrival order: the first copies of all ids within one tolerance window (so
 * that all of them may still be retried at once), each retry arriving while the copy before it
 * may still verify, each copy with a timestamp within the tolerance of its own arrival.
 */
function copiesOf(run: Schedule, start: number): Copy[] {
	const { tolerance } = run;
	const scaled = (value: number) => Math.round((value * tolerance) / SCALE);
	const copies: Copy[] = [];
	run.ids.forEach((spec, index) => {
		const id = `msg_${start}_${index}`;
		let arrival = start + scaled(spec.arrival);
		let timestamp = arrival + scaled(spec.skew);
		copies.push({ id, arrival, timestamp });
		for (const retry of spec.retries) {
			const until = replayableUntil(timestamp, tolerance, arrival);
			arrival += Math.round(((until - arrival) * retry.delay) / SCALE);
			timestamp = arrival + scaled(retry.skew);
			copies.push({ id, arrival, timestamp });
		}
	});
	return copies.sort((a, b) => a.arrival - b.arrival);
}

describe('the duplicate memory under bursts', () => {
	it('starts each id once: more than 2,000 ids and their retries within the tolerance', () => {
		let start = 1_000_000;
		const quiet = { warn: jest.fn() };
		fc.assert(
			fc.property(schedule, (run) => {
				// Each run later than everything before it: earlier runs' ids have expired.
				start += 10_000;
				const node = `wf-burst-${start}|n|production`;
				const starts = new Map<string, number>();
				for (const copy of copiesOf(run, start)) {
					const until = replayableUntil(copy.timestamp, run.tolerance, copy.arrival);
					const trigger = { nodeName: 'Burst', workflowId: 'wf-burst', logger: quiet };
					if (!recordVerified(node, copy.id, until, copy.arrival, trigger)) {
						starts.set(copy.id, (starts.get(copy.id) ?? 0) + 1);
					}
				}
				expect(starts.size).toBe(run.ids.length);
				expect([...starts.values()].every((count) => count === 1)).toBe(true);
			}),
			// Shrinking thousands of ids takes minutes: the failing schedule is reported as found.
			{ numRuns: 25, endOnFailure: true },
		);
		expect(quiet.warn).not.toHaveBeenCalled();
	});
});
