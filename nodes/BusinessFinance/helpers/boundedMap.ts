/**
 * A Map of at most `max` entries in the order they were last set: setting a key makes it the
 * newest, and setting one beyond `max` drops the oldest. What the trigger keeps in the n8n
 * process's memory per trigger or endpoint is held in these, so that no number of workflows,
 * endpoints or deliveries can grow it without bound.
 *
 * `dropOldestWhile` reads the oldest entries through one walk that is kept, not started afresh: a
 * Map leaves the slots of deleted entries in place until it is rebuilt, so a walk from the start
 * would pass every entry dropped so far again (tens of thousands after a burst) before the first
 * one still held. A kept walk also keeps the tables the Map has outgrown until it moves on, so a
 * map that is only capped, never swept, takes one step from the start when it is full instead.
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
