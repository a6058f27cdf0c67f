/** The capped map behind the trigger's memories (helpers/boundedMap.ts). */
import { BoundedMap } from '../../nodes/BusinessFinance/helpers/boundedMap';

const contents = (map: BoundedMap<string, number>, keys: string[]) =>
	keys.filter((key) => map.get(key) !== undefined);

describe('BoundedMap', () => {
	it('beyond its cap drops the oldest and returns it; setting a key again makes it the newest', () => {
		const map = new BoundedMap<string, number>(3);
		expect([map.set('a', 1), map.set('b', 2), map.set('c', 3)]).toEqual([
			undefined,
			undefined,
			undefined,
		]);
		expect(map.set('a', 4)).toBeUndefined(); // a moves to the end
		expect(map.set('d', 5)).toEqual(['b', 2]);
		expect(map.set('e', 6)).toEqual(['c', 3]);
		expect(contents(map, ['a', 'b', 'c', 'd', 'e'])).toEqual(['a', 'd', 'e']);
		expect(map.size).toBe(3);
	});

	it('drops the oldest while they match, and stops at the first that does not', () => {
		const map = new BoundedMap<string, number>(10);
		for (const [key, value] of [
			['a', 1],
			['b', 2],
			['c', 9],
			['d', 1],
		] as const)
			map.set(key, value);
		map.dropOldestWhile((value) => value < 5);
		expect(contents(map, ['a', 'b', 'c', 'd'])).toEqual(['c', 'd']);
		map.delete('c'); // the oldest, deleted from outside the walk
		map.set('e', 1);
		map.dropOldestWhile((value) => value < 5);
		expect(map.size).toBe(0);
		map.set('f', 7); // after a finished walk, a new one
		expect(map.set('g', 8)).toBeUndefined();
		map.dropOldestWhile((value) => value < 8);
		expect(contents(map, ['f', 'g'])).toEqual(['g']);
	});

	it('once swept, drops the oldest beyond its cap through the same walk', () => {
		const map = new BoundedMap<string, number>(2);
		map.set('a', 1);
		map.set('b', 2);
		map.dropOldestWhile(() => false); // the walk now holds a
		expect(map.set('c', 3)).toEqual(['a', 1]);
		expect(map.set('b', 4)).toBeUndefined(); // b moves behind c
		expect(map.set('d', 5)).toEqual(['c', 3]);
		expect(contents(map, ['a', 'b', 'c', 'd'])).toEqual(['b', 'd']);
	});
});
