/**
 * Per-process memory of the trigger: the endpoints' signing secrets and the webhook-ids seen
 * recently. Nothing here is persisted: the secret is deliberately NOT written to the workflow's
 * static data (n8n stores that unencrypted with the workflow and shows it in exports); after a
 * restart it is fetched again from the service on the first delivery.
 */

interface CachedSecret {
	secret: string;
	fetchedAtMs: number;
}

const secrets = new Map<string, CachedSecret>();

export function secretKey(
	workflowId: string | undefined,
	nodeId: string,
	endpointId: string,
): string {
	return `${workflowId ?? ''}|${nodeId}|${endpointId}`;
}

export function rememberSecret(key: string, secret: string, nowMs = Date.now()): void {
	secrets.set(key, { secret, fetchedAtMs: nowMs });
}

export function recallSecret(key: string): CachedSecret | undefined {
	return secrets.get(key);
}

export function forgetSecret(key: string): void {
	secrets.delete(key);
}

/** Most webhook-ids remembered per trigger node; the oldest are dropped first. */
export const MAX_SEEN_PER_NODE = 2000;
/** Most trigger nodes tracked per process; the least recently used is dropped first. */
const MAX_NODES = 500;

const seen = new Map<string, Map<string, number>>();

/**
 * Records `webhookId` for `nodeKey` and tells whether it was already seen within `windowSeconds`.
 * Synchronous on purpose: check and insert happen without an await in between, so two concurrent
 * deliveries of the same id cannot both pass.
 */
export function seenBefore(
	nodeKey: string,
	webhookId: string,
	windowSeconds: number,
	nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
	let ids = seen.get(nodeKey);
	if (ids) {
		seen.delete(nodeKey); // re-insert below: most recently used last
	} else {
		ids = new Map();
	}
	seen.set(nodeKey, ids);
	while (seen.size > MAX_NODES) {
		const oldest = seen.keys().next().value as string;
		seen.delete(oldest);
	}
	// Drop expired entries from the front (insertion order = arrival order).
	for (const [id, at] of ids) {
		if (nowSeconds - at <= windowSeconds) break;
		ids.delete(id);
	}
	const at = ids.get(webhookId);
	if (at !== undefined && nowSeconds - at <= windowSeconds) return true;
	ids.delete(webhookId);
	ids.set(webhookId, nowSeconds);
	while (ids.size > MAX_SEEN_PER_NODE) {
		const oldest = ids.keys().next().value as string;
		ids.delete(oldest);
	}
	return false;
}
