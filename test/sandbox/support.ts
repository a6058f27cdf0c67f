/**
 * Shared pieces of the sandbox's HTTP-level suite. Written from docs/api-decisions.md and
 * sandbox/API.md only: every admin call goes over HTTP (not through
 * the sandbox's typed client), so these tests check the documented routes themselves.
 */
import { randomUUID } from 'crypto';

import { startSandbox } from '../../sandbox';
import { createHttpClient, type HttpClient, type HttpResponse } from '../helpers/http';
import { bodyOf, scriptedServer } from '../helpers/scripted-server';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
export type SandboxOptions = Parameters<typeof startSandbox>[0];

export interface Harness {
	sb: Sandbox;
	/** /v1 client with the working key. */
	api: HttpClient;
	/** Same server, no Authorization header (admin routes; auth tests pass their own key). */
	raw: HttpClient;
	admin: AdminClient;
	close(): Promise<void>;
}

/** Starts a sandbox on a free loopback port; no demo data and a rate limit tests do not hit. */
export async function startHarness(
	options: Partial<NonNullable<SandboxOptions>> = {},
): Promise<Harness> {
	const sb = await startSandbox({
		port: 0,
		host: '127.0.0.1',
		seed: 'none',
		rateLimit: 1_000_000,
		rateWindowSeconds: 60,
		...options,
	} as SandboxOptions);
	const api = createHttpClient(sb.baseUrl, { apiKey: sb.apiKey });
	const raw = createHttpClient(sb.baseUrl, { apiKey: null });
	return { sb, api, raw, admin: adminClient(raw), close: () => sb.close() };
}

export interface AdminClient {
	reset(seed?: 'demo' | 'none'): Promise<HttpResponse>;
	receivableStatus(id: string, status: string): Promise<HttpResponse>;
	payableStatus(id: string, status: string): Promise<HttpResponse>;
	addTransactions(transactions: Array<Record<string, unknown>>): Promise<HttpResponse>;
	transactionStatus(id: string, status: string): Promise<HttpResponse>;
	seedVendors(count: number): Promise<HttpResponse>;
	addFault(fault: Record<string, unknown>): Promise<HttpResponse>;
	clearFaults(): Promise<HttpResponse>;
	requests(): Promise<any[]>;
	clearRequests(): Promise<HttpResponse>;
	events(): Promise<any[]>;
	deliveries(): Promise<any[]>;
	rateLimit(settings: {
		limit?: number;
		windowSeconds?: number;
		retryAfter?: boolean;
	}): Promise<HttpResponse>;
}

function ok(res: HttpResponse, what: string): HttpResponse {
	if (res.status < 200 || res.status >= 300) {
		throw new Error(`admin ${what} answered ${res.status}: ${res.text}`);
	}
	return res;
}

/** The admin routes of sandbox/API.md, over HTTP. Throws on a non-2xx answer. */
function adminClient(raw: HttpClient): AdminClient {
	return {
		reset: async (seed) => ok(await raw.post('/_admin/reset', seed ? { seed } : {}), 'reset'),
		receivableStatus: async (id, status) =>
			ok(await raw.post(`/_admin/receivables/${id}/status`, { status }), 'receivable status'),
		payableStatus: async (id, status) =>
			ok(await raw.post(`/_admin/payables/${id}/status`, { status }), 'payable status'),
		addTransactions: async (transactions) =>
			ok(await raw.post('/_admin/treasury/transactions', { transactions }), 'add transactions'),
		transactionStatus: async (id, status) =>
			ok(
				await raw.post(`/_admin/treasury/transactions/${id}/status`, { status }),
				'transaction status',
			),
		seedVendors: async (count) =>
			ok(await raw.post('/_admin/vendors/seed', { count }), 'seed vendors'),
		addFault: async (fault) => ok(await raw.post('/_admin/faults', fault), 'add fault'),
		clearFaults: async () => ok(await raw.delete('/_admin/faults'), 'clear faults'),
		requests: async () => ok(await raw.get('/_admin/requests'), 'requests').body.data,
		clearRequests: async () => ok(await raw.delete('/_admin/requests'), 'clear requests'),
		events: async () => ok(await raw.get('/_admin/events'), 'events').body.data,
		deliveries: async () => ok(await raw.get('/_admin/deliveries'), 'deliveries').body.data,
		rateLimit: async (settings) => ok(await raw.put('/_admin/rate-limit', settings), 'rate-limit'),
	};
}

// ---------------------------------------------------------------- assertions

