/** What the route modules share: the context and small reply helpers. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, invalidTransition } from '../errors';
import type { Events } from '../events';
import type { Collection, Store } from '../store';
import type { Ordered, ResolvedOptions } from '../types';

export interface Ctx {
	store: Store;
	events: Events;
	options: ResolvedOptions;
}

/** Registers a route (and remembers its path for 405 answers); `body` is its JSON Schema. */
export type Define = (
	method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
	path: string,
	body: object | undefined,
	handler: (req: FastifyRequest, reply: FastifyReply) => unknown,
) => void;

/** The query parameters of the list routes; every other route takes none (400 otherwise). */
export const QUERY_PARAMS: Record<string, readonly string[]> = {
	'GET /v1/vendors': ['page', 'limit', 'search'],
	'GET /v1/treasury/transactions': ['page', 'limit', 'from', 'to', 'type'],
};

export const params = (req: FastifyRequest): Record<string, string> =>
	req.params as Record<string, string>;

export const body = <T>(req: FastifyRequest): T => (req.body ?? {}) as T;

export function sendData(reply: FastifyReply, status: number, data: unknown): FastifyReply {
	const json = JSON.stringify(data);
	return reply.code(status).type('application/json').send(`{"data":${json}}`);
}

export function findIn<T extends Ordered>(items: Collection<T>, id: string, what: string): T {
	const item = items.get(id);
	if (!item) throw new ApiError(404, 'NOT_FOUND', `No ${what} with id ${id}`);
	return item;
}

export function publish(
	ctx: Ctx,
	reply: FastifyReply,
	status: number,
	item: Ordered,
	...types: string[]
): FastifyReply {
	for (const type of types) ctx.events.emit(type, structuredClone(item));
	return sendData(reply, status, item);
}

/** One page of a list, sent as one Buffer. */
export function sendPage<T>(
	reply: FastifyReply,
	all: readonly T[],
	{ page, limit }: { page: number; limit: number },
): FastifyReply {
	const items = all.slice((page - 1) * limit, page * limit).map((item) => JSON.stringify(item));
	const meta = { page, limit, total: all.length, has_more: page * limit < all.length };
	const body = Buffer.from(`{"data":[${items.join(',')}],"meta":${JSON.stringify(meta)}}`);
	return reply.code(200).type('application/json; charset=utf-8').send(body);
}

/** 409 unless `fromTable` allows it from the current status. */
export function moveTo<S extends string>(
	item: { status: string },
	status: S,
	fromTable: Record<S, string[]>,
): S {
	const from = fromTable[status];
	if (!from.includes(item.status))
		throw invalidTransition(
			`Cannot move from ${item.status} to ${status} (allowed from: ${from.join(', ')})`,
		);
	item.status = status;
	return status;
}
