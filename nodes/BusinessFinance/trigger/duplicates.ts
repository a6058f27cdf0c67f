/**
 * The webhook-ids of verified deliveries, per trigger node, in the n8n process's memory: a
 * delivery the service retries (same id) or an attacker replays runs the workflow once.
 *
 * An id is kept until every signature that could carry it has expired: a signature is accepted
 * while its timestamp is within the tolerance of n8n's clock, on either side, so a delivery stays
 * replayable until the later of its arrival and its timestamp, plus the tolerance. Only verified
 * deliveries are recorded, so an attacker cannot fill the memory.
 *
 * Memory is bounded per node, per process and in the number of nodes. Month-end runs bring bursts
 * of tens of thousands of events within a tolerance window, so the bounds are sized for them
 * (bytes per id measured by bench/duplicates-memory.ts, see docs/trigger.md); an id that still
 * could be retried is forgotten only beyond a bound, and n8n's log then says so.
 */
import { createHash } from 'crypto';

import type { Logger } from 'n8n-workflow';

/** Ids per tolerance window per trigger that are all kept until they can no longer verify. */
export const IDS_PER_TOLERANCE_WINDOW = 50_000;
/**
 * Most webhook-ids remembered per trigger node; the oldest are dropped first. Three windows: a
 * delivery dated a whole tolerance ahead verifies until 2 × tolerance after it arrived, so a
 * trigger may have to keep the ids of the last 2 × tolerance + 1 s (whole seconds, both ends
 * included), at most three windows' worth for any tolerance of 1 s or more.
 */
export const MAX_SEEN_PER_NODE = 3 * IDS_PER_TOLERANCE_WINDOW;
/** Most webhook-ids remembered in the process, all nodes together. */
export const MAX_SEEN_IN_PROCESS = 500_000;
/** Most trigger nodes tracked per process; the least recently used is dropped first. */
export const MAX_NODES = 500;
/** A trigger whose ids are forgotten is named in the log at most once per this many seconds. */
export const WARNING_INTERVAL_SECONDS = 60;

/** The trigger a delivery is for, as n8n's log names it, and that log. */
export interface TriggerLog {
	nodeName: string;
	workflowId: string;
	logger: Pick<Logger, 'warn'>;
}

/** Counts forgotten ids between warnings, so that a flood of them makes one line per interval. */
interface Warnings {
	/** Still-replayable ids forgotten since the last warning, and when that was. */
	forgotten: number;
	warnedAt: number;
}

interface NodeMemory extends Warnings {
	/** Webhook-id (`keyOf`) → Unix second until which a copy of it may still verify; insertion order. */
	ids: Map<string, number>;
	/**
	 * Walks `ids` in insertion order, and is kept: a Map leaves the slots of deleted entries in
	 * place until it is rebuilt, so a walk started afresh on each delivery would pass all the ids
	 * dropped so far again (tens of thousands in a burst) before the first one still held.
	 */
	cursor?: MapIterator<[string, number]>;
	/** The entry the cursor read last and that is not dropped yet: the oldest, the next to expire. */
	oldest?: [string, number];
	/** Who the node is, as of its latest delivery: named when its ids are forgotten. */
	nodeName: string;
	workflowId: string;
}

/** Per node key (state.ts `nodeKey`), least recently used first. */
const seen = new Map<string, NodeMemory>();
/** Ids held by all nodes together. */
let held = 0;
/** Walks the nodes one per delivery, so that idle nodes give their expired ids back too. */
let sweep = seen.entries();
/** Nodes dropped beyond MAX_NODES take their own counts with them: one count for all of them. */
const droppedNodes: Warnings = { forgotten: 0, warnedAt: -Infinity };

function memoryOf(nodeKey: string, trigger: TriggerLog, nowSeconds: number): NodeMemory {
	const memory = seen.get(nodeKey) ?? {
		ids: new Map<string, number>(),
		nodeName: '',
		workflowId: '',
		forgotten: 0,
		warnedAt: -Infinity,
	};
	memory.nodeName = trigger.nodeName;
	memory.workflowId = trigger.workflowId;
	seen.delete(nodeKey); // re-inserted last: most recently used
	seen.set(nodeKey, memory);
	while (seen.size > MAX_NODES) dropNode(seen.keys().next().value as string, nowSeconds, trigger);
	return memory;
}

