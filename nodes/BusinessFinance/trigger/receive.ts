/**
 * A delivery to the trigger's webhook URL. Anyone can send one, so what it may cost is decided by
 * what can be proven, in order: headers and body (no network), the signature (secrets.ts), then
 * duplicates by the verified id (docs/trigger.md). Never writes static data (state.ts `readSlot`).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { eventItemJson, isPlainObject } from '../helpers/resourceFields';

import {
	DEFAULT_TOLERANCE_SECONDS,
	readSignedMessage,
	signatureMatches,
	type SignedMessage,
	type WebhookHeaders,
} from './standardWebhooks';
import { ALL_EVENTS } from '../descriptions/events';
import {
	awaitAnswer,
	isAwaitingAnswer,
	recordVerified,
	replayableUntil,
	wasSeen,
} from './duplicates';
import { givenEndpointId, selectedEventTypes } from './endpoints';
import { checkWithSecret } from './secrets';
import type { FailureCause, TriggerLog } from './memory';
import { nodeKey, registrationOf } from './state';
import { noteVerificationFailure } from './verificationWarnings';

type RequestLike = { rawBody?: unknown; body?: unknown; readRawBody?: () => Promise<void> };

type Answer = IWebhookResponseData;

export async function receive(this: IWebhookFunctions): Promise<Answer> {
	const settings = readSettings(this);
	// The delivery's time, read once: the timestamp window, the secret's bounds, the warnings.
	const nowMs = Date.now();
	const nowSeconds = Math.floor(nowMs / 1000);
	const headers = this.getHeaderData() as WebhookHeaders;
	const read = readSignedMessage(headers, { ...settings, nowSeconds });
	if (!read.ok && !(read.unsigned && settings.allowUnsigned)) {
		const cause = read.outsideTolerance ? 'clock' : 'other_scheme';
		const message = `Webhook signature verification failed: ${read.reason}`;
		return refuse(this, nowMs, 'invalid_signature', message, cause, read.reason);
	}
	const rawBody = await rawBodyOf(this.getRequestObject() as unknown as RequestLike);
	const event = parseEvent(rawBody);
	if (typeof event === 'string') {
		const text = 'The delivery body is not an event object';
		return respond(this, 400, { error: event, message: text });
	}
	if (!read.ok) return accept(this, settings, event, read.id, nowSeconds);

	const verdict = await checkWithSecret(
		this,
		registrationOf(this, givenEndpointId(this)),
		(secret) => signatureMatches(secret, read.message, rawBody),
		nowMs,
	);
	const { message } = read;
	if (verdict === 'verified') return acceptVerified(this, settings, event, message, nowSeconds);
	if (verdict === 'unavailable') {
		// Not checked with any other secret (secrets.ts): answered so that the service retries.
		const text = 'The signing secret to verify this delivery is not available now; retry later';
		return respond(this, 503, { error: 'secret_unavailable', message: text });
	}
	if (verdict === 'mismatch') {
		const text = 'Webhook signature verification failed';
		return refuse(this, nowMs, 'invalid_signature', text, 'wrong_secret');
	}
	if (settings.allowUnsigned) return accept(this, settings, event, message.id, nowSeconds);
	const text = 'The trigger has no signing secret to verify this delivery';
	return refuse(this, nowMs, 'no_secret', text, 'no_secret');
}

type Settings = ReturnType<typeof readSettings>;

function readSettings(ctx: IWebhookFunctions) {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const tolerance = Number(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
	return {
		allowUnsigned: options.allowUnsigned === true,
		toleranceSeconds:
			Number.isFinite(tolerance) && tolerance > 0 ? tolerance : DEFAULT_TOLERANCE_SECONDS,
		output: options.output === 'data' ? ('data' as const) : ('event' as const),
		wanted: selectedEventTypes(ctx.getNodeParameter('events', [ALL_EVENTS])),
	};
}

/**
 * The body exactly as it arrived (n8n's `rawBody`, read on demand). Serialising the parsed body
 * again, the last resort, can only make a genuine signature fail, never a forged one pass.
 */
