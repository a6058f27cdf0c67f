/**
 * The webhook-ids of verified deliveries, per trigger node, in the n8n process's memory: a
 * delivery the service retries (same id) or an attacker replays runs the workflow once.
 *
 * An id is kept until every signature that could carry it has expired: a signature is accepted
 * while its timestamp is within the tolerance of n8n's clock, on either side, so a delivery stays
 * replayable until the later of its arrival and its timestamp, plus the tolerance. Memory is
 * bounded (per node and in the number of nodes); only verified deliveries are recorded, so an
 * attacker cannot fill it.
 */

/** Most webhook-ids remembered per trigger node; the oldest are dropped first. */
export const MAX_SEEN_PER_NODE = 2000;
/** Most trigger nodes tracked per process; the least recently used is dropped first. */
const MAX_NODES = 500;

/** Per node: webhook-id → Unix second until which a copy of it may still verify. */
const seen = new Map<string, Map<string, number>>();

function idsOf(nodeKey: string): Map<string, number> {
	const ids = seen.get(nodeKey) ?? new Map<string, number>();
	seen.delete(nodeKey); // re-inserted last: most recently used
	seen.set(nodeKey, ids);
	while (seen.size > MAX_NODES) seen.delete(seen.keys().next().value as string);
	return ids;
}

function dropExpired(ids: Map<string, number>, nowSeconds: number): void {
	// Insertion order is close to expiry order: stop at the first entry still valid.
	for (const [id, until] of ids) {
		if (until >= nowSeconds) break;
		ids.delete(id);
	}
}

/** Until when a message with this timestamp, received now, can still be replayed with a valid signature. */
export function replayableUntil(
	timestampSeconds: number,
	toleranceSeconds: number,
	nowSeconds: number,
): number {
	return Math.max(timestampSeconds, nowSeconds) + toleranceSeconds;
}

/** True when `webhookId` was recorded for the node and may still be replayed. Records nothing. */
export function wasSeen(nodeKey: string, webhookId: string, nowSeconds: number): boolean {
	const until = seen.get(nodeKey)?.get(webhookId);
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
): boolean {
	const ids = idsOf(nodeKey);
	dropExpired(ids, nowSeconds);
	const earlier = ids.get(webhookId);
	const duplicate = earlier !== undefined && earlier >= nowSeconds;
	ids.delete(webhookId);
	ids.set(webhookId, Math.max(keepUntilSeconds, duplicate ? earlier : 0));
	while (ids.size > MAX_SEEN_PER_NODE) ids.delete(ids.keys().next().value as string);
	return duplicate;
}
