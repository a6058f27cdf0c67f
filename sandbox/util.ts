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

export function seededUuid(rand: () => number): string {
	const HEX = '0123456789abcdef';
	const codes = new Array<number>(36);
	for (let i = 0, j = 0; i < 36; i++) {
		if (i === 8 || i === 13 || i === 18 || i === 23) {
			codes[i] = 45; // '-'
			continue;
		}
		const d = Math.floor(rand() * 16);
		codes[i] = HEX.charCodeAt(j === 12 ? 4 : j === 16 ? (d & 0x3) | 0x8 : d);
		j++;
	}
	return String.fromCharCode(...codes);
}

export const round8 = (n: number): number => Math.round(n * 1e8) / 1e8;
