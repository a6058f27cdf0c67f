/**
 * The trigger's memory in the process: its two records (trigger/memory.ts), one cap each; the
 * capped map behind them (helpers/boundedMap.ts); and the memory behind "every copy of a verified
 * delivery runs the workflow once" (trigger/duplicates.ts).
 */
import { BoundedMap } from '../../nodes/BusinessFinance/helpers/boundedMap';
import { WARNING_INTERVAL_MS } from '../../nodes/BusinessFinance/helpers/warnings';
import * as duplicates from '../../nodes/BusinessFinance/trigger/duplicates';
import * as memory from '../../nodes/BusinessFinance/trigger/memory';

const { MAX_NODES } = memory;
const WARNING_INTERVAL_SECONDS = WARNING_INTERVAL_MS / 1000;
const { awaitAnswer, isAwaitingAnswer, replayableUntil, wasSeen } = duplicates;
/** The memory's bounds (duplicates.ts): ids per tolerance window, ids per trigger. */
const IDS_PER_WINDOW = 50_000;
const MAX_SEEN = 150_000;

/** A module of its own, as a restarted n8n has (the bounds below fill the memory). */
function fresh<T>(module: 'memory' | 'duplicates'): T {
	let loaded!: T;
	jest.isolateModules(() => (loaded = require(`../../nodes/BusinessFinance/trigger/${module}`)));
	return loaded;
}
type Duplicates = typeof duplicates;

const logger = { warn: jest.fn<void, [string]>() };

it('a node record holds its registration and its failures; beyond MAX_NODES the least recently used goes whole', () => {
	const m = fresh<typeof memory>('memory');
	m.nodeMemory('a', 0, logger).registration = { endpointId: 'ep_a' };
	m.nodeMemory('a', 0, logger).failures = { counts: { clock: 1 }, details: {} };
	for (let n = 1; n < m.MAX_NODES; n++) m.nodeMemory(`n${n}`, 0, logger);
	m.nodeMemory('a', 0, logger); // used again: the oldest is now n1
	m.nodeMemory('one too many', 0, logger);
	expect(m.peekNode('n1')).toBeUndefined();
	expect(m.peekNode('a')).toEqual({
		registration: { endpointId: 'ep_a' },
		failures: { counts: { clock: 1 }, details: {} },
	});
	expect(logger.warn).not.toHaveBeenCalled(); // no ids went with n1
});

it('an endpoint record holds its secret and its original settings; beyond MAX_ENDPOINTS the least recently used goes', () => {
	const m = fresh<typeof memory>('memory');
	Object.assign(m.endpointMemory('ep_0'), { secret: 'whsec_x', original: { url: 'https://own' } });
	for (let n = 1; n <= m.MAX_ENDPOINTS; n++) m.endpointMemory(`ep_${n}`);
	expect(m.peekEndpoint('ep_0')).toBeUndefined();
	expect(m.peekEndpoint('ep_1')).toEqual({});
	m.forgetEndpoint('ep_1');
	expect(m.peekEndpoint('ep_1')).toBeUndefined();
});

const contents = (map: BoundedMap<string, number>, keys: string[]) =>
	keys.filter((key) => map.get(key) !== undefined);

describe('BoundedMap', () => {
	it('drops the oldest while they match, and stops at the first that does not', () => {
		const map = new BoundedMap<string, number>(10);
		for (const [key, value] of [
			['a', 1],
			['b', 2],
			['c', 9],
			['d', 1],
		] as const)
			map.set(key, value);
		map.dropOldestWhile((value) => value < 5);
		expect(contents(map, ['a', 'b', 'c', 'd'])).toEqual(['c', 'd']);
		map.delete('c'); // the oldest, deleted from outside the walk
		map.set('e', 1);
		map.dropOldestWhile((value) => value < 5);
		expect(map.size).toBe(0);
		map.set('f', 7); // after a finished walk, a new one
		expect(map.set('g', 8)).toBeUndefined();
		map.dropOldestWhile((value) => value < 8);
		expect(contents(map, ['f', 'g'])).toEqual(['g']);
	});
});

function triggerLog(nodeName = 'Business Finance Trigger', workflowId = 'wf-1') {
	return { nodeName, workflowId, logger: { warn: jest.fn<void, [string]>() } };
}