/** The vendor count the API reports (`meta.total`). */
export async function vendorTotal(h: Harness): Promise<number> {
	const res = await h.api.get('/v1/vendors');
	expect(res.status).toBe(200);
	return res.body.meta.total;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 UTC date-time. */
const DATE_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function expectDateTime(value: unknown): void {
	expect(typeof value).toBe('string');
	expect(value).toMatch(DATE_TIME_RE);
	expect(Number.isNaN(Date.parse(value as string))).toBe(false);
}

export function expectError(res: HttpResponse, status: number, code: string): void {
	expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
	expect(typeof res.body.error.message).toBe('string');
	expect(res.body.error.message.length).toBeGreaterThan(0);
}

/** 400 VALIDATION_ERROR whose message names the field. */
export function expectValidationError(res: HttpResponse, field: string): void {
	expectError(res, 400, 'VALIDATION_ERROR');
	expect(res.body.error.message).toContain(field);
}

/** Exactly the documented fields: every one present (null when unset), nothing else. */
export function expectOnlyFields(obj: Record<string, unknown>, fields: readonly string[]): void {
	expect(Object.keys(obj).sort()).toEqual([...fields].sort());
}

export const RECEIVABLE_FIELDS = [
	'id',
	'invoice_number',
	'customer_id',
	'customer_name',
	'customer_email',
	'amount',
	'currency',
	'due_date',
	'status',
	'notes',
	'sent_at',
	'paid_at',
	'created_at',
	'updated_at',
] as const;
export const PAYABLE_FIELDS = [
	'id',
	'invoice_number',
	'vendor_id',
	'vendor_name',
	'amount',
	'currency',
	'due_date',
	'status',
	'notes',
	'payment_method',
	'created_at',
	'updated_at',
] as const;
export const VENDOR_FIELDS = [
	'id',
	'name',
	'email',
	'payment_method',
	'bank_name',
	'account_name',
	'account_number_last4',
	'routing_number_last4',
	'wallet_address',
	'wallet_chain',
	'created_at',
	'updated_at',
] as const;
export const TRANSACTION_FIELDS = [
	'id',
	'type',
	'amount',
	'currency',
	'network',
	'status',
	'reference',
	'created_at',
	'completed_at',
] as const;
export const WEBHOOK_FIELDS = [
	'id',
	'url',
	'description',
	'filter_types',
	'disabled',
	'created_at',
	'updated_at',
] as const;
/** Never in a vendor or payable response. */
const SECRET_FIELDS = [
	'swift_code',
	'iban',
	'bank_address',
	'account_number',
	'routing_number',
] as const;

/** No secret field at any depth of a JSON value. */
export function expectNoSecretFields(value: unknown): void {
	const found: string[] = [];
	const walk = (v: unknown, path: string) => {
		if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
		else if (v && typeof v === 'object') {
			for (const [k, x] of Object.entries(v)) {
				if ((SECRET_FIELDS as readonly string[]).includes(k)) found.push(`${path}.${k}`);
				walk(x, `${path}.${k}`);
			}
		}
	};
	walk(value, '$');
	expect(found).toEqual([]);
}

export function expectPageMeta(
	res: HttpResponse,
	meta: { page: number; limit: number; total: number; has_more: boolean },
): void {
	expect(res.status).toBe(200);
	expect(res.body.meta).toEqual(meta);
	expect(Array.isArray(res.body.data)).toBe(true);
}

// ---------------------------------------------------------------- valid request bodies

const EVM_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

let counter = 0;
function uniq(prefix: string): string {
	counter += 1;
	return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

export function achVendor(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		name: uniq('Acme Supplies'),
		email: 'billing@acme.example',
		payment_method: 'ach',
		bank_name: 'First Test Bank',
		account_name: 'Acme Supplies LLC',
		account_number: '000123456789',
		routing_number: '021000021',
		...overrides,
	};
}

export function cryptoVendor(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		name: uniq('Chain Contractor'),
		email: 'pay@chain.example',
		payment_method: 'crypto',
		wallet_address: EVM_ADDRESS,
		wallet_chain: 'ethereum',
		...overrides,
	};
}

export function receivableBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		invoice_number: uniq('INV'),
		amount: 1250.5,
		customer_id: randomUUID(),
		customer_name: 'Globex Corporation',
		customer_email: 'ap@globex.example',
		due_date: '2026-12-31',
		notes: 'Net 30',
		...overrides,
	};
}

export function payableBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		invoice_number: uniq('BILL'),
		amount: 980.25,
		vendor_name: 'Initech Services',
		vendor_email: 'billing@initech.example',
		due_date: '2026-12-15',
		notes: 'Office chairs',
		payment_method: 'ach',
		bank_name: 'First Test Bank',
		account_name: 'Initech Services Inc',
		account_number: '000987654321',
		routing_number: '011000015',
		...overrides,
	};
}

// ---------------------------------------------------------------- webhook receiver

interface ReceivedRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body: string;
	receivedAt: number;
}

export interface Receiver {
	url: string;
	received: ReceivedRequest[];
	/** Status to answer for the n-th request (0-based); default 200; 0 = never answer. */
	respond: (index: number, req: ReceivedRequest) => number;
	waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
	close(): Promise<void>;
}

/** A receiver on the shared scripted server (test/helpers) that records every request. */
export async function startReceiver(path = '/hook'): Promise<Receiver> {
	const received: ReceivedRequest[] = [];
	const server = await scriptedServer((req, res) => {
		void bodyOf(req).then((body) => {
			const headers: Record<string, string> = {};
			for (const [k, v] of Object.entries(req.headers))
				headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
			const entry: ReceivedRequest = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers,
				body: body.toString('utf8'),
				receivedAt: Date.now(),
			};
			const index = received.length;
			received.push(entry);
			const status = receiver.respond(index, entry);
			if (status === 0) return; // leave the request hanging (ended by close())
			res.statusCode = status;
			res.end();
		});
	});
	const receiver: Receiver = {
		url: `${server.baseUrl}${path}`,
		received,
		respond: () => 200,
		waitFor: async (count, timeoutMs = 5000) => {
			const deadline = Date.now() + timeoutMs;
			while (received.length < count && Date.now() < deadline) await sleep(10);
			return received;
		},
		close: () => server.close(),
	};
	return receiver;
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `fn` until it returns a truthy value or the timeout passes; returns the last value. */
export async function eventually<T>(
	fn: () => Promise<T>,
	ok: (v: T) => boolean,
	timeoutMs = 5000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let value = await fn();
	while (!ok(value) && Date.now() < deadline) {
		await sleep(20);
		value = await fn();
	}
	return value;
}
