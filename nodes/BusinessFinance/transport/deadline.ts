// The time one call (one request, or one whole listing) may take, attempts included (else a 429
// that takes 5 s to arrive costs nothing); a wait that does not fit fails at once. Every wait of
// the transport is the one sleep below, ended by the execution's cancellation.
import { sleep } from 'n8n-workflow';

/** `sleep` rejects as soon as `signal` aborts, leaving no timer behind. */
export interface Clock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
	random(): number;
}

export const systemClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await sleep(ms, signal),
	random: () => Math.random(),
};

/** Node's longest timer (about 24.8 days): a longer one fires after 1 ms instead of never. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Full-jitter exponential backoff: between half and all of base·2^step, capped. */
export function backoffMs(step: number, baseMs: number, capMs: number, random: number): number {
	const ceilingMs = Math.min(capMs, baseMs * 2 ** Math.max(0, step));
	return Math.round(ceilingMs / 2 + (ceilingMs / 2) * random);
}

/** A wait that does not fit; `untilWoken`: a wait behind another request, not for a known time. */
export class OverBudgetError extends Error {
	constructor(
		readonly neededMs: number,
		readonly untilWoken = false,
	) {
		super('rate-limit wait budget exceeded');
	}
}

export class CancelledError extends Error {}

/** Rejects when `signal` aborts, even if what it waits for ignores the signal. */
export async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	return await new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(signal.reason as Error);
		signal.addEventListener('abort', onAbort, { once: true });
		promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}

export type WakeRegistration = (wake: () => void) => () => void;

export class Deadline {
	private readonly startedAtMs: number;

	constructor(
		readonly clock: Clock,
		readonly budgetMs: number,
		readonly cancelSignal: AbortSignal | undefined,
		private readonly endsAtMs = Number.POSITIVE_INFINITY,
	) {
		this.startedAtMs = clock.now();
	}

	get spentMs(): number {
		return Math.max(0, this.clock.now() - this.startedAtMs);
	}

	get leftMs(): number {
		return Math.max(0, Math.min(this.budgetMs - this.spentMs, this.untilEndMs));
	}

	get untilEndMs(): number {
		return this.endsAtMs - this.clock.now();
	}

	throwIfCancelled(): void {
		if (this.cancelSignal?.aborted) throw new CancelledError();
	}

	// Wait `ms`, or throw OverBudgetError at once when it does not fit. With `register`, a wake-up
	// ends it early, and one that does not fit waits for a wake-up for what is left.
	async wait(ms: number | undefined, register?: WakeRegistration): Promise<void> {
		this.throwIfCancelled();
		if (ms !== undefined && ms <= 0) return;
		const leftMs = this.leftMs;
		if (ms !== undefined && ms <= leftMs) await this.sleep(ms, register);
		else if (!register || leftMs <= 0 || !(await this.sleep(leftMs, register)))
			throw new OverBudgetError(ms ?? leftMs, ms === undefined);
	}

	/** The one sleep, clamped to Node's longest timer; true when woken early. */
	private async sleep(ms: number, register?: WakeRegistration): Promise<boolean> {
		const stop = new AbortController();
		let woken = false;
		const unregister = register?.(() => {
			woken = true;
			stop.abort();
		});
		const onCancel = () => stop.abort();
		this.cancelSignal?.addEventListener('abort', onCancel, { once: true });
		const timer = this.clock.sleep(Math.min(ms, MAX_TIMER_MS), stop.signal);
		try {
			// Raced against the signal too: an older n8n-workflow `sleep` ignores it.
			await untilAborted(timer, stop.signal).catch(() => undefined);
		} finally {
			stop.abort(); // ends the timer (where the clock honours the signal)
			unregister?.();
			this.cancelSignal?.removeEventListener('abort', onCancel);
		}
		this.throwIfCancelled();
		return woken;
	}
}

/** Waits for `work` to settle, but no longer than `ms`: the one sleep, woken when it settles. */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
	const whenSettled: WakeRegistration = (wake) => {
		void work.then(wake, wake);
		return () => undefined;
	};
	await new Deadline(systemClock, Number.POSITIVE_INFINITY, undefined).wait(ms, whenSettled);
}
