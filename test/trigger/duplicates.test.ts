/** The per-process memory behind "every copy of a verified delivery runs the workflow once". */
import {
	MAX_SEEN_PER_NODE,
	recordVerified,
	replayableUntil,
	wasSeen,
} from '../../nodes/BusinessFinance/trigger/duplicates';

describe('replayableUntil', () => {
	it('is the later of arrival and timestamp, plus the tolerance', () => {
		expect(replayableUntil(1_000, 300, 1_000)).toBe(1_300);
		expect(replayableUntil(1_200, 300, 1_000)).toBe(1_500); // timestamp ahead of n8n's clock
		expect(replayableUntil(800, 300, 1_000)).toBe(1_300); // timestamp behind it
	});
});

describe('recordVerified', () => {
	it('reports a copy while it may still verify, and forgets it afterwards', () => {
		const node = 'wf-dup-1|n|production';
		expect(recordVerified(node, 'msg_a', 1_300, 1_000)).toBe(false);
		expect(recordVerified(node, 'msg_a', 1_300, 1_300)).toBe(true);
		expect(recordVerified(node, 'msg_a', 1_601, 1_301)).toBe(false); // expired at 1_300
		expect(wasSeen(node, 'msg_a', 1_601)).toBe(true);
		expect(wasSeen(node, 'msg_a', 1_602)).toBe(false);
	});

	it('a delivery dated 200 s ahead is still a duplicate 350 s later (tolerance 300)', () => {
		const node = 'wf-dup-2|n|production';
		const arrival = 10_000;
		const timestamp = arrival + 200;
		expect(
			recordVerified(node, 'msg_ahead', replayableUntil(timestamp, 300, arrival), arrival),
		).toBe(false);
		// 350 s later the signature is still valid (150 s past its timestamp): the copy must not run.
		const replay = arrival + 350;
		expect(recordVerified(node, 'msg_ahead', replayableUntil(timestamp, 300, replay), replay)).toBe(
			true,
		);
	});

	it('a retry extends the memory to its own signature, never shortens it', () => {
		const node = 'wf-dup-3|n|production';
		expect(recordVerified(node, 'msg_r', 2_000, 1_000)).toBe(false);
		expect(recordVerified(node, 'msg_r', 1_500, 1_100)).toBe(true); // a copy with an older timestamp
		expect(wasSeen(node, 'msg_r', 2_000)).toBe(true);
		expect(recordVerified(node, 'msg_r', 2_600, 1_900)).toBe(true); // a retry signed later
		expect(wasSeen(node, 'msg_r', 2_600)).toBe(true);
	});

	it('keeps nodes apart', () => {
		expect(recordVerified('wf-dup-4|n|production', 'msg_b', 400, 10)).toBe(false);
		expect(recordVerified('wf-dup-4|n|test', 'msg_b', 400, 10)).toBe(false);
		expect(recordVerified('wf-dup-5|n|production', 'msg_b', 400, 10)).toBe(false);
		expect(recordVerified('wf-dup-4|n|production', 'msg_b', 400, 11)).toBe(true);
	});

	it('wasSeen records nothing', () => {
		expect(wasSeen('wf-dup-6|n|production', 'msg_c', 10)).toBe(false);
		expect(recordVerified('wf-dup-6|n|production', 'msg_c', 400, 10)).toBe(false);
	});

	it('is bounded: beyond MAX_SEEN_PER_NODE ids the oldest are dropped first', () => {
		const node = 'wf-dup-7|n|production';
		for (let i = 0; i <= MAX_SEEN_PER_NODE; i++) {
			expect(recordVerified(node, `msg_${i}`, 350, 50)).toBe(false);
		}
		expect(recordVerified(node, `msg_${MAX_SEEN_PER_NODE}`, 350, 50)).toBe(true);
		expect(recordVerified(node, 'msg_1', 350, 50)).toBe(true);
		expect(recordVerified(node, 'msg_0', 350, 50)).toBe(false); // evicted
	});
});
