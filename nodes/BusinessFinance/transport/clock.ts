/**
 * Where the transport gets time from. Production uses `systemClock`; tests and measurements hand
 * their own clock to `createTransport` (index.ts) instead of patching a shared object.
 */
import { sleep } from 'n8n-workflow';

export interface Clock {
	/** Epoch milliseconds. */
	now(): number;
	/** Resolves after `ms`; rejects as soon as `signal` aborts (and then leaves no timer behind). */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
	/** A number in [0, 1), for backoff jitter. */
	random(): number;
}

/**
 * Node's longest timer (about 24.8 days): a longer one fires after 1 ms, which would end a wait
 * at once instead of never.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await sleep(Math.min(ms, MAX_TIMER_MS), signal),
	random: () => Math.random(),
};
