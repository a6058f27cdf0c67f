import { randomBytes } from 'crypto';

export const prefixedId = (prefix: string): string =>
	`${prefix}_${randomBytes(12).toString('hex')}`;

export const nowIso = (): string => new Date().toISOString();

/** mulberry32: a small deterministic PRNG for seeds and fault rates. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export const round8 = (n: number): number => Math.round(n * 1e8) / 1e8;
