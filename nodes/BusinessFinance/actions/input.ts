/**
 * From an item's parameters to a request, or every reason it cannot be sent (an `ItemCheck`),
 * without sending anything; `sendable()` makes the reasons one error with the item index.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import {
	DEFAULT_RATE_LIMIT_WAIT_SECONDS,
	MAX_RATE_LIMIT_WAIT_SECONDS,
	webhookEndpointPath,
} from '../helpers/constants';
import {
	quoted,
	validateLimit,
	validateSeconds,
	type Problem,
	type Validated,
} from '../helpers/validators';
import { validateWebhookEndpointId } from '../helpers/requestRules';

export type Checked<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

type FieldCheck = (value: unknown, field: string) => Validated<IDataObject[string]>;

/** Collects an item's problems while its request is built. */
export class ItemCheck {
	private readonly problems: Problem[] = [];

	/** The checked value, or undefined once its problem is noted (the request is then not sent). */
	take<T>(result: Validated<T>): T | undefined {
		if (result.ok) return result.value;
		const { field, message, fix } = result;
		this.problems.push(fix === undefined ? { field, message } : { field, message, fix });
		return undefined;
	}

	/** `body[key]`, when given, replaced by `take` of its check (`validate` names it `field`). */
	field(body: IDataObject, key: string, validate: FieldCheck, field: string): void {
		if (body[key] !== undefined) body[key] = this.take(validate(body[key], field));
	}

	add(problems: Problem[]): void {
		this.problems.push(...problems);
	}

	result<T>(value: T): Checked<T> {
		if (this.problems.length === 0) return { ok: true, value };
		return { ok: false, problems: [...this.problems] };
	}
}

/** An item's problems in words: the problem itself, or the fields and every reason. */
export function describeProblems(problems: Problem[]): { message: string; description?: string } {
	if (problems.length === 1) {
		const [{ message, fix }] = problems;
		return { message, description: fix };
	}
	const fields = [...new Set(problems.map((p) => quoted(p.field)))].join(', ');
	const reasons = problems.map((p) => (p.fix ? `${p.message}. ${p.fix}` : p.message));
	return { message: `Invalid parameters: ${fields}`, description: reasons.join('\n') };
}

/** Errors of items refused before anything was sent for them (an agent is told so). */
const refusedBeforeSending = new WeakSet<Error>();

export function markRefusedBeforeSending<E extends Error>(error: E): E {
	refusedBeforeSending.add(error);
	return error;
}

export const wasRefusedBeforeSending = (error: Error): boolean => refusedBeforeSending.has(error);

/** The request to send, or a NodeOperationError with the item index naming what to fix. */
export function sendable<T>(ctx: IExecuteFunctions, checked: Checked<T>, itemIndex: number): T {
	if (checked.ok) return checked.value;
	const { message, description } = describeProblems(checked.problems);
	const error = new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
	throw markRefusedBeforeSending(error);
}

/** A collection parameter (`additionalFields`, `updateFields`, `filters`). */
export function readCollection(ctx: IExecuteFunctions, name: string, i: number): IDataObject {
	return ctx.getNodeParameter(name, i, {}) as IDataObject;
}

/** The id of a resource locator (`vendorId`), whatever mode the user chose. */
export function readLocator(ctx: IExecuteFunctions, name: string, i: number): unknown {
	return ctx.getNodeParameter(name, i, '', { extractValue: true });
}

/** `returnAll` and `limit` of a list operation: with Return All off, a whole number of at least 1. */
export function checkPaging(check: ItemCheck, ctx: IExecuteFunctions, i: number) {
	if (ctx.getNodeParameter('returnAll', i, false)) return { returnAll: true, limit: 0 };
	// No fallback for `limit`: n8n fills in its default (descriptions/common.ts returnAllAndLimit).
	const limit = check.take(validateLimit(ctx.getNodeParameter('limit', i)));
	return { returnAll: false, limit: limit ?? 0 };
}

/** A webhook endpoint's path from its id (any id the service gives, URL-encoded). */
export function checkWebhookEndpointPath(check: ItemCheck, id: unknown): string {
	return webhookEndpointPath(check.take(validateWebhookEndpointId(id)) ?? '');
}

/** The node option "Max Wait for Rate Limits" of item `i`, in milliseconds, or its problem. */
export function checkWaitBudget(ctx: IExecuteFunctions, i: number): Checked<number> {
	const options = readCollection(ctx, 'options', i);
	const check = new ItemCheck();
	const seconds = check.take(
		validateSeconds(
			options.rateLimitWaitSeconds ?? DEFAULT_RATE_LIMIT_WAIT_SECONDS,
			'Max Wait for Rate Limits (Seconds)',
			DEFAULT_RATE_LIMIT_WAIT_SECONDS,
			MAX_RATE_LIMIT_WAIT_SECONDS,
		),
	);
	return check.result(Math.round((seconds ?? 0) * 1000));
}
