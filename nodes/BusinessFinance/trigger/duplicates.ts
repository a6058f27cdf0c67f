/**
 * The webhook-ids of verified deliveries (only those: an attacker cannot fill it), per trigger
 * node, in the process's memory: a retried or replayed delivery runs the workflow once. One capped
 * map per node, id → Unix second until which a copy may verify; an id that could still verify is
 * forgotten only beyond a cap, and the log says so (docs/trigger.md).
 */
import { BoundedMap } from '../helpers/boundedMap';
import { nodeMemory, peekNode, warnForgotten, type TriggerLog } from './memory';

/** Ids per tolerance window per trigger that are all kept until they can no longer verify. */
const IDS_PER_TOLERANCE_WINDOW = 50_000;
/**
 * Most webhook-ids remembered per trigger node, oldest dropped first. A delivery dated a tolerance
 * ahead verifies until 2 × tolerance after it arrived: 2 × tolerance + 1 s fit in three windows.
 */
const MAX_SEEN_PER_NODE = 3 * IDS_PER_TOLERANCE_WINDOW;

/** The node's verified ids, their expired ones dropped; `trigger` names it when ids are forgotten. */
function seenOf(nodeKey: string, trigger: TriggerLog, nowSeconds: number) {
	const memory = nodeMemory(nodeKey, nowSeconds, trigger.logger);
	memory.seen ??= { ids: new BoundedMap<string, number>(MAX_SEEN_PER_NODE), forgotten: 0, trigger };
	memory.seen.trigger = trigger;
	memory.seen.ids.dropOldestWhile((until) => until < nowSeconds);
	return memory.seen;
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
		if (!taken) peekNode(nodeKey)?.seen?.ids.delete(webhookId);
	};
}

/** True when `webhookId` was recorded for the node and may still be replayed. Records nothing. */
export function wasSeen(nodeKey: string, webhookId: string, nowSeconds: number): boolean {
	const until = peekNode(nodeKey)?.seen?.ids.get(webhookId);
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
	const seen = seenOf(nodeKey, trigger, nowSeconds);
	const earlier = seen.ids.get(webhookId);
	const duplicate = earlier !== undefined && earlier >= nowSeconds;
	const until = Math.max(keepUntilSeconds, duplicate ? earlier : 0);
	const dropped = seen.ids.set(webhookId, until);
	if (dropped && dropped[1] >= nowSeconds) {
		seen.forgotten++;
		warnForgotten(seen, trigger, `${MAX_SEEN_PER_NODE} ids per trigger`, nowSeconds);
	}
	return duplicate;
}