/** Forgets a node; ids of it that may still verify are named in the log. */
function dropNode(nodeKey: string, nowSeconds: number, trigger: TriggerLog): void {
	const memory = seen.get(nodeKey) as NodeMemory;
	dropExpired(memory, nowSeconds);
	seen.delete(nodeKey);
	held -= memory.ids.size;
	if (memory.ids.size === 0) return;
	droppedNodes.forgotten += memory.ids.size;
	const bound = `${MAX_NODES} triggers per n8n process`;
	warnForgotten(droppedNodes, memory, bound, nowSeconds, trigger.logger);
}

/** The oldest entry the node holds, or one a retry has moved to the end since (see `forget`). */
function oldestOf(memory: NodeMemory): [string, number] | undefined {
	if (memory.oldest) return memory.oldest;
	memory.cursor ??= memory.ids.entries();
	const next = memory.cursor.next();
	// A finished walk stays finished, even when ids are added later: the next one starts afresh.
	if (next.done) memory.cursor = undefined;
	else memory.oldest = next.value;
	return memory.oldest;
}

/**
 * Drops the entry `oldestOf` gave, unless a retry has moved its id to the end with a later expiry
 * (recordVerified deletes and re-inserts it): the walk meets it there. True when it was dropped.
 */
function forget(memory: NodeMemory, [id, until]: [string, number]): boolean {
	memory.oldest = undefined;
	if (memory.ids.get(id) !== until) return false;
	memory.ids.delete(id);
	held--;
	return true;
}

/**
 * Insertion order is close to expiry order: stop at the first entry still valid. Amortised O(1)
 * per delivery: the walk reads every entry once, and each call stops at the first one it keeps.
 */
function dropExpired(memory: NodeMemory, nowSeconds: number): void {
	for (let entry = oldestOf(memory); entry && entry[1] < nowSeconds; entry = oldestOf(memory)) {
		forget(memory, entry);
	}
}

/** Drops the oldest id of a node, its expired ids first. */
function forgetOldest(memory: NodeMemory, bound: string, nowSeconds: number, trigger: TriggerLog) {
	dropExpired(memory, nowSeconds);
	for (let entry = oldestOf(memory); entry; entry = oldestOf(memory)) {
		if (!forget(memory, entry)) continue;
		memory.forgotten++;
		warnForgotten(memory, memory, bound, nowSeconds, trigger.logger);
		return;
	}
}

/**
 * Says in n8n's log that ids which may still be retried were forgotten, so that a second run of a
 * delivery never goes unexplained; at most once per interval per count, so a flood cannot flood
 * the log (at most MAX_NODES + 1 lines per interval).
 */
function warnForgotten(
	count: Warnings,
	node: Pick<NodeMemory, 'nodeName' | 'workflowId'>,
	bound: string,
	nowSeconds: number,
	logger: TriggerLog['logger'],
): void {
	if (nowSeconds < count.warnedAt + WARNING_INTERVAL_SECONDS) return;
	logger.warn(
		`Business Finance Trigger "${node.nodeName}" (workflow ${node.workflowId}): the duplicate memory is full (${bound}), so ${count.forgotten} webhook-id(s) the service may still retry were forgotten; a retry of one of those deliveries will run its workflow again. Said at most once every ${WARNING_INTERVAL_SECONDS} s.`,
	);
	count.forgotten = 0;
	count.warnedAt = nowSeconds;
}

/** Keeps the process within MAX_SEEN_IN_PROCESS: the least recently used node gives ids up first. */
function keepProcessBound(nowSeconds: number, trigger: TriggerLog): void {
	const bound = `${MAX_SEEN_IN_PROCESS} ids per n8n process`;
	while (held > MAX_SEEN_IN_PROCESS) {
		const first = seen.entries().next();
		if (first.done) return;
		const [key, memory] = first.value;
		if (memory.ids.size === 0) seen.delete(key);
		else forgetOldest(memory, bound, nowSeconds, trigger);
	}
}

/**
 * Drops the expired ids of the next node in turn: O(1) per delivery. The node that received the
 * delivery has just been cleaned and moved to the end of `seen`, where the walk would meet it
 * again at once: it is skipped, and the walk starts over from the least recently used node.
 */
