/** Admin routes under /_admin (loopback only, no key, not rate-limited): what the service does by itself, and test hooks. */
import { ApiError, validationError } from './errors';
import type { Events } from './events';
import type { Faults } from './faults';
import type { RateLimiter } from './rate-limit';
import {
	body,
	findIn,
	moveTo,
	params,
	publish,
	sendData,
	type Ctx,
	type Define,
} from './routes/common';
import * as S from './schemas';
import { seedDemo, seedVendors } from './seed';
import type {
	FaultSpec,
	NewTransaction,
	RateLimitSettings,
	SeedKind,
	TreasuryTransaction,
} from './types';
import { nowIso, prefixedId } from './util';

export interface AdminCtx extends Ctx {
	events: Events;
	faults: Faults;
	rate: RateLimiter;
}

export function resetAll(ctx: AdminCtx, seed: SeedKind): void {
	ctx.events.cancelPending();
	ctx.faults.clear();
	ctx.rate.reset();
	ctx.store.clearData();
	if (seed === 'demo') seedDemo(ctx.store);
}

/** The service's own transitions: for each status, the statuses it may be reached from. */
const RECEIVABLE_FROM = { paid: ['draft', 'sent', 'overdue'], overdue: ['sent'] };

export function adminRoutes(define: Define, ctx: AdminCtx): void {
	const { store, events } = ctx;

	define('POST', '/_admin/reset', S.adminReset, (req, reply) => {
		const seed = body<{ seed?: SeedKind }>(req).seed ?? ctx.options.seed;
		resetAll(ctx, seed);
		return sendData(reply, 200, { seed });
	});

	define('POST', '/_admin/receivables/:id/status', S.adminStatus(RECEIVABLE_FROM), (req, reply) => {
		const r = findIn(store.receivables, params(req).id, 'receivable');
		const status = moveTo(r, body<{ status: 'paid' | 'overdue' }>(req).status, RECEIVABLE_FROM);
		r.updated_at = nowIso();
		if (status === 'paid') r.paid_at = r.updated_at;
		return publish(ctx, reply, 200, r, `receivable.${status}`);
	});

	define('POST', '/_admin/treasury/transactions', S.adminTransactions, (req, reply) => {
		const list = body<{ transactions: NewTransaction[] }>(req).transactions;
		list.forEach((t, i) => {
			if (t.type !== 'conversion' && !(t.amount > 0))
				throw validationError(`transactions[${i}].amount must be > 0 for a ${t.type}`);
			if (t.type === 'conversion' && t.amount === 0)
				throw validationError(`transactions[${i}].amount must not be 0`);
			if (t.created_at !== undefined && isNaN(Date.parse(t.created_at)))
				throw validationError(`transactions[${i}].created_at must be a date-time`);
		});
		const created = list.map((t): TreasuryTransaction => {
			const at = t.created_at ? new Date(t.created_at).toISOString() : nowIso();
			const status = t.status ?? 'completed';
			return {
				id: prefixedId('txn'),
				type: t.type,
				amount: t.amount,
				currency: t.currency,
				network: t.network ?? null,
				status,
				reference: t.reference ?? null,
				created_at: at,
				completed_at: status === 'completed' ? at : null,
			};
		});
		store.transactions.insert(created);
		for (const tx of created) events.emit('treasury.transaction.created', { ...tx });
		return sendData(reply, 200, created);
	});

	define('POST', '/_admin/vendors/seed', S.adminSeedVendors, (req, reply) => {
		const { count } = body<{ count: number }>(req);
		seedVendors(store, count);
		return sendData(reply, 200, { added: count, total: store.vendors.size });
	});

	// A vendor the service stops listing, as if removed in its dashboard (the API cannot delete one).
	define('DELETE', '/_admin/vendors/:id', undefined, (req, reply) => {
		store.vendors.remove(findIn(store.vendors, params(req).id, 'vendor'));
		return sendData(reply, 200, { total: store.vendors.size });
	});

	define('POST', '/_admin/faults', S.adminFault, (req, reply) => {
		const spec = body<FaultSpec>(req);
		return sendData(reply, 200, { id: ctx.faults.add(spec) });
	});

	define('DELETE', '/_admin/faults', undefined, (_req, reply) => {
		const cleared = ctx.faults.size;
		ctx.faults.clear();
		return sendData(reply, 200, { cleared });
	});

	for (const log of ['requests', 'events', 'deliveries'] as const) {
		define('GET', `/_admin/${log}`, undefined, (_req, reply) =>
			sendData(reply, 200, store[log].list()),
		);
	}
	define('DELETE', '/_admin/requests', undefined, (_req, reply) => {
		store.requests.clear();
		return sendData(reply, 200, { cleared: true });
	});

	define('GET', '/_admin/stats', undefined, (_req, reply) => {
		const gc = (globalThis as { gc?: () => void }).gc;
		gc?.();
		const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
		const collections = ['vendors', 'receivables', 'payables', 'transactions', 'webhooks'] as const;
		const counts = {
			...Object.fromEntries(collections.map((name) => [name, store[name].size])),
			requests: store.requests.list().length,
			events: store.events.list().length,
		};
		const memory = { rss, heapUsed, heapTotal, external, gcRan: Boolean(gc) };
		return sendData(reply, 200, { memory, counts });
	});

	define('PUT', '/_admin/rate-limit', S.adminRateLimit, (req, reply) => {
		Object.assign(ctx.rate, body<RateLimitSettings>(req)); // the schema allows only these fields
		ctx.rate.reset();
		const { limit, windowSeconds, retryAfter } = ctx.rate;
		return sendData(reply, 200, { limit, windowSeconds, retryAfter });
	});
}

export const forbidden = () =>
	new ApiError(403, 'FORBIDDEN', 'Admin routes answer loopback clients only');
