/**
 * The time floor a fixed-window rate limit sets (see docs/benchmarks.md).
 *
 * The sandbox's window starts at a key's first request (after the previous window ended) and
 * lasts `windowMs`; at most `limit` requests fit in it. A node sends the requests of one item
 * (and the pages of one listing) one after another, each taking at least `perRequestMs`. The
 * fastest any client can then finish R requests is what `floorMs` computes: send back to back,
 * and when a window's `limit` requests are used up, wait exactly until that window ends.
 *
 * When a full window's work fits in it (limit × perRequestMs ≤ windowMs) this is the closed form
 *   floor = (⌈R / limit⌉ − 1) × windowMs + (R − (⌈R / limit⌉ − 1) × limit) × perRequestMs:
 * the first ⌈R / limit⌉ − 1 windows are full and last `windowMs` each, then the last window's
 * remaining requests still have to be done. When the work does not fit (a slow machine), the
 * windows end before they are used up and the floor is just R × perRequestMs.
 */
export function windowsNeeded(requests: number, limit: number): number {
	return Math.max(1, Math.ceil(requests / limit));
}

export function floorMs(
	requests: number,
	limit: number,
	windowMs: number,
	perRequestMs: number,
): number {
	let t = 0; // when the next request can start
	let windowStart = -Infinity;
	let used = 0;
	for (let i = 0; i < requests; i++) {
		if (t >= windowStart + windowMs) {
			windowStart = t;
			used = 0;
		} else if (used >= limit) {
			t = windowStart + windowMs;
			windowStart = t;
			used = 0;
		}
		used++;
		t += perRequestMs;
	}
	return t;
}

/** The closed form above (valid when limit × perRequestMs ≤ windowMs); for the README and tests. */
export function closedFormFloorMs(
	requests: number,
	limit: number,
	windowMs: number,
	perRequestMs: number,
): number {
	const w = windowsNeeded(requests, limit);
	return (w - 1) * windowMs + (requests - (w - 1) * limit) * perRequestMs;
}

/** Pages needed to list `items` with pages of `pageSize` (at least one request, even for 0 items). */
export function minimumRequests(items: number, pageSize: number): number {
	return Math.max(1, Math.ceil(items / pageSize));
}
