import type * as S from './schemas';

export type SeedKind = 'demo' | 'none';

export interface SandboxOptions {
	/** The CLI defaults to 4010; defaults of the others: resolveOptions in index.ts. */
	port?: number;
	host?: string;
	apiKey?: string;
	rateLimit?: number;
	rateWindowSeconds?: number;
	retryAfter?: boolean;
	seed?: SeedKind;
	/** Its length bounds the retries. */
	deliveryRetryDelaysMs?: number[];
	deliveryTimeoutMs?: number;
}

export type ResolvedOptions = Required<SandboxOptions>;

export const EXPIRED_KEY = 'svc_sandbox_expired_key';
export const REVOKED_KEY = 'svc_sandbox_revoked_key';
export const DEFAULT_API_KEY = 'svc_sandbox_demo_key';

export type ReceivableStatus = 'draft' | 'sent' | 'paid' | 'overdue' | 'cancelled';
export type PayableStatus =
	'pending_review' | 'ready' | 'scheduled' | 'paid' | 'failed' | 'cancelled';
export type PaymentMethod = (typeof S.PAYMENT_METHODS)[number];

/** Every stored resource has these, and lists are ordered by them. */
export interface Ordered {
	id: string;
	created_at: string;
}

export interface Receivable extends Ordered {
	invoice_number: string;
	customer_id: string | null;
	customer_name: string | null;
	customer_email: string | null;
	amount: number;
	currency: string;
	due_date: string | null;
	status: ReceivableStatus;
	notes: string | null;
	sent_at: string | null;
	paid_at: string | null;
	updated_at: string;
}

export interface Payable extends Ordered {
	invoice_number: string;
	vendor_id: string | null;
	vendor_name: string | null;
	amount: number;
	currency: string;
	due_date: string | null;
	status: PayableStatus;
	notes: string | null;
	payment_method: PaymentMethod | null;
	updated_at: string;
}

export interface Vendor extends Ordered {
	name: string;
	email: string | null;
	payment_method: PaymentMethod;
	bank_name: string | null;
	account_name: string | null;
	account_number_last4: string | null;
	routing_number_last4: string | null;
	wallet_address: string | null;
	wallet_chain: string | null;
	updated_at: string;
}

export interface TreasuryTransaction extends Ordered {
	type: (typeof S.TRANSACTION_TYPES)[number];
	amount: number;
	currency: string;
	network: string | null;
	status: (typeof S.TRANSACTION_STATUSES)[number];
	reference: string | null;
	completed_at: string | null;
}

export interface WebhookEndpoint extends Ordered {
	url: string;
	description: string;
	filter_types: string[];
	disabled: boolean;
	updated_at: string;
}

export interface SandboxEvent {
	id: string;
	type: string;
	created_at: string;
	data: unknown;
}

export interface DeliveryRecord {
	event_id: string;
	event_type: string;
	endpoint_id: string;
	url: string;
	attempt: number;
	status?: number;
	error?: string;
	delivered_at: string;
}

export interface RequestRecord {
	method: string;
	path: string;
	query: Record<string, string | string[]>;
	body: unknown;
	status: number;
	headers: Record<string, string | string[] | undefined>;
}

export type FaultKind = (typeof S.FAULT_KINDS)[number];
export type FaultSpec = S.BodyOf<typeof S.adminFault>;
export type NewTransaction = S.BodyOf<typeof S.adminTransactions>['transactions'][number];
export type RateLimitSettings = S.BodyOf<typeof S.adminRateLimit>;
