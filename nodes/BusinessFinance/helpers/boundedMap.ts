/**
 * A Map of at most `max` entries in the order they were last set, the oldest dropped beyond
 * `max`: the trigger's memory cannot grow without bound. `dropOldestWhile` keeps its walk (a Map
 * keeps deleted slots until rebuilt: a fresh walk would pass every dropped entry again).
 */
export class BoundedMap<K, V> {
	private readonly entries = new Map<K, V>();
	/** Walks `entries` in order; every entry it has passed is deleted, but `head`. */
	private walk?: MapIterator<[K, V]>;
	/** The entry the walk read last and that is still held: the oldest. */
	private head?: [K, V];

	constructor(private readonly max: number) {}

	get size(): number {
		return this.entries.size;
	}

	get(key: K): V | undefined {
		return this.entries.get(key);
	}

	/** Sets `key` as the newest entry; returns the oldest entry when that had to be dropped. */
	set(key: K, value: V): [K, V] | undefined {
		this.delete(key);
		this.entries.set(key, value);
		if (this.entries.size <= this.max) return undefined;
		// A map never swept keeps no walk: a live iterator holds on to the Map's old tables after a
		// rehash (38 MB held after 450,000 deliveries, measured), so it reads the first entry.
		const first = () => this.entries.entries().next().value as [K, V];
		const oldest = this.walk ? (this.oldest() as [K, V]) : first();
		this.delete(oldest[0]);
		return oldest;
	}

	delete(key: K): boolean {
		if (this.head?.[0] === key) this.head = undefined;
		return this.entries.delete(key);
	}

	/** Drops the oldest entries as long as `drop` says so of the oldest. */
	dropOldestWhile(drop: (value: V) => boolean): void {
		for (let entry = this.oldest(); entry && drop(entry[1]); entry = this.oldest()) {
			this.delete(entry[0]);
		}
	}

	private oldest(): [K, V] | undefined {
		if (this.head) return this.head;
		this.walk ??= this.entries.entries();
		const next = this.walk.next();
		// A finished walk stays finished, even when entries are added later: the next one starts afresh.
		if (next.done) this.walk = undefined;
		else this.head = next.value;
		return this.head;
	}
}
