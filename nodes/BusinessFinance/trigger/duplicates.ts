/**
 * The webhook-ids of verified deliveries (only those: an attacker cannot fill it), per trigger
 * node, in the process's memory: a retried or replayed delivery runs the workflow once. One capped
 * map per node, id → Unix second until which a copy may verify; an id that could still verify is
 * forgotten only beyond a cap, and the log says so (docs/trigger.md).
 */
import type { Logger } from 'n8n-workflow';

import { BoundedMap } from '../helpers/boundedMap';
import { mayWarn, WARNING_INTERVAL_MS } from '../helpers/warnings';
import { MAX_NODES } from './state';

/** Ids per tolerance window per trigger that are all kept until they can no longer verify. */
const IDS_PER_TOLERANCE_WINDOW = 50_000;
/**
 * Most webhook-ids remembered per trigger node, oldest dropped first. A delivery dated a tolerance
 * ahead verifies until 2 × tolerance after it arrived: 2 × tolerance + 1 s fit in three windows.
 */
const MAX_SEEN_PER_NODE = 3 * IDS_PER_TOLERANCE_WINDOW;

/** The trigger a delivery is for, as n8n's log names it, and that log. */
export interface TriggerLog {
	nodeName: string;
	workflowId: string;
	logger: Pick<Logger, 'warn'>;
}

/** Counts forgotten ids between warnings, so that a flood of them makes one line per interval. */
type Warnings = { forgotten: number; warnedAtMs?: number };

interface NodeMemory extends Warnings {
	ids: BoundedMap<string, number>;
	/** Who the node is, as of its latest delivery: named when its ids are forgotten. */
	trigger: TriggerLog;
}

/** Per node key (state.ts `nodeKey`), least recently used first. */
const nodes = new BoundedMap<string, NodeMemory>(MAX_NODES);
/** Nodes dropped beyond MAX_NODES take their own counts with them: one count for all of them. */
const droppedNodes: Warnings = { forgotten: 0 };

function memoryOf(nodeKey: string, trigger: TriggerLog, nowSeconds: number): NodeMemory {
	const memory = nodes.get(nodeKey) ?? {
		ids: new BoundedMap<string, number>(MAX_SEEN_PER_NODE),
		forgotten: 0,
		trigger,
	};
	memory.trigger = trigger;
	const dropped = nodes.set(nodeKey, memory)?.[1];
	dropped?.ids.dropOldestWhile((until) => until < nowSeconds);
	if (dropped?.ids.size) {
		droppedNodes.forgotten += dropped.ids.size;
		const named = { ...dropped.trigger, logger: trigger.logger };
		warnForgotten(droppedNodes, named, `${MAX_NODES} triggers per n8n process`, nowSeconds);
	}
	memory.ids.dropOldestWhile((until) => until < nowSeconds);
	return memory;
}

/** Logs that ids which may still be retried were forgotten: at most once per interval per count. */
function warnForgotten(count: Warnings, node: TriggerLog, bound: string, nowSeconds: number) {
	if (!mayWarn(count, nowSeconds * 1000)) return;
	node.logger.warn(
		`Business Finance Trigger "${node.nodeName}" (workflow ${node.workflowId}): the duplicate memory is full (${bound}), so ${count.forgotten} webhook-id(s) the service may still retry were forgotten; a retry of one of those deliveries will run its workflow again. Said at most once every ${WARNING_INTERVAL_MS / 1000} s.`,
	);
	count.forgotten = 0;
}

/** Until when a message with this timestamp, received now, can still be replayed with a valid signature. */
export function replayableUntil(
	timestampSeconds: number,
	toleranceSeconds: number,
	nowSeconds: number,
): number {
	return Math.max(timestampSeconds, nowSeconds) + toleranceSeconds;
}

/** Recorded ids n8n has not answered yet: a copy meanwhile is no duplicate (the first may fail). */
const awaitingAnswer = new Set<string>();
const answerKey = (nodeKey: string, webhookId: string) => `${nodeKey}\n${webhookId}`;

export function isAwaitingAnswer(nodeKey: string, webhookId: string): boolean {
	return awaitingAnswer.has(answerKey(nodeKey, webhookId));
}

/** Marks an id as awaiting n8n's answer; the function returned forgets it if n8n did not take it */
export function awaitAnswer(nodeKey: string, webhookId: string): (taken: boolean) => void {
	const key = answerKey(nodeKey, webhookId);
	awaitingAnswer.add(key);
	let settled = false; // a later delivery of the same id marks it anew: leave that mark alone
	return (taken) => {
		if (settled) return;
		settled = true;
		awaitingAnswer.delete(key);
		if (!taken) nodes.get(nodeKey)?.ids.delete(webhookId);
	};
}

/** True when `webhookId` was recorded for the node and may still be replayed. Records nothing. */
export function wasSeen(nodeKey: string, webhookId: string, nowSeconds: number): boolean {
	const until = nodes.get(nodeKey)?.ids.get(webhookId);
	return until !== undefined && until >= nowSeconds;
}

/**
 * Records a verified delivery; true for a duplicate. A copy only extends the id's memory.
 * Synchronous on purpose: two concurrent copies cannot both pass.
 */
export function recordVerified(
	nodeKey: string,
	webhookId: string,
	keepUntilSeconds: number,
	nowSeconds: number,
	trigger: TriggerLog,
): boolean {
	const memory = memoryOf(nodeKey, trigger, nowSeconds);
	const earlier = memory.ids.get(webhookId);
	const duplicate = earlier !== undefined && earlier >= nowSeconds;
	const until = Math.max(keepUntilSeconds, duplicate ? earlier : 0);
	const dropped = memory.ids.set(webhookId, until);
	if (dropped && dropped[1] >= nowSeconds) {
		memory.forgotten++;
		warnForgotten(memory, trigger, `${MAX_SEEN_PER_NODE} ids per trigger`, nowSeconds);
	}
	return duplicate;
}
