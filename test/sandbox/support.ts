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

/**
 * One harness for the calling test file: started before its tests and closed after them; with
 * `resetEach`, emptied (`admin.reset('none')`: data, logs, faults, rate counters) before each.
 */
export function useHarness(options: SandboxOptions = {}, { resetEach = false } = {}): Harness {
	const h = {} as Harness;
	beforeAll(async () => {
		// a free loopback port, no demo data and a rate limit tests do not hit
		const sb = await startSandbox({ port: 0, seed: 'none', rateLimit: 1_000_000, ...options });
		const api = createHttpClient(sb.baseUrl, { apiKey: sb.apiKey });
		const raw = createHttpClient(sb.baseUrl, { apiKey: null });
		Object.assign(h, { sb, api, raw, admin: sb.admin, close: () => sb.close() });
	});
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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
