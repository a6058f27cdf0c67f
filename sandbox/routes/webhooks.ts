/** Webhook endpoints: GET/PATCH (spec), POST/DELETE/secret (assumed, Svix-style). */
import { randomBytes } from 'crypto';
import * as S from '../schemas';
import type { WebhookEndpoint } from '../types';
import { nowIso, prefixedId } from '../util';
import { body, findIn, params, publish, sendData, type Ctx, type Define } from './common';

export const newSecret = (bytes: Buffer = randomBytes(24)): string =>
	`whsec_${bytes.toString('base64')}`;

export function webhookRoutes(define: Define, ctx: Ctx): void {
	const { store } = ctx;
	const find = (id: string) => findIn(store.webhooks, id, 'webhook endpoint');

	define('POST', '/v1/webhooks', S.webhookCreate, (req, reply) => {
		const b = body<S.BodyOf<typeof S.webhookCreate>>(req);
		const now = nowIso();
		const ep: WebhookEndpoint = {
			id: prefixedId('ep'),
			url: b.url,
			description: b.description ?? '',
			filter_types: b.filter_types ?? [],
			disabled: b.disabled ?? false,
			created_at: now,
			updated_at: now,
		};
		store.webhooks.insert([ep]);
		store.secrets.set(ep.id, newSecret());
		return sendData(reply, 201, ep);
	});

	define('GET', '/v1/webhooks/:id', undefined, (req, reply) =>
		sendData(reply, 200, find(params(req).id)),
	);

	define('PATCH', '/v1/webhooks/:id', S.webhookUpdate, (req, reply) => {
		const ep = find(params(req).id);
		// the schema allows only url, description, filter_types, disabled
		Object.assign(ep, body<S.BodyOf<typeof S.webhookUpdate>>(req), { updated_at: nowIso() });
		return publish(ctx, reply, 200, ep); // no event for endpoints
	});

	define('DELETE', '/v1/webhooks/:id', undefined, (req, reply) => {
		const ep = find(params(req).id);
		store.webhooks.remove(ep);
		store.secrets.delete(ep.id);
		return reply.code(204).send();
	});

	define('GET', '/v1/webhooks/:id/secret', undefined, (req, reply) => {
		const ep = find(params(req).id);
		return sendData(reply, 200, { secret: store.secrets.get(ep.id) });
	});
}
