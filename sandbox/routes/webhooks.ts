/** Webhook endpoints: GET/PATCH (spec), POST/DELETE/secret (assumed, Svix-style). */
import { randomBytes } from 'crypto';
import { notFound } from '../errors';
import * as S from '../schemas';
import type { WebhookEndpoint } from '../types';
import { nowIso, prefixedId } from '../util';
import { body, params, sendData, type Ctx, type Define } from './common';

interface WebhookBody {
	url?: string;
	description?: string;
	filter_types?: string[];
	disabled?: boolean;
}

export const newSecret = (bytes: Buffer = randomBytes(24)): string =>
	`whsec_${bytes.toString('base64')}`;

function findEndpoint(ctx: Ctx, id: string): WebhookEndpoint {
	const ep = id.startsWith('ep_') ? ctx.store.webhooks.get(id) : undefined;
	if (!ep) throw notFound(`No webhook endpoint with id ${id}`);
	return ep;
}

export function webhookRoutes(define: Define, ctx: Ctx): void {
	const { store } = ctx;
	const json = (ep: WebhookEndpoint) => store.webhooks.toJson(ep);

	define('POST', '/v1/webhooks', S.webhookCreate, (req, reply) => {
		const b = body<WebhookBody>(req);
		const now = nowIso();
		const ep: WebhookEndpoint = {
			id: prefixedId('ep'),
			url: b.url as string,
			description: b.description ?? '',
			filter_types: b.filter_types ?? [],
			disabled: b.disabled ?? false,
			created_at: now,
			updated_at: now,
		};
		store.webhooks.insert([ep]);
		store.secrets.set(ep.id, newSecret());
		return sendData(reply, 201, json(ep));
	});

	define('GET', '/v1/webhooks/:id', undefined, (req, reply) => {
		return sendData(reply, 200, json(findEndpoint(ctx, params(req).id)));
	});

	define('PATCH', '/v1/webhooks/:id', S.webhookUpdate, (req, reply) => {
		const ep = findEndpoint(ctx, params(req).id);
		const b = body<WebhookBody>(req);
		if (b.url !== undefined) ep.url = b.url;
		if (b.description !== undefined) ep.description = b.description;
		if (b.filter_types !== undefined) ep.filter_types = b.filter_types;
		if (b.disabled !== undefined) ep.disabled = b.disabled;
		ep.updated_at = nowIso();
		store.webhooks.changed(ep);
		return sendData(reply, 200, json(ep));
	});

	define('DELETE', '/v1/webhooks/:id', undefined, (req, reply) => {
		const ep = findEndpoint(ctx, params(req).id);
		store.webhooks.remove(ep);
		store.secrets.delete(ep.id);
		return reply.code(204).send();
	});

	define('GET', '/v1/webhooks/:id/secret', undefined, (req, reply) => {
		const ep = findEndpoint(ctx, params(req).id);
		return sendData(reply, 200, JSON.stringify({ secret: store.secrets.get(ep.id) }));
	});
}
