/**
 * The time one call (one request, or one whole listing) may take before a wait or a retry is no
 * longer allowed. All of the call's time since it started is charged to it, its attempts
 * included, not only its waits: otherwise answers that are slow to come (a 429 that takes 5 s)
 * cost nothing and a call with a 1 s budget could go on for as many of them as it likes. A wait
 * fails at once when it does not fit in what is left, and ends as soon as the execution is
 * cancelled. A call may also have a deadline for everything: then nothing waits past it and no
 * request runs past it (send.ts).
 */
import type { Clock } from './clock';

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

export class Budget {
	/** Time spent sleeping (what the benchmark subtracts); `spentMs` is what is charged. */
	waitedMs = 0;
	private readonly startedAtMs: number;

	constructor(
		private readonly clock: Clock,
		readonly budgetMs: number,
		readonly cancelSignal: AbortSignal | undefined,
		private readonly onWaited: (ms: number) => void = () => undefined,
		/** When the whole call must be over (epoch ms on `clock`); none by default. */
		private readonly deadlineAtMs = Number.POSITIVE_INFINITY,
	) {
		this.startedAtMs = clock.now();
	}

	/** The call's whole time so far: waits, attempts and everything between them. */
	get spentMs(): number {
		return Math.max(0, this.clock.now() - this.startedAtMs);
	}

	get leftMs(): number {
		return Math.max(0, Math.min(this.budgetMs - this.spentMs, this.untilDeadlineMs));
	}

	/** Time left before the call's deadline (infinite without one). */
	get untilDeadlineMs(): number {
		return this.deadlineAtMs - this.clock.now();
	}

	throwIfCancelled(): void {
		if (this.cancelSignal?.aborted) throw new CancelledError();
	}

	/**
	 * Wait `ms`, or throw OverBudgetError at once (without waiting) when it does not fit. With
	 * `register`, a wake-up ends the wait early; then a wait that does not fit waits for one for
	 * what is left, and throws only when none comes.
	 */
	async wait(ms: number, register?: WakeRegistration): Promise<void> {
		this.throwIfCancelled();
		if (ms <= 0) return;
		const leftMs = this.leftMs;
		if (ms <= leftMs) {
			await this.sleep(ms, register);
			return;
		}
		if (!register || leftMs <= 0 || !(await this.sleep(leftMs, register))) {
			throw new OverBudgetError(ms);
		}
	}

	/** Wait until woken, for at most what is left; OverBudgetError when that runs out first. */
	async waitForWake(register: WakeRegistration): Promise<void> {
		this.throwIfCancelled();
		const leftMs = this.leftMs;
		if (leftMs <= 0 || !(await this.sleep(leftMs, register)))
			throw new OverBudgetError(leftMs, true);
	}

	/** Sleeps (charged by the clock); true when woken early. Leaves no waiter or listener behind. */
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
		const startedMs = this.clock.now();
		try {
			await Promise.race([this.clock.sleep(ms, stop.signal).catch(() => undefined), stopped]);
		} finally {
			stop.abort(); // ends the timer (where the clock honours the signal)
			unregister?.();
			this.cancelSignal?.removeEventListener('abort', onCancel);
			const spentMs = Math.max(0, this.clock.now() - startedMs);
			this.waitedMs += spentMs;
			this.onWaited(spentMs);
		}
		this.throwIfCancelled();
		return woken;
	}
}
