/**
 * Written from docs/api-decisions.md and sandbox/API.md. Admin calls go through `sb.admin`
 * (sandbox/client.ts), as in every other suite; tests that pin an admin route's answer use `raw`.
 */
import { randomUUID } from 'crypto';

import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox';
import { createHttpClient, type HttpClient, type HttpResponse } from '../../scripts/http-client';

export interface Harness {
	sb: RunningSandbox;
	api: HttpClient;
	raw: HttpClient; // no Authorization header (auth tests pass their own key)
	admin: RunningSandbox['admin'];
}

/** One sandbox per test file; `resetEach` empties data, logs, faults and rate counters. */
export function useHarness(options: SandboxOptions = {}, { resetEach = false } = {}): Harness {
	const h = {} as Harness;
	beforeAll(async () => {
		// a free loopback port, no demo data and a rate limit tests do not hit
		const sb = await startSandbox({ port: 0, seed: 'none', rateLimit: 1_000_000, ...options });
		const api = createHttpClient(sb.baseUrl, { apiKey: sb.apiKey });
		const raw = createHttpClient(sb.baseUrl, { apiKey: null });
		Object.assign(h, { sb, api, raw, admin: sb.admin });
	});
	afterAll(async () => h.sb?.close());
	if (resetEach) beforeEach(async () => void (await h.admin.reset('none')));
	return h;
}

export function expectRateHeaders(res: HttpResponse) {
	const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) => {
		expect(res.headers[`x-ratelimit-${name}`]).toMatch(/^\d+$/);
		return Number(res.headers[`x-ratelimit-${name}`]);
	});
	return { limit, remaining, reset };
}

export function expectDateTime(value: unknown): void {
	expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
	expect(Number.isNaN(Date.parse(value as string))).toBe(false);
}

export function expectError(res: HttpResponse, status: number, code: string): void {
	expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
	expect(res.body.error.message).toEqual(expect.stringMatching(/./));
}

export function expectValidationError(res: HttpResponse, field: string): void {
	expectError(res, 400, 'VALIDATION_ERROR');
	expect(res.body.error.message).toContain(field);
}

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
