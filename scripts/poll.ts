import { setTimeout as sleep } from 'timers/promises';

/** `what` may be a function, to describe the last state seen. */
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