function sweepOne(currentKey: string, nowSeconds: number): void {
	for (let step = 0; step < 2; step++) {
		let next = sweep.next();
		if (next.done) {
			sweep = seen.entries();
			next = sweep.next();
		}
		if (next.done) return;
		const [key, memory] = next.value;
		if (key !== currentKey) return dropExpired(memory, nowSeconds);
	}
}

/** Ids up to this length are kept as they are: the service's `msg_…` ids have 31 characters. */
const LONGEST_ID_KEPT = 32;

/**
 * What the memory keeps for an id: the id itself, or for a longer one (the trigger accepts up to
 * 256 characters, see standardWebhooks.ts) its digest, so that no id costs much more than
 * the service's own (measured by bench/duplicates-memory.ts). A digest (44 characters) is longer
 * than any id kept as it is, so an id and another's digest cannot meet.
 */
function keyOf(webhookId: string): string {
	if (webhookId.length <= LONGEST_ID_KEPT) return webhookId;
	// Not prefixed: a concatenation would keep two strings per id.
	return createHash('sha256').update(webhookId).digest('base64');
}

/** How many webhook-ids the process holds, all nodes together (for tests and bench/). */
export function idsHeld(): number {
	return held;
}

/** Until when a message with this timestamp, received now, can still be replayed with a valid signature. */
export function replayableUntil(
	timestampSeconds: number,
	toleranceSeconds: number,
	nowSeconds: number,
): number {
	return Math.max(timestampSeconds, nowSeconds) + toleranceSeconds;
}

/**
 * Forgets a recorded id: the delivery that carried it was not taken by n8n (its answer was not
 * `2xx`), so the service retries it and that retry must run the workflow.
 */
export function forgetVerified(nodeKey: string, webhookId: string): void {
	const memory = seen.get(nodeKey);
	if (memory?.ids.delete(keyOf(webhookId))) held--;
}

/**
 * Recorded ids whose delivery n8n has not answered yet (node key and id): a copy that arrives
 * meanwhile is not a duplicate yet, because the first may still fail to start its run.
 */
const awaitingAnswer = new Set<string>();
const answerKey = (nodeKey: string, webhookId: string) => `${nodeKey}\n${keyOf(webhookId)}`;

export function isAwaitingAnswer(nodeKey: string, webhookId: string): boolean {
	return awaitingAnswer.has(answerKey(nodeKey, webhookId));
}

/**
 * Marks a just-recorded id as awaiting n8n's answer. The function returned settles it, once: an
 * id whose delivery n8n did not take is forgotten (`forgetVerified`), a taken one stays recorded.
 */
export function awaitAnswer(nodeKey: string, webhookId: string): (taken: boolean) => void {
	const key = answerKey(nodeKey, webhookId);
	awaitingAnswer.add(key);
	let settled = false; // a later delivery of the same id marks it anew: leave that mark alone
	return (taken) => {
		if (settled) return;
		settled = true;
		awaitingAnswer.delete(key);
		if (!taken) forgetVerified(nodeKey, webhookId);
	};
}

/** True when `webhookId` was recorded for the node and may still be replayed. Records nothing. */
export function wasSeen(nodeKey: string, webhookId: string, nowSeconds: number): boolean {
	const until = seen.get(nodeKey)?.ids.get(keyOf(webhookId));
	return until !== undefined && until >= nowSeconds;
}

/**
 * Records a verified delivery and tells whether its id was already recorded (a duplicate).
 * Synchronous on purpose: check and insert happen without an await in between, so two concurrent
 * copies of a delivery cannot both pass.
 */
export function recordVerified(
	nodeKey: string,
	webhookId: string,
	keepUntilSeconds: number,
	nowSeconds: number,
	trigger: TriggerLog,
): boolean {
	const memory = memoryOf(nodeKey, trigger, nowSeconds);
	const ids = memory.ids;
	const key = keyOf(webhookId);
	dropExpired(memory, nowSeconds);
	const earlier = ids.get(key);
	const duplicate = earlier !== undefined && earlier >= nowSeconds;
	if (earlier === undefined) held++;
	ids.delete(key);
	ids.set(key, Math.max(keepUntilSeconds, duplicate ? earlier : 0));
	if (ids.size > MAX_SEEN_PER_NODE) {
		forgetOldest(memory, `${MAX_SEEN_PER_NODE} ids per trigger`, nowSeconds, trigger);
	}
	keepProcessBound(nowSeconds, trigger);
	sweepOne(nodeKey, nowSeconds);
	return duplicate;
}
