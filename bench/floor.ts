import { API_MAX_PAGE_SIZE } from '../nodes/BusinessFinance/helpers/constants';

// docs/benchmarks.md, "The floor". Simulated rather than the closed form, which only holds while
// a full window's work fits in it (limit × perRequestMs ≤ windowMs).
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
		if (t >= windowStart + windowMs || used >= limit) {
			t = Math.max(t, windowStart + windowMs);
			windowStart = t;
			used = 0;
		}
		used++;
		t += perRequestMs;
	}
	return t;
}

/** Pages of a listing: at least one request, even for 0 items. */
export function minimumRequests(items: number): number {
	return Math.max(1, Math.ceil(items / API_MAX_PAGE_SIZE));
}
