/** Typed client for the admin routes (real HTTP, like every other user of the sandbox). */
import type {
	DeliveryRecord,
	FaultSpec,
	NewTransaction,
	Payable,
	RateLimitSettings,
	Receivable,
	RequestRecord,
	SandboxEvent,
	SeedKind,
	TreasuryTransaction,
} from './types';

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

	reset(seed?: SeedKind): Promise<{ seed: SeedKind }> {
		return this.call('POST', '/reset', seed === undefined ? {} : { seed });
	}
	setReceivableStatus(id: string, status: 'paid' | 'overdue'): Promise<Receivable> {
		return this.call('POST', `/receivables/${encodeURIComponent(id)}/status`, { status });
	}
	setPayableStatus(id: string, status: 'scheduled' | 'paid' | 'failed'): Promise<Payable> {
		return this.call('POST', `/payables/${encodeURIComponent(id)}/status`, { status });
	}
	addTransactions(transactions: NewTransaction[]): Promise<TreasuryTransaction[]> {
		return this.call('POST', '/treasury/transactions', { transactions });
	}
	setTransactionStatus(id: string, status: 'completed' | 'failed'): Promise<TreasuryTransaction> {
		return this.call('POST', `/treasury/transactions/${encodeURIComponent(id)}/status`, { status });
	}
	seedVendors(count: number): Promise<{ added: number; total: number }> {
		return this.call('POST', '/vendors/seed', { count });
	}
	addFault(fault: FaultSpec): Promise<{ id: string }> {
		return this.call('POST', '/faults', fault);
	}
	clearFaults(): Promise<{ cleared: number }> {
		return this.call('DELETE', '/faults');
	}
	getRequests(): Promise<RequestRecord[]> {
		return this.call('GET', '/requests');
	}
	clearRequests(): Promise<{ cleared: boolean }> {
		return this.call('DELETE', '/requests');
	}
	getEvents(): Promise<SandboxEvent[]> {
		return this.call('GET', '/events');
	}
	getDeliveries(): Promise<DeliveryRecord[]> {
		return this.call('GET', '/deliveries');
	}
	getStats(): Promise<{
		memory: Record<string, number | boolean>;
		counts: Record<string, number>;
	}> {
		return this.call('GET', '/stats');
	}
	setRateLimit(settings: RateLimitSettings): Promise<Required<RateLimitSettings>> {
		return this.call('PUT', '/rate-limit', settings);
	}
}
