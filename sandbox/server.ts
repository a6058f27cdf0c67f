/** The Fastify app: hooks (Host, request log, auth, rate limit, faults, bodies), routes, errors. */
import Fastify, {
	type FastifyError,
	type FastifyInstance,
	type FastifyReply,
	type FastifyRequest,
} from 'fastify';
import { adminRoutes, forbidden, type AdminCtx } from './admin';
import { ApiError, validationError } from './errors';
import { Events } from './events';
import { Faults } from './faults';
import {
	authenticate,
	hostError,
	isAdminPath,
	isJsonContentType,
	isLoopback,
	loggedHeaders,
	pathOf,
	RouteTable,
} from './http';
import { RateLimiter, type RateResult } from './rate-limit';
import { QUERY_PARAMS, type Define } from './routes/common';
import { payableRoutes } from './routes/payables';
import { receivableRoutes } from './routes/receivables';
import { treasuryRoutes } from './routes/treasury';
import { vendorRoutes } from './routes/vendors';
import { webhookRoutes } from './routes/webhooks';
import { Store } from './store';
import type { FaultKind, RequestRecord, ResolvedOptions } from './types';
import { checkQuery, formatAjvError, type Query } from './validation';

const BODY_LIMIT = 1024 * 1024;

/** What the content-type parser hands on: the raw text, parsed later (after routing and auth). */
class RawBody {
	constructor(readonly text: string) {}
}

const sendError = (reply: FastifyReply, err: ApiError): FastifyReply =>
	reply
		.code(err.statusCode)
		.type('application/json')
		.send(JSON.stringify({ error: { code: err.code, message: err.message } }));

const unsupportedMediaType = () =>
	new ApiError(
		415,
		'UNSUPPORTED_MEDIA_TYPE',
		'Send the request body as JSON with Content-Type: application/json',
	);

function toApiError(err: FastifyError | ApiError): ApiError {
	if (err instanceof ApiError) return err;
	if (err.validation) return validationError(formatAjvError(err.validation[0]));
	if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
		return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB');
	if (err.statusCode === 415) return unsupportedMediaType(); // an empty Content-Type header
	if (err.statusCode === 400) return validationError(err.message);
	console.error(err); // a bug in the sandbox
	return new ApiError(500, 'INTERNAL_ERROR', 'Internal server error');
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		throw new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON');
	}
}

export function buildServer(options: ResolvedOptions): { app: FastifyInstance; ctx: AdminCtx } {
	const store = new Store();
	const events = new Events(store, options);
	const faults = new Faults();
	const rate = new RateLimiter(options.rateLimit, options.rateWindowSeconds, options.retryAfter);
	const ctx: AdminCtx = { store, events, options, faults, rate };
	const logEntries = new WeakMap<FastifyRequest, RequestRecord>();
	const app = Fastify({
		bodyLimit: BODY_LIMIT,
		exposeHeadRoutes: false,
		ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false } },
	});
	// Every body is read as text here and parsed in preValidation, so that authentication and
	// routing (401, 404, 405) come before 415 and INVALID_JSON.
	app.removeAllContentTypeParsers();
	app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, text, done) =>
		done(null, new RawBody(text as string)),
	);
	// The first hook, so a request for another host changes nothing: no admin route, no
	// request-log entry, no rate-limit count (hostError says why). Throwing ends the hooks.
	app.addHook('onRequest', async (req) => {
		const misdirected = hostError(req.headers.host, req.url);
		if (misdirected) throw misdirected;
	});
	app.addHook('onRequest', async (req, reply) => {
		const path = pathOf(req.url);
		// Admin or not is decided on the route Fastify matched (it decodes the path and accepts an
		// absolute-form request line, so `/%5Fadmin/...` reaches an admin route too), and on the raw
		// path for unknown admin paths; loopback on the connection's own address.
		if (isAdminPath(req.routeOptions.url ?? '') || isAdminPath(path)) {
			if (!isLoopback(req.socket.remoteAddress)) throw forbidden();
			return;
		}
		const entry: RequestRecord = {
			method: req.method,
			path,
			query: { ...(req.query as Record<string, string | string[]>) },
			body: null,
			status: 0,
			headers: loggedHeaders(req.headers),
		};
		store.requests.push(entry);
		logEntries.set(req, entry);
		return authenticateAndLimit(ctx, req, reply) ?? (await injectFault(faults, req, reply, path));
	});
	app.addHook('preValidation', async (req) => parseBody(req, logEntries.get(req)));
	app.addHook('onSend', async (req, reply, payload) => faultAfterProcessing(req, reply, payload));
	app.addHook('onResponse', async (req, reply) => {
		const entry = logEntries.get(req);
		if (entry) entry.status = reply.statusCode;
	});
	app.setErrorHandler((err: FastifyError | ApiError, req, reply) =>
		sendError(reply, toApiError(err)),
	);
	addRoutes(app, ctx);
	return { app, ctx };
}

