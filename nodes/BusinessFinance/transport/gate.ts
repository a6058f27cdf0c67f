/**
 * The per-key rate-limit gate: what the service said about the current window, shared by every
 * call that uses the key in this process, so concurrent callers queue instead of stampeding.
 *
 * Bounds, by construction: nothing stored here blocks the key for longer than MAX_KEY_BLOCK_MS
 * after the answer that said so (every stored time is capped when it is stored), and every wait
 * for the gate is a wait on the caller's Budget (bounded, cancellable, leaving nothing behind).
 */
import { createHash } from 'crypto';

import type { Budget, WakeRegistration } from './budget';
import type { Clock } from './clock';
import { type Headers, readRateHeaders } from './headers';
import { backoffMs } from './retry';
import { SPEC_WINDOW_MS, type Timing, WindowLearner } from './window';

/** The longest one answer may block a key: a window, plus whole-second rounding and skew. */
export const MAX_KEY_BLOCK_MS = SPEC_WINDOW_MS + 2_000;
/**
 * Two answers' resets at least this far apart name different windows. Less may be the same
 * window: a reset sent as seconds from now, or corrected by the Date header, moves by up to a
 * second (and the latency) from one answer to the next.
 */
const WINDOW_STEP_MS = 2_000;
/** Without a usable reset, what an answer says holds from 1 s, doubling, up to a window. */
const NO_RESET_BACKOFF_BASE_MS = 1_000;

/** The current window as the service described it. */
interface KnownWindow {
	/**
	 * The lowest X-RateLimit-Remaining of the window's answers: the service's count is at least
	 * that high. This process's requests still on their way come off it when admitting (they may
	 * not be counted yet); each is in the count once answered, so its slot is not lost for good
	 * when the service had counted it before another answer.
	 */
	lowestRemaining: number;
	/** Requests that got no answer in this window: the service may have counted them. */
	unanswered: number;
	/** When this knowledge ends (the window's end, or a backoff): then one request probes. */
	endsAtMs: number;
	/** X-RateLimit-Reset of the window, to recognise the next one. */
	resetAtMs?: number;
}

type Admission =
	| { go: true; probe: boolean }
	/** Wait until `untilMs` (or, without it, to be woken); `orWoken`: an answer may free a slot. */
	| { go: false; untilMs?: number; orWoken?: boolean };

export interface Ticket {
	/** Record the answer's rate-limit headers (before the release). */
	answered(headers: Headers | undefined, timing: Timing): void;
	/** Call once the answer has been recorded, or the request failed. */
	release(): void;
}

export class KeyGate {
	private window?: KnownWindow;
	/** Set by a 429, capped: nobody on the key sends before this. */
	private blockedUntilMs = 0;
	private probing = false;
	private inFlight = 0;
	/** The service sends no rate-limit headers: nothing to track, do not queue. */
	private untracked = false;
	/** Consecutive answers with `remaining 0` and no usable reset (grows their backoff). */
	private zeroWithoutReset = 0;
	private readonly wakers = new Set<() => void>();
	readonly learner: WindowLearner;

	constructor(
		private readonly clock: Clock,
		learnWindows: boolean,
	) {
		this.learner = new WindowLearner(learnWindows);
	}

	/** Callers waiting to be woken by an answer (tests: none may be left behind). */
	get waiting(): number {
		return this.wakers.size;
	}

	/** Wait (on the caller's budget) until this key may send one request. */
	async acquire(budget: Budget): Promise<Ticket> {
		for (;;) {
			const admission = this.admit(this.clock.now());
			if (admission.go) return this.ticket(admission.probe);
			const register: WakeRegistration = (wake) => this.register(wake);
			if (admission.untilMs === undefined) await budget.waitForWake(register);
			else {
				const waitMs = admission.untilMs - this.clock.now();
				await budget.wait(waitMs, admission.orWoken ? register : undefined);
			}
		}
	}

	private admit(nowMs: number): Admission {
		if (this.blockedUntilMs > nowMs) return { go: false, untilMs: this.blockedUntilMs };
		if (this.window && nowMs >= this.window.endsAtMs) this.window = undefined;
		if (!this.window) {
			if (this.untracked) return { go: true, probe: false };
			if (this.probing) return { go: false };
			this.probing = true;
			return { go: true, probe: true };
		}
		const { lowestRemaining, unanswered } = this.window;
		if (lowestRemaining - unanswered - this.inFlight <= 0) {
			return { go: false, untilMs: this.window.endsAtMs, orWoken: this.inFlight > 0 };
		}
		return { go: true, probe: false };
	}

	private register(wake: () => void): () => void {
		this.wakers.add(wake);
		return () => this.wakers.delete(wake);
	}