const quiet = triggerLog();
const recordVerified = (node: string, id: string, until: number, now: number) =>
	duplicates.recordVerified(node, id, until, now, quiet);

/** Records `count` new ids; returns how many were reported as duplicates (none should be). */
function fill(
	memory: Duplicates,
	node: string,
	count: number,
	until: number,
	now: number,
	log = quiet,
	prefix = node,
) {
	let duplicatesReported = 0;
	for (let i = 0; i < count; i++) {
		if (memory.recordVerified(node, `msg_${prefix}_${i}`, until, now, log)) duplicatesReported++;
	}
	return duplicatesReported;
}

describe('replayableUntil', () => {
	it('is the later of arrival and timestamp, plus the tolerance', () => {
		expect(replayableUntil(1_000, 300, 1_000)).toBe(1_300);
		expect(replayableUntil(1_200, 300, 1_000)).toBe(1_500); // timestamp ahead of n8n's clock
		expect(replayableUntil(800, 300, 1_000)).toBe(1_300); // timestamp behind it
	});
});

describe('recordVerified', () => {
	afterAll(() => expect(quiet.logger.warn).not.toHaveBeenCalled());

	it('reports a copy while it may still verify, and forgets it afterwards', () => {
		const node = 'wf-dup-1|n|production';
		expect(recordVerified(node, 'msg_a', 1_300, 1_000)).toBe(false);
		expect(recordVerified(node, 'msg_a', 1_300, 1_300)).toBe(true);
		expect(recordVerified(node, 'msg_a', 1_601, 1_301)).toBe(false); // expired at 1_300
		expect(wasSeen(node, 'msg_a', 1_601)).toBe(true);
		expect(wasSeen(node, 'msg_a', 1_602)).toBe(false);
	});

	it('an expired id is not a duplicate, also behind one still valid', () => {
		const node = 'wf-dup-2|n|production';
		expect(recordVerified(node, 'msg_long', 2_000, 1_000)).toBe(false);
		expect(recordVerified(node, 'msg_short', 1_300, 1_000)).toBe(false);
		expect(recordVerified(node, 'msg_short', 1_601, 1_301)).toBe(false);
		expect(recordVerified(node, 'msg_long', 2_000, 1_301)).toBe(true);
	});

	it('a retry extends the memory to its own signature, never shortens it', () => {
		const node = 'wf-dup-3|n|production';
		expect(recordVerified(node, 'msg_r', 2_000, 1_000)).toBe(false);
		expect(recordVerified(node, 'msg_r', 1_500, 1_100)).toBe(true); // a copy with an older timestamp
		expect(wasSeen(node, 'msg_r', 2_000)).toBe(true);
		expect(recordVerified(node, 'msg_r', 2_600, 1_900)).toBe(true); // a retry signed later
		expect(wasSeen(node, 'msg_r', 2_600)).toBe(true);
	});

	it('an id awaiting its answer is forgotten when n8n did not take it, kept when it did; a settled answer leaves a later copy alone', () => {
		const node = 'wf-dup-9|n|production';
		expect(recordVerified(node, 'msg_s', 400, 10)).toBe(false);
		const firstAnswer = awaitAnswer(node, 'msg_s');
		expect(isAwaitingAnswer(node, 'msg_s')).toBe(true);
		firstAnswer(false); // answered 5xx: the service retries
		expect([isAwaitingAnswer(node, 'msg_s'), wasSeen(node, 'msg_s', 11)]).toEqual([false, false]);
		expect(recordVerified(node, 'msg_s', 400, 12)).toBe(false); // the retry runs
		const retryAnswer = awaitAnswer(node, 'msg_s');
		firstAnswer(true); // the first request's late 'close'
		expect(isAwaitingAnswer(node, 'msg_s')).toBe(true);
		retryAnswer(true);
		expect([isAwaitingAnswer(node, 'msg_s'), wasSeen(node, 'msg_s', 13)]).toEqual([false, true]);
	});
});

