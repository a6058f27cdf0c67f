/** Waiting for an effect that another process brings about (n8n starting, an activation, a run). */
import { setTimeout as sleep } from 'timers/promises';

/**
 * Calls `check` until it returns a value other than undefined or false, every `intervalMs`, and
 * returns that value; after `timeoutMs` throws "timed out ... waiting for <what>". `what` may be a
 * function, to describe the last state seen.
 */
export async function pollUntil<T>(
	what: string | (() => string),
	check: () => Promise<T | undefined | false>,
	timeoutMs: number,
	intervalMs = 250,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined && value !== false) return value as T;
		if (Date.now() > deadline) {
			const described = typeof what === 'function' ? what() : what;
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${described}`);
		}
		await sleep(intervalMs);
	}
}
