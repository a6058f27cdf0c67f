/** The capped map behind the trigger's memories (helpers/boundedMap.ts). */
import { BoundedMap } from '../../nodes/BusinessFinance/helpers/boundedMap';

const contents = (map: BoundedMap<string, number>, keys: string[]) =>
	keys.filter((key) => map.get(key) !== undefined);

describe('BoundedMap', () => {
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
});
