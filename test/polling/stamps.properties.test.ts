/**
 * Property: compareStamps orders ISO 8601 timestamps as the instants they name, to the last
 * digit, however a service writes them (fraction trimmed or padded, any precision, Z, an offset,
 * or no offset, which the API's "UTC" makes Z).
 */
import fc from 'fast-check';

import { compareStamps, isReadableStamp } from '../../nodes/BusinessFinance/polling/cursor';

/** An instant: seconds since the epoch (2000–2099) and 0–12 fraction digits. */
const instant = fc.record({
	seconds: fc.integer({ min: 946_684_800, max: 4_102_444_799 }),
	fraction: fc.stringMatching(/^\d{0,12}$/),
});
type Instant = { seconds: number; fraction: string };

/** The instant in nanoseconds ×1000 (12 fraction digits), as a BigInt: the expected order. */
const exact = ({ seconds, fraction }: Instant) =>
	BigInt(seconds) * 10n ** 12n + BigInt(fraction.padEnd(12, '0'));

/** How a service may write it: an offset in minutes (or none), the fraction trimmed or padded. */
const written = fc.record({
	offsetMinutes: fc.constantFrom(undefined, 0, 60, -300, 330, -720, 840),
	pad: fc.nat(3),
	trim: fc.boolean(),
});

type Written = { offsetMinutes?: number; pad: number; trim: boolean };

function write({ seconds, fraction }: Instant, how: Written) {
	const offset = how.offsetMinutes ?? 0;
	const local = new Date((seconds + offset * 60) * 1000).toISOString().slice(0, 19);
	const digits = how.trim ? fraction.replace(/0+$/, '') : fraction + '0'.repeat(how.pad);
	const zone =
		how.offsetMinutes === undefined
			? ''
			: how.offsetMinutes === 0
				? 'Z'
				: `${offset < 0 ? '-' : '+'}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
	return `${local}${digits ? `.${digits}` : ''}${zone}`;
}

it('orders any two timestamps as the instants they name', () => {
	fc.assert(
		fc.property(instant, written, instant, written, (a, howA, b, howB) => {
			const [x, y] = [exact(a), exact(b)];
			const expected = x < y ? -1 : x > y ? 1 : 0;
			expect(compareStamps(write(a, howA), write(b, howB))).toBe(expected);
		}),
		{ numRuns: 2_000 },
	);
});

it('the same instant written any two ways compares equal, and is readable', () => {
	fc.assert(
		fc.property(instant, written, written, (a, howA, howB) => {
			const [one, other] = [write(a, howA), write(a, howB)];
			expect(compareStamps(one, other)).toBe(0);
			expect(isReadableStamp(one) && isReadableStamp(other)).toBe(true);
		}),
		{ numRuns: 1_000 },
	);
});

it.each(['', 'yesterday', '2026-02-30T10:00:00Z', '2026-01-01T24:00:00Z', '1767225600'])(
	'%j is no timestamp',
	(text) => expect(isReadableStamp(text)).toBe(false),
);
