import type {
	DeliveryRecord,
	FaultSpec,
	NewTransaction,
	RateLimitSettings,
	Receivable,
	RequestRecord,
	SandboxEvent,
	SeedKind,
	TreasuryTransaction,
} from './types';

type Stats = { memory: Record<string, number | boolean>; counts: Record<string, number> };

export class AdminError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
	) {
		super(`${status} ${code}: ${message}`);
	}
}

export class AdminClient {
	constructor(private readonly baseUrl: string) {}

	private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const res = await fetch(`${this.baseUrl}/_admin${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		const parsed = text ? JSON.parse(text) : {};
		if (!res.ok) {
			throw new AdminError(
				res.status,
				parsed?.error?.code ?? 'UNKNOWN',
				parsed?.error?.message ?? text,
			);
		}
		return parsed.data as T;
	}

	reset = (seed?: SeedKind) =>
		this.call<{ seed: SeedKind }>('POST', '/reset', seed === undefined ? {} : { seed });
	setReceivableStatus = (id: string, status: 'paid' | 'overdue') =>
		this.call<Receivable>('POST', `/receivables/${encodeURIComponent(id)}/status`, { status });
	addTransactions = (transactions: NewTransaction[]) =>
		this.call<TreasuryTransaction[]>('POST', '/treasury/transactions', { transactions });
	seedVendors = (count: number) =>
		this.call<{ added: number; total: number }>('POST', '/vendors/seed', { count });
	removeVendor = (id: string) =>
		this.call<{ total: number }>('DELETE', `/vendors/${encodeURIComponent(id)}`);
	addFault = (fault: FaultSpec) => this.call<{ id: string }>('POST', '/faults', fault);
	clearFaults = () => this.call<{ cleared: number }>('DELETE', '/faults');
	getRequests = () => this.call<RequestRecord[]>('GET', '/requests');
	clearRequests = () => this.call<{ cleared: boolean }>('DELETE', '/requests');
	getEvents = () => this.call<SandboxEvent[]>('GET', '/events');
	getDeliveries = () => this.call<DeliveryRecord[]>('GET', '/deliveries');
	getStats = () => this.call<Stats>('GET', '/stats');
	setRateLimit = (settings: RateLimitSettings) =>
		this.call<Required<RateLimitSettings>>('PUT', '/rate-limit', settings);
}