	private ticket(probe: boolean): Ticket {
		this.inFlight += 1;
		let released = false;
		let answered = false;
		return {
			answered: (headers, timing) => {
				if (released || answered) return;
				// an answer that does not tell the count (a gateway's 504, say) proves nothing either
				answered = this.record(headers, timing);
			},
			release: () => {
				if (released) return;
				released = true;
				this.inFlight -= 1;
				if (!answered && this.window) this.window.unanswered += 1;
				if (probe) this.probing = false;
				for (const wake of [...this.wakers]) wake();
			},
		};
	}

	/**
	 * An answer's rate-limit headers, recorded while its request still counts as in flight (a
	 * request's ticket records its own answer through `answered`). True when it told the count.
	 */
	record(headers: Headers | undefined, timing: Timing): boolean {
		const nowMs = timing.receivedAtMs;
		const rate = readRateHeaders(headers, nowMs);
		if (rate.remaining === undefined) {
			if (!this.window) this.untracked = true;
			return false;
		}
		this.untracked = false;
		const current = this.window;
		// A late answer from an earlier window says nothing about this one.
		const currentResetMs = current?.resetAtMs ?? Number.NEGATIVE_INFINITY;
		if (rate.resetAtMs !== undefined && rate.resetAtMs <= currentResetMs - WINDOW_STEP_MS) {
			return true;
		}
		const resetAtMs =
			rate.resetAtMs !== undefined && rate.resetAtMs > nowMs ? rate.resetAtMs : undefined;
		if (resetAtMs !== undefined && rate.remaining === (rate.limit ?? 0) - 1) {
			this.learner.opened(resetAtMs, rate.resetInWholeSeconds, timing);
		}
		const remaining = Math.max(0, rate.remaining);
		const endsAtMs = this.knowledgeEnd(resetAtMs, remaining, nowMs);
		const newWindow =
			resetAtMs !== undefined && resetAtMs >= (current?.resetAtMs ?? -Infinity) + WINDOW_STEP_MS;
		if (!current || newWindow) {
			this.window = { lowestRemaining: remaining, unanswered: 0, endsAtMs, resetAtMs };
			return true;
		}
		current.lowestRemaining = Math.min(current.lowestRemaining, remaining);
		if (resetAtMs !== undefined && resetAtMs === current.resetAtMs) current.endsAtMs = endsAtMs;
		return true;
	}

	/** Until when an answer's counts hold: the window's end, capped; else a bounded backoff. */
	private knowledgeEnd(resetAtMs: number | undefined, remaining: number, nowMs: number): number {
		if (resetAtMs !== undefined) {
			this.zeroWithoutReset = 0;
			return Math.min(this.learner.endOf(resetAtMs), nowMs + MAX_KEY_BLOCK_MS);
		}
		const step = remaining === 0 ? this.zeroWithoutReset++ : 0;
		if (remaining > 0) this.zeroWithoutReset = 0;
		return nowMs + backoffMs(step, NO_RESET_BACKOFF_BASE_MS, SPEC_WINDOW_MS, this.clock.random());
	}

	/**
	 * A 429 to a request sent at `sentAtMs` that asks to wait until `untilMs`. When
	 * `windowResetAtMs` (the 429's reset, which alone set `untilMs`) is a window this process
	 * opened, its learnt end comes sooner. Nobody on this key sends before that end, capped at
	 * MAX_KEY_BLOCK_MS from now. Returns the end (uncapped: the caller's budget decides on it).
	 */
	rateLimited(
		untilMs: number,
		nowMs: number,
		answered: { sentAtMs: number; windowResetAtMs?: number },
	): number {
		const { sentAtMs, windowResetAtMs } = answered;
		this.learner.rateLimited(windowResetAtMs, sentAtMs);
		const endMs =
			windowResetAtMs === undefined
				? untilMs
				: Math.min(untilMs, this.learner.endOf(windowResetAtMs));
		this.untracked = false;
		this.window = undefined;
		this.blockedUntilMs = Math.max(this.blockedUntilMs, Math.min(endMs, nowMs + MAX_KEY_BLOCK_MS));
		return endMs;
	}
}

/** The gates of one transport, keyed by a SHA-256 of the key (never the key itself). */
export class GateRegistry {
	private readonly gates = new Map<string, KeyGate>();

	constructor(
		private readonly clock: Clock,
		private readonly learnWindows: boolean,
	) {}

	static keyId(apiKey: string): string {
		return createHash('sha256').update(apiKey).digest('hex');
	}

	for(apiKey: string): KeyGate {
		const id = GateRegistry.keyId(apiKey);
		let gate = this.gates.get(id);
		if (!gate) {
			gate = new KeyGate(this.clock, this.learnWindows);
			this.gates.set(id, gate);
		}
		return gate;
	}

	keyIds(): string[] {
		return [...this.gates.keys()];
	}

	clear(): void {
		this.gates.clear();
	}
}
