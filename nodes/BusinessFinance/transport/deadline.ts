/**
 * The time one call (one request, or one whole listing) may take. All of the call's time since it
 * started is charged to its budget, attempts included, not only its waits: otherwise answers that
 * are slow to come (a 429 that takes 5 s) cost nothing. A wait fails at once when it does not fit
 * in what is left, and ends as soon as the execution is cancelled. A call may also have a
 * deadline for everything: then nothing waits past it and no request runs past it (send.ts).
 * Every wait of the transport is the one sleep below.
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

export const systemClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await sleep(ms, signal),
	random: () => Math.random(),
};

/** Node's longest timer (about 24.8 days): a longer one fires after 1 ms instead of never. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Full-jitter exponential backoff: between half and all of base·2^step, capped. */
export function backoffMs(step: number, baseMs: number, capMs: number, random: number): number {
	const ceilingMs = Math.min(capMs, baseMs * 2 ** Math.max(0, step));
	return Math.round(ceilingMs / 2 + (ceilingMs / 2) * random);
}

/** A wait that does not fit in what is left of the budget. */
export class OverBudgetError extends Error {
	constructor(
		readonly neededMs: number,
		/** It was a wait to be woken (behind another request), not a wait for a known time. */
		readonly untilWoken = false,
	) {
		super('rate-limit wait budget exceeded');
	}
}

/** The execution was cancelled while waiting or while a request was on its way. */
export class CancelledError extends Error {
	constructor() {
		super('execution cancelled');
	}
}

/** Registers a wake-up function; returns how to unregister it. */
export type WakeRegistration = (wake: () => void) => () => void;

export class Deadline {
	private readonly startedAtMs: number;

	constructor(
		readonly clock: Clock,
		readonly budgetMs: number,
		readonly cancelSignal: AbortSignal | undefined,
		/** When the whole call must be over (epoch ms on `clock`); none by default. */
		private readonly endsAtMs = Number.POSITIVE_INFINITY,
	) {
		this.startedAtMs = clock.now();
	}

	/** The call's whole time so far: waits, attempts and everything between them. */
	get spentMs(): number {
		return Math.max(0, this.clock.now() - this.startedAtMs);
	}

	get leftMs(): number {
		return Math.max(0, Math.min(this.budgetMs - this.spentMs, this.untilEndMs));
	}

	/** Time left before the call's deadline (infinite without one). */
	get untilEndMs(): number {
		return this.endsAtMs - this.clock.now();
	}

	throwIfCancelled(): void {
		if (this.cancelSignal?.aborted) throw new CancelledError();
	}

	/**
	 * Wait `ms`, or throw OverBudgetError at once (without waiting) when it does not fit. With
	 * `register`, a wake-up ends the wait early; then a wait that does not fit waits for one for
	 * what is left, and throws only when none comes. Without `ms`: wait only to be woken.
	 */
	async wait(ms: number | undefined, register?: WakeRegistration): Promise<void> {
		this.throwIfCancelled();
		if (ms !== undefined && ms <= 0) return;
		const leftMs = this.leftMs;
		if (ms !== undefined && ms <= leftMs) {
			await this.sleep(ms, register);
			return;
		}
		if (!register || leftMs <= 0 || !(await this.sleep(leftMs, register))) {
			throw new OverBudgetError(ms ?? leftMs, ms === undefined);
		}
	}

	/**
	 * The one sleep: clamped to Node's longest timer (a longer one would fire at once); true when
	 * woken early. Leaves no waiter or listener behind.
	 */
	private async sleep(ms: number, register?: WakeRegistration): Promise<boolean> {
		const stop = new AbortController();
		let woken = false;
		const unregister = register?.(() => {
			woken = true;
			stop.abort();
		});
		const onCancel = () => stop.abort();
		this.cancelSignal?.addEventListener('abort', onCancel, { once: true });
		// Also raced against the signal: an older n8n-workflow `sleep` ignores it.
		const stopped = new Promise<void>((resolve) => {
			stop.signal.addEventListener('abort', () => resolve(), { once: true });
		});
		const timer = this.clock.sleep(Math.min(ms, MAX_TIMER_MS), stop.signal);
		try {
			await Promise.race([timer.catch(() => undefined), stopped]);
		} finally {
			stop.abort(); // ends the timer (where the clock honours the signal)
			unregister?.();
			this.cancelSignal?.removeEventListener('abort', onCancel);
		}
		this.throwIfCancelled();
		return woken;
	}
}
