/** Fixed-window rate limiting, one window per key (API key, or client address for 401s). */

export interface RateResult {
	limit: number;
	remaining: number;
	/** Integer Unix seconds at which the window ends (rounded up). */
	reset: number;
	exceeded: boolean;
	/** Whole seconds until the window ends, at least 1. */
	retryAfter: number;
}

export class RateLimiter {
	private windows = new Map<string, { start: number; count: number }>();

	constructor(
		public limit: number,
		public windowSeconds: number,
		public retryAfter: boolean,
	) {}

	hit(key: string, now = Date.now()): RateResult {
		const windowMs = this.windowSeconds * 1000;
		let w = this.windows.get(key);
		if (!w || now >= w.start + windowMs) {
			w = { start: now, count: 0 };
			this.windows.set(key, w);
		}
		if (w.count <= this.limit) w.count++;
		const end = w.start + windowMs;
		return {
			limit: this.limit,
			remaining: Math.max(0, this.limit - w.count),
			reset: Math.ceil(end / 1000),
			exceeded: w.count > this.limit,
			retryAfter: Math.max(1, Math.ceil((end - now) / 1000)),
		};
	}

	reset(): void {
		this.windows.clear();
	}
}
