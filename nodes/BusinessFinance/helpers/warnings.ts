/** A warning the network can cause (a flood of deliveries) is said at most once per this interval. */
export const WARNING_INTERVAL_MS = 60_000;

/** Whether to say a warning now, once per interval per `said`; records it when so. */
export function mayWarn(said: { warnedAtMs?: number }, nowMs: number): boolean {
	if (nowMs < (said.warnedAtMs ?? -Infinity) + WARNING_INTERVAL_MS) return false;
	said.warnedAtMs = nowMs;
	return true;
}