async function rawBodyOf(req: RequestLike): Promise<string> {
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	for (const raw of [req.rawBody, req.body]) {
		if (Buffer.isBuffer(raw)) return raw.toString('utf8');
		if (typeof raw === 'string') return raw;
	}
	return req.body === undefined || req.body === null ? '' : JSON.stringify(req.body);
}

/** The event object, or the error code of a body that is not one. */
function parseEvent(rawBody: string): IDataObject | 'invalid_json' | 'invalid_event' {
	let event: unknown;
	try {
		event = JSON.parse(rawBody);
	} catch {
		return 'invalid_json';
	}
	return isPlainObject(event) ? event : 'invalid_event';
}

/** A verified delivery: recorded by its verified id, so every copy of it runs the workflow once. */
function acceptVerified(
	ctx: IWebhookFunctions,
	settings: Settings,
	event: IDataObject,
	message: SignedMessage,
	nowSeconds: number,
): Answer {
	if (!isWanted(settings, event)) return ignored(ctx, 'event type not selected');
	if (isAwaitingAnswer(nodeKey(ctx), message.id)) {
		const text = 'A copy of this delivery is being started now; retry later';
		return respond(ctx, 409, { error: 'delivery_in_progress', message: text });
	}
	const until = replayableUntil(message.timestamp, settings.toleranceSeconds, nowSeconds);
	if (recordVerified(nodeKey(ctx), message.id, until, nowSeconds, triggerLog(ctx))) {
		return ignored(ctx, 'duplicate delivery');
	}
	settleWhenAnswered(ctx, message.id);
	return start(settings, event);
}

/**
 * A delivery counts as handled once n8n answered it `2xx` (docs/trigger.md); otherwise its id is
 * forgotten so the retry runs. One closed before any answer stays recorded: forgetting it would
 * let anyone who replays a genuine delivery and hangs up run it again.
 */
function settleWhenAnswered(ctx: IWebhookFunctions, webhookId: string): void {
	const response = ctx.getResponseObject();
	const settle = awaitAnswer(nodeKey(ctx), webhookId);
	response.once('finish', () => settle(response.statusCode >= 200 && response.statusCode < 300));
	response.once('close', () => settle(true));
}

/** Let through by "Allow Unsigned Deliveries": its claimed id is never recorded, only looked up. */
function accept(
	ctx: IWebhookFunctions,
	settings: Settings,
	event: IDataObject,
	claimedId: string | undefined,
	nowSeconds: number,
): Answer {
	if (!isWanted(settings, event)) return ignored(ctx, 'event type not selected');
	if (claimedId && wasSeen(nodeKey(ctx), claimedId, nowSeconds)) {
		return ignored(ctx, 'duplicate delivery');
	}
	return start(settings, event);
}

const isWanted = (settings: Settings, event: IDataObject) =>
	settings.wanted.length === 0 || settings.wanted.includes(String(event.type));

const start = (settings: Settings, event: IDataObject): Answer => ({
	workflowData: [[{ json: eventItemJson(settings.output, event) }]],
});

function respond(ctx: IWebhookFunctions, status: number, body: IDataObject): Answer {
	ctx.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

const triggerLog = (ctx: IWebhookFunctions): TriggerLog => ({
	nodeName: ctx.getNode().name,
	workflowId: String(ctx.getWorkflow().id ?? ''),
	logger: ctx.logger,
});

/** Answers 401; n8n's log says why, once a minute per trigger (verificationWarnings.ts). */
function refuse(
	ctx: IWebhookFunctions,
	nowMs: number,
	error: string,
	message: string,
	cause: FailureCause,
	detail?: string,
): Answer {
	noteVerificationFailure({ key: nodeKey(ctx), ...triggerLog(ctx) }, cause, nowMs, detail);
	return respond(ctx, 401, { error, message });
}

const ignored = (ctx: IWebhookFunctions, reason: string) =>
	respond(ctx, 200, { received: true, ignored: reason });
