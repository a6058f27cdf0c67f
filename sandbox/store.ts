/**
 * In-memory store. Each collection keeps its items in list order (created_at, then id) in an
 * array plus an id index, so a page of a list is a slice.
 */
import type {
	DeliveryRecord,
	Ordered,
	Payable,
	Receivable,
	RequestRecord,
	SandboxEvent,
	TreasuryTransaction,
	Vendor,
	WebhookEndpoint,
} from './types';

function compare(a: Ordered, b: Ordered): number {
	if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class Collection<T extends Ordered> {
	private items: T[] = [];
	private byId = new Map<string, T>();

	get size(): number {
		return this.items.length;
	}

	get(id: string): T | undefined {
		return this.byId.get(id);
	}

	/** Adds items at their place in list order (new ones usually belong at the end). */
	insert(list: readonly T[]): void {
		let inOrder = true;
		for (const item of list) {
			const last = this.items[this.items.length - 1];
			if (last && compare(last, item) > 0) inOrder = false;
			this.items.push(item);
			this.byId.set(item.id, item);
		}
		if (!inOrder) this.items.sort(compare);
	}

	remove(item: T): void {
		this.byId.delete(item.id);
		this.items.splice(this.items.indexOf(item), 1);
	}

	all(): readonly T[] {
		return this.items;
	}

	clear(): void {
		this.items = [];
		this.byId.clear();
	}
}

/** A log that keeps only its last `max` records. */
export class BoundedLog<T> {
	private records: T[] = [];
	constructor(private readonly max: number) {}
	push(record: T): void {
		this.records.push(record);
		if (this.records.length > this.max * 1.1) this.records = this.records.slice(-this.max);
	}
	list(): T[] {
		return this.records.length > this.max ? this.records.slice(-this.max) : this.records.slice();
	}
	clear(): void {
		this.records = [];
	}
}

export class Store {
	readonly receivables = new Collection<Receivable>();
	readonly payables = new Collection<Payable>();
	readonly vendors = new Collection<Vendor>();
	readonly transactions = new Collection<TreasuryTransaction>();
	readonly webhooks = new Collection<WebhookEndpoint>();
	/** Webhook endpoint id → `whsec_…` secret. */
	readonly secrets = new Map<string, string>();
	readonly requests = new BoundedLog<RequestRecord>(50_000);
	readonly events = new BoundedLog<SandboxEvent>(10_000);
	readonly deliveries = new BoundedLog<DeliveryRecord>(10_000);
	startedAt = new Date().toISOString();

	clearData(): void {
		for (const c of [this.receivables, this.payables, this.vendors, this.transactions]) c.clear();
		for (const part of [this.webhooks, this.secrets, this.requests, this.events, this.deliveries])
			part.clear();
		this.startedAt = new Date().toISOString();
	}
}