function setRateHeaders(reply: FastifyReply, r: RateResult): void {
	for (const name of ['limit', 'remaining', 'reset'] as const)
		reply.header(`x-ratelimit-${name}`, r[name]);
}

/** The reply when the key is wrong (sent here, counted on the address); throws past the limit. */
function authenticateAndLimit(
	{ options, rate }: AdminCtx,
	req: FastifyRequest,
	reply: FastifyReply,
): FastifyReply | undefined {
	const key = authenticate(req.headers.authorization, options.apiKey);
	if (key instanceof ApiError) {
		setRateHeaders(reply, rate.hit(`addr:${req.socket.remoteAddress ?? ''}`));
		return sendError(reply, key);
	}
	const r = rate.hit(`key:${key}`);
	setRateHeaders(reply, r);
	if (r.exceeded) {
		if (rate.retryAfter) reply.header('retry-after', r.retryAfter);
		throw new ApiError(429, 'RATE_LIMITED', 'Too many requests, please slow down');
	}
	return undefined;
}

/** Faults that strike once the request was processed, by request. */
const afterProcessing = new WeakMap<FastifyRequest, Exclude<FaultKind, 'latency'>>();

async function injectFault(
	faults: Faults,
	req: FastifyRequest,
	reply: FastifyReply,
	path: string,
): Promise<FastifyReply | undefined> {
	const fault = faults.decide(req.method, path);
	if (!fault) return undefined;
	if (fault.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
	// a cut answer is a success's answer broken off: the request is always processed first
	if (fault.terminal && (fault.afterProcessing || fault.terminal === 'cut')) {
		afterProcessing.set(req, fault.terminal);
		return undefined;
	}
	switch (fault.terminal) {
		case 'status500':
			throw new ApiError(500, 'INTERNAL_ERROR', 'Internal server error (injected fault)');
		case 'status503':
			throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service unavailable (injected fault)');
		case 'malformed':
			return reply.code(200).type('application/json').send('{"data": {"id": "malformed-inj');
		case 'reset': // logged with status 0, as the entry starts
			reply.hijack();
			req.raw.socket.destroy();
			return reply;
		default:
			return undefined;
	}
}

/** The answer of a request processed under an `afterProcessing` fault: lost, or replaced. */
function faultAfterProcessing(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
	const kind = afterProcessing.get(req);
	if (!kind) return payload;
	afterProcessing.delete(req);
	if (kind === 'reset') {
		req.raw.socket.destroy();
		return payload;
	}
	if (kind === 'malformed') return '{"data": {"id": "malformed-inj';
	if (kind === 'cut') {
		// the answer's head and half its body, straight on the socket, which then closes: what
		// Fastify would write after it goes nowhere
		const body = String(payload ?? '');
		const head = `HTTP/1.1 ${reply.statusCode} OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
		req.raw.socket.end(head + body.slice(0, Math.floor(body.length / 2)));
		return payload;
	}
	const [status, code] =
		kind === 'status500' ? [500, 'INTERNAL_ERROR'] : [503, 'SERVICE_UNAVAILABLE'];
	reply.code(status).type('application/json');
	return JSON.stringify({ error: { code, message: `Injected fault after processing (${code})` } });
}

async function parseBody(req: FastifyRequest, entry: RequestRecord | undefined): Promise<void> {
	if (!(req.body instanceof RawBody)) return;
	const { text } = req.body;
	req.body = undefined;
	if (req.is404 || req.method === 'GET' || req.method === 'DELETE' || text.length === 0) return;
	if (entry) entry.body = text;
	if (!isJsonContentType(req.headers['content-type'])) throw unsupportedMediaType();
	req.body = parseJson(text);
	if (entry) entry.body = req.body;
}

/** Every route, with its query check; a path with other methods answers 405 and `Allow`. */
function addRoutes(app: FastifyInstance, ctx: AdminCtx): void {
	const routes = new RouteTable();
	const define: Define = (method, path, body, handler) => {
		routes.add(method, path);
		const params = QUERY_PARAMS[`${method} ${path}`] ?? [];
		const schema = body ? { body } : undefined;
		const preHandler = async (req: FastifyRequest) => checkQuery(req.query as Query, params);
		app.route({ method, url: path, schema, preHandler, handler });
	};
	const modules = [receivableRoutes, payableRoutes, vendorRoutes, treasuryRoutes, webhookRoutes];
	for (const addModule of [...modules, adminRoutes]) addModule(define, ctx);
	app.setNotFoundHandler((req, reply) => {
		const path = pathOf(req.url);
		const allowed = routes.allowed(path).join(', ');
		if (!allowed)
			return sendError(reply, new ApiError(404, 'NOT_FOUND', `No route ${req.method} ${path}`));
		reply.header('allow', allowed);
		const message = `${req.method} is not allowed on ${path} (allowed: ${allowed})`;
		return sendError(reply, new ApiError(405, 'METHOD_NOT_ALLOWED', message));
	});
}
