/**
 * Shared pieces of the sandbox's HTTP-level suite, written from docs/api-decisions.md and
 * sandbox/API.md. Admin calls go through `sb.admin` (sandbox/client.ts, real HTTP), the client
 * every other suite uses; tests that pin an admin route's own answer call it with `raw`.
 */
import { randomUUID } from 'crypto';

import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox';
import { createHttpClient, type HttpClient, type HttpResponse } from '../helpers/http';

export interface Harness {
	sb: RunningSandbox;
	/** /v1 client with the working key. */
	api: HttpClient;
	/** Same server, no Authorization header (admin routes; auth tests pass their own key). */
	raw: HttpClient;
	admin: RunningSandbox['admin'];
	close(): Promise<void>;
}

/** Starts a sandbox on a free loopback port; no demo data and a rate limit tests do not hit. */
export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
	const sb = await startSandbox({ port: 0, seed: 'none', rateLimit: 1_000_000, ...options });
	const api = createHttpClient(sb.baseUrl, { apiKey: sb.apiKey });
	const raw = createHttpClient(sb.baseUrl, { apiKey: null });
	return { sb, api, raw, admin: sb.admin, close: () => sb.close() };
}

/**
 * One harness for the calling test file: started before its tests and closed after them; with
 * `resetEach`, emptied (`admin.reset('none')`: data, logs, faults, rate counters) before each.
 */
export function useHarness(options: SandboxOptions = {}, { resetEach = false } = {}): Harness {
	const h = {} as Harness;
	beforeAll(async () => void Object.assign(h, await startHarness(options)));
	afterAll(async () => h.close?.());
	if (resetEach) beforeEach(async () => void (await h.admin.reset('none')));
	return h;
}

/** The X-RateLimit-* headers, each checked to be an integer. */
export function expectRateHeaders(res: HttpResponse) {
	const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) => {
		expect(res.headers[`x-ratelimit-${name}`]).toMatch(/^\d+$/);
		return Number(res.headers[`x-ratelimit-${name}`]);
	});
	return { limit, remaining, reset };
}

/** The vendor count the API reports (`meta.total`). */
export async function vendorTotal(h: Harness): Promise<number> {
	const res = await h.api.get('/v1/vendors');
	expect(res.status).toBe(200);
	return res.body.meta.total;
}

/** ISO 8601 UTC date-time. */
export function expectDateTime(value: unknown): void {
	expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
	expect(Number.isNaN(Date.parse(value as string))).toBe(false);
}

export function expectError(res: HttpResponse, status: number, code: string): void {
	expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
	expect(res.body.error.message).toEqual(expect.stringMatching(/./));
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

export function expectPageMeta(
	res: HttpResponse,
	meta: { page: number; limit: number; total: number; has_more: boolean },
): void {
	expect(res.status).toBe(200);
	expect(res.body.meta).toEqual(meta);
	expect(Array.isArray(res.body.data)).toBe(true);
}

// ---------------------------------------------------------------- valid request bodies

const uniq = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `fn` until `ok` holds for its value or the timeout passes; returns the last value. */
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