describe('the bounds', () => {
	it('keeps every id of 50,000 per tolerance window until it expires, even dated a whole tolerance ahead', () => {
		const memory = fresh<Duplicates>('duplicates');
		const log = triggerLog();
		const node = 'wf-burst|n|production';
		// The tightest case: a 1 s tolerance, so that 2 × tolerance + 1 s are three windows.
		const tolerance = 1;
		for (let now = 1_000; now < 1_006; now++) {
			const until = replayableUntil(now + tolerance, tolerance, now);
			expect(fill(memory, node, IDS_PER_WINDOW, until, now, log, `${now}`)).toBe(0);
			// The ids of two seconds ago verify for the last second: a copy would be a duplicate.
			if (now >= 1_002) {
				const first = `msg_${now - 2}_0`;
				const last = `msg_${now - 2}_${IDS_PER_WINDOW - 1}`;
				expect(memory.wasSeen(node, first, now)).toBe(true);
				expect(memory.wasSeen(node, last, now)).toBe(true);
			}
		}
		expect(log.logger.warn).not.toHaveBeenCalled();
	});

	it('beyond 150,000 ids the oldest are dropped first, and the log names the trigger, once a minute', () => {
		const memory = fresh<Duplicates>('duplicates');
		const log = triggerLog('Payouts', 'wf-7');
		const node = 'wf-7|n|production';
		expect(fill(memory, node, MAX_SEEN, 350, 50, log)).toBe(0);
		expect(log.logger.warn).not.toHaveBeenCalled();
		expect(memory.recordVerified(node, 'msg_extra', 350, 50, log)).toBe(false);
		expect(memory.recordVerified(node, `msg_${node}_1`, 350, 50, log)).toBe(true);
		expect(memory.recordVerified(node, `msg_${node}_0`, 350, 50, log)).toBe(false); // evicted
		expect(log.logger.warn).toHaveBeenCalledTimes(1);
		expect(log.logger.warn.mock.calls[0][0]).toMatch(
			/^Business Finance Trigger "Payouts" \(workflow wf-7\): the duplicate memory is full \(150000 ids per trigger\), so 1 webhook-id\(s\) the service may still retry were forgotten/,
		);
		// A flood within the interval adds no line; the next line says how many were forgotten.
		for (let i = 0; i < 1_000; i++) memory.recordVerified(node, `msg_flood_${i}`, 400, 100, log);
		expect(log.logger.warn).toHaveBeenCalledTimes(1);
		memory.recordVerified(node, 'msg_later', 400, 50 + WARNING_INTERVAL_SECONDS, log);
		expect(log.logger.warn).toHaveBeenCalledTimes(2);
		expect(log.logger.warn.mock.calls[1][0]).toMatch(/so 1002 webhook-id\(s\)/);
		expect(memory.wasSeen(node, `msg_${node}_1003`, 100)).toBe(false);
		expect(memory.wasSeen(node, `msg_${node}_1004`, 100)).toBe(true);
	});

	it(`beyond MAX_NODES triggers the least recently used is forgotten, named in the log, once a minute`, () => {
		const memory = fresh<Duplicates>('duplicates');
		const log = triggerLog();
		for (let n = 0; n < MAX_NODES; n++) {
			fill(memory, `wf-n${n}|n|production`, 1, 400, 100, triggerLog(`T${n}`, `wf-n${n}`));
		}
		memory.recordVerified('wf-n-last|n|production', 'msg_1', 400, 100, log);
		expect(log.logger.warn).toHaveBeenCalledTimes(1);
		expect(log.logger.warn.mock.calls[0][0]).toMatch(
			/^Business Finance Trigger "T0" \(workflow wf-n0\): the duplicate memory is full \(500 triggers per n8n process\), so 1 webhook-id/,
		);
		memory.recordVerified('wf-n-later|n|production', 'msg_1', 400, 100, log);
		expect(log.logger.warn).toHaveBeenCalledTimes(1);
		expect(memory.wasSeen('wf-n1|n|production', 'msg_wf-n1|n|production_0', 100)).toBe(false);
		expect(memory.wasSeen('wf-n2|n|production', 'msg_wf-n2|n|production_0', 100)).toBe(true);
		// A trigger whose ids all expired is dropped without a line.
		memory.recordVerified('wf-n-expired|n|production', 'msg_1', 500, 401, log);
		expect(log.logger.warn).toHaveBeenCalledTimes(1);
	});
});
