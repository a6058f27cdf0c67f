/**
 * Events and webhook delivery: each event goes to every enabled endpoint whose filter_types
 * match, signed per Standard Webhooks, redelivered with a bounded backoff on a non-2xx answer or
 * a network error. Every attempt is recorded in the delivery log.
 */
import http from 'http';
import https from 'https';
import { Webhook } from 'standardwebhooks';
import { isLoopback } from './http';
import type { Store } from './store';
import type { ResolvedOptions, SandboxEvent, WebhookEndpoint } from './types';
import { nowIso, prefixedId } from './util';

export class Events {
	private timers = new Set<NodeJS.Timeout>();
	private inFlight = new Set<http.ClientRequest>();
	private closed = false;
	/** Bumped by cancelPending so that aborted attempts record nothing. */
	private generation = 0;

	constructor(
		private readonly store: Store,
		private readonly options: ResolvedOptions,
	) {}

	/** `data` is the resource as the API returns it. */
	emit(type: string, data: unknown): void {
		const event: SandboxEvent = { id: prefixedId('evt'), type, created_at: nowIso(), data };
		this.store.events.push(event);
		const body = JSON.stringify(event);
		for (const ep of this.store.webhooks.all()) {
			if (this.matches(ep, type)) this.attempt(event, body, ep.id, 1);
		}
	}

	private matches(ep: WebhookEndpoint, type: string): boolean {
		return !ep.disabled && (ep.filter_types.length === 0 || ep.filter_types.includes(type));
	}

	private attempt(event: SandboxEvent, body: string, endpointId: string, attempt: number): void {
		if (this.closed) return;
		const ep = this.store.webhooks.get(endpointId);
		const secret = this.store.secrets.get(endpointId);
		if (!ep || !secret || !this.matches(ep, event.type)) return; // deleted, disabled or refiltered
		const record = (status: number | undefined, error: string | undefined) =>
			this.store.deliveries.push({
				event_id: event.id,
				event_type: event.type,
				endpoint_id: ep.id,
				url: ep.url,
				attempt,
				status, // undefined ones vanish in the JSON of /_admin/deliveries
				error,
				delivered_at: nowIso(),
			});

		let url: URL;
		try {
			url = new URL(ep.url);
		} catch {
			record(undefined, 'not delivered: the endpoint url is not a valid URL');
			return;
		}
		if (!isLoopback(url.hostname)) {
			record(undefined, 'not delivered: only loopback hosts receive deliveries');
			return;
		}

		const timestamp = Math.floor(Date.now() / 1000);
		const signature = new Webhook(secret).sign(event.id, new Date(timestamp * 1000), body);
		const mod = url.protocol === 'https:' ? https : http;
		let settled = false;
		const generation = this.generation;
		const done = (status: number | undefined, error: string | undefined) => {
			if (settled) return;
			settled = true;
			this.inFlight.delete(req);
			if (this.closed || generation !== this.generation) return;
			const ok = status !== undefined && status >= 200 && status < 300;
			record(status, ok ? undefined : (error ?? `receiver answered ${status}`));
			if (!ok) this.retry(event, body, endpointId, attempt);
		};
		const req = mod.request(
			url,
			{
				method: 'POST',
				agent: false,
				timeout: this.options.deliveryTimeoutMs,
				headers: {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
					'user-agent': 'business-finance-sandbox',
					'webhook-id': event.id,
					'webhook-timestamp': String(timestamp),
					'webhook-signature': signature,
				},
			},
			(res) => {
				res.resume();
				res.on('end', () => done(res.statusCode, undefined));
				res.on('error', (e) => done(undefined, e.message));
			},
		);
		this.inFlight.add(req);
		req.on('timeout', () =>
			req.destroy(new Error(`timed out after ${this.options.deliveryTimeoutMs} ms`)),
		);
		req.on('error', (e) => done(undefined, e.message || String(e)));
		req.end(body);
	}

	private retry(event: SandboxEvent, body: string, endpointId: string, attempt: number): void {
		const delay = this.options.deliveryRetryDelaysMs[attempt - 1];
		if (delay === undefined || this.closed) return;
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			this.attempt(event, body, endpointId, attempt + 1);
		}, delay);
		this.timers.add(timer);
	}

	/** Cancels pending redeliveries (reset keeps the bus usable). */
	cancelPending(): void {
		this.generation++;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		for (const r of this.inFlight) r.destroy();
		this.inFlight.clear();
	}

	close(): void {
		this.closed = true;
		this.cancelPending();
	}
}
