/**
 * One API call: wait for the key's gate, send, read the answer, and retry or fail as retry.ts
 * decides, every wait charged to the call's budget.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { answerError, readAnswer, type Reading } from './answer';
import { Budget, CancelledError, OverBudgetError } from './budget';
import type { Clock } from './clock';
import { buildOperationError, cancelledError, formatSeconds, rateLimitedError } from './errors';
import type { KeyGate, Ticket } from './gate';
import {
	classifyNetworkError,
	deadlineFailure,
	type NetworkFailure,
	networkFailureError,
	requestFailedError,
} from './network';
import {
	type ApiContext,
	buildRequest,
	DeadlineError,
	type FullResponse,
	isSafePath,
	sendOnce,
} from './request';
import { redactedExcerpt } from './redact';
import {
	decideRetry,
	type FailReason,
	type HttpMethod,
	type Outcome,
	type RateLimitStreak,
} from './retry';
import type { Timing } from './window';

/** Everything one call works with. */
export interface Call {
	ctx: ApiContext;
	node: INode;
	apiKey: string;
	baseUrl: string;
	gate: KeyGate;
	budget: Budget;
	clock: Clock;
	requestTimeoutMs: number;
	itemIndex: number | undefined;
}

/** The call's deadline came before a request could be sent (nothing was sent). */
const DEADLINE_REACHED: NetworkFailure = { code: 'ETIMEDOUT', notSent: true, kind: 'timeout' };

type Exchange =
	| { kind: 'answer'; response: FullResponse; timing: Timing }
	| { kind: 'failure'; failure: NetworkFailure };

const secretsOf = (call: Call) => [call.apiKey];

/** Turns the budget's own errors into what the user sees. */
function waitError(call: Call, error: unknown): Error {
	const { node, itemIndex, budget } = call;
	if (error instanceof CancelledError)
		return cancelledError(node, itemIndex, secretsOf(call), false);
	if (!(error instanceof OverBudgetError)) return error as Error;
	return rateLimitedError({
		node,
		itemIndex,
		secrets: secretsOf(call),
		spentMs: budget.spentMs,
		budgetMs: budget.budgetMs,
		neededMs: error.neededMs,
		behindProbe: error.untilWoken,
	});
}

async function acquire(call: Call): Promise<Ticket> {
	try {
		return await call.gate.acquire(call.budget);
	} catch (error) {
		throw waitError(call, error);
	}
}

/** What a failed attempt was; throws for a cancellation or a failure that is not the network's. */
function failureOf(call: Call, error: unknown): NetworkFailure {
	if (error instanceof DeadlineError) return deadlineFailure(error.timeoutMs);
	if (error instanceof CancelledError) {
		throw cancelledError(call.node, call.itemIndex, secretsOf(call), true);
	}
	const failure = classifyNetworkError(error);
	if (!failure) throw requestFailedError(call.node, error, call.itemIndex, secretsOf(call));
	return failure;
}

/**
 * Wait for the gate, send once, record the answer's rate-limit headers, release the gate. With
 * the call's deadline already reached nothing is sent: a timeout that cost no request.
 */
async function exchange(call: Call, request: ReturnType<typeof buildRequest>): Promise<Exchange> {
	const ticket = await acquire(call);
	const sentAtMs = call.clock.now();
	try {
		const { ctx, clock, budget } = call;
		const timeoutMs = Math.min(call.requestTimeoutMs, budget.untilDeadlineMs);
		if (timeoutMs <= 0) return { kind: 'failure', failure: DEADLINE_REACHED };
		const response = await sendOnce(ctx, request, clock, timeoutMs, budget.cancelSignal);
		const timing = { sentAtMs, receivedAtMs: clock.now() };
		ticket.answered(response.headers, timing);
		return { kind: 'answer', response, timing };
	} catch (error) {
		return { kind: 'failure', failure: failureOf(call, error) };
	} finally {
		ticket.release(); // always, or callers queued on this key would wait for nothing
	}
}

/** The error when no retry follows; a 429 that does not fit in the budget is RATE_LIMITED. */
function finalError(
	call: Call,
	method: HttpMethod,
	last: Exchange,
	outcome: Outcome,
	attempts: number,
	reason: FailReason,
): Error {
	if (outcome.kind === 'rateLimited') return waitError(call, new OverBudgetError(outcome.waitMs));
	const { node, itemIndex } = call;
	const common = { node, itemIndex, secrets: secretsOf(call), method, attempts, reason };
	if (last.kind === 'answer') return answerError({ ...common, response: last.response });
	return networkFailureError({ ...common, failure: last.failure, baseUrl: call.baseUrl });
}

function unsafePathError(call: Call, path: unknown): Error {
	const problem = {
		message: `Invalid API path "${redactedExcerpt(String(path), 200, secretsOf(call))}"`,
		description:
			'An ID used in the request contains characters that cannot be part of a URL path (such as "/", "?", "#", spaces or ".."). Check the ID passed to the node.',
	};
	return buildOperationError(call.node, problem, call.itemIndex, secretsOf(call));
}

/**
 * Data, or what happened; a 429 also holds the key back for every caller (capped by the gate).
 * Read on the clock of the answer's arrival, as the gate recorded it, so its reset is the same.
 */
function read(call: Call, last: Exchange, rateLimitStreak?: RateLimitStreak): Reading {
	if (last.kind === 'failure') return { kind: 'outcome', outcome: { kind: 'network' } };
	const { sentAtMs, receivedAtMs: nowMs } = last.timing;
	const random = call.clock.random();
	const reading = readAnswer(last.response, { nowMs, rateLimitStreak, random });
	if (reading.kind !== 'outcome' || reading.outcome.kind !== 'rateLimited') return reading;
	const { waitMs, windowResetAtMs } = reading.outcome;
	const endMs = call.gate.rateLimited(nowMs + waitMs, nowMs, { sentAtMs, windowResetAtMs });
	return { kind: 'outcome', outcome: { ...reading.outcome, waitMs: Math.max(0, endMs - nowMs) } };
}

async function waitBeforeRetry(call: Call, waitMs: number): Promise<void> {
	try {
		await call.budget.wait(waitMs);
	} catch (error) {
		throw waitError(call, error);
	}
}

/** One request with all its waiting and retrying; throws NodeApiError / NodeOperationError. */
export async function send(
	call: Call,
	method: HttpMethod,
	path: string,
	body?: IDataObject,
	qs?: IDataObject,
): Promise<IDataObject> {
	if (!isSafePath(path)) throw unsafePathError(call, path);
	const request = buildRequest(method, `${call.baseUrl}${path}`, body, qs);
	let attempts = 0; // failed attempts other than 429, which only the budget bounds
	let rateLimitStreak: RateLimitStreak | undefined;
	for (;;) {
		const last = await exchange(call, request);
		const reading = read(call, last, rateLimitStreak);
		if (reading.kind === 'data') return reading.data;
		const { outcome } = reading;
		if (outcome.kind === 'rateLimited') rateLimitStreak = outcome.streak;
		else attempts += 1;
		const { leftMs } = call.budget;
		const decision = decideRetry(outcome, method, attempts, leftMs, call.clock.random());
		if (decision.action === 'fail') {
			throw finalError(call, method, last, outcome, attempts, decision.reason);
		}
		call.ctx.logger?.debug?.(
			`Business Finance: ${method} ${path} ${outcome.kind}; retrying in ${formatSeconds(decision.waitMs)}`,
		);
		await waitBeforeRetry(call, decision.waitMs);
	}
}
