/** The per-process duplicate memory behind the trigger's "same webhook-id runs once". */
import { MAX_SEEN_PER_NODE, seenBefore } from '../../nodes/BusinessFinance/trigger/memory';

describe('seenBefore', () => {
	it('reports a repeat within the window and forgets it after the window', () => {
		const node = 'wf-mem-1|n|production';
		expect(seenBefore(node, 'msg_a', 300, 1_000)).toBe(false);
		expect(seenBefore(node, 'msg_a', 300, 1_200)).toBe(true);
		expect(seenBefore(node, 'msg_a', 300, 1_300)).toBe(true);
		expect(seenBefore(node, 'msg_a', 300, 1_301)).toBe(false); // 301 s after it was first seen
		expect(seenBefore(node, 'msg_a', 300, 1_400)).toBe(true); // remembered again from 1_301
	});

	it('keeps nodes apart', () => {
		expect(seenBefore('wf-mem-2|n|production', 'msg_b', 300, 10)).toBe(false);
		expect(seenBefore('wf-mem-2|n|test', 'msg_b', 300, 10)).toBe(false);
		expect(seenBefore('wf-mem-3|n|production', 'msg_b', 300, 10)).toBe(false);
		expect(seenBefore('wf-mem-2|n|production', 'msg_b', 300, 11)).toBe(true);
	});

	it('is bounded: beyond MAX_SEEN_PER_NODE ids the oldest are dropped first', () => {
		const node = 'wf-mem-4|n|production';
		for (let i = 0; i <= MAX_SEEN_PER_NODE; i++) {
			expect(seenBefore(node, `msg_${i}`, 300, 50)).toBe(false);
		}
		expect(seenBefore(node, `msg_${MAX_SEEN_PER_NODE}`, 300, 50)).toBe(true);
		expect(seenBefore(node, 'msg_1', 300, 50)).toBe(true);
		expect(seenBefore(node, 'msg_0', 300, 50)).toBe(false); // evicted
	});
});
