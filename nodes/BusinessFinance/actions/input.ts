/**
 * Adapters from the validation helpers (../helpers/validation.ts, the single place where the
 * rules live) to n8n errors: each check either returns the value to send or throws a
 * `NodeOperationError` with the item index and a message that says what to fix. Nothing here
 * sends a request, so bad input never reaches the service.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import {
	normaliseDate,
	normaliseMethodDetails,
	validateAmount,
	validateEmail,
	validateMethodDetails,
	validateUuid,
	type MethodDetails,
	type Validated,
} from '../helpers/validation';

/** API field name → the parameter's display name, for messages about method details. */
const DISPLAY_NAMES: Record<string, string> = {
	payment_method: 'Payment Method',
	bank_name: 'Bank Name',
	account_name: 'Account Name',
	account_number: 'Account Number',
	routing_number: 'Routing Number',
	swift_code: 'SWIFT Code',
	iban: 'IBAN',
	bank_address: 'Bank Address',
	wallet_address: 'Wallet Address',
	wallet_chain: 'Wallet Chain',
};

export function inputError(
	ctx: IExecuteFunctions,
	message: string,
	description: string | undefined,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

function unwrap<T>(
	ctx: IExecuteFunctions,
	result: Validated<T>,
	itemIndex: number,
	fix?: string,
): T {
	if (!result.ok) throw inputError(ctx, result.message, fix, itemIndex);
	return result.value;
}

/** A required text parameter, trimmed; empty is refused. */
export function requiredString(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const text = typeof value === 'number' ? String(value) : value;
	if (typeof text !== 'string' || text.trim() === '') {
		throw inputError(ctx, `${label} is required`, `Enter a value for ${label}`, itemIndex);
	}
	return text.trim();
}

/** A UUID value (already read). */
export function checkUuid(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): string {
	return unwrap(ctx, validateUuid(value, label), itemIndex, `Check the value of ${label}`);
}

/** A required UUID parameter. */
export function uuidParam(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	return checkUuid(
		ctx,
		ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }),
		label,
		itemIndex,
	);
}

export function checkEmail(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): string {
	return unwrap(ctx, validateEmail(value, label), itemIndex, `Check the value of ${label}`);
}

/** A date as `YYYY-MM-DD` (a date-time is cut to its date). */
export function toApiDate(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): string {
	return unwrap(ctx, normaliseDate(value, label), itemIndex, `Use a date such as 2026-03-31`);
}

/** Receivable amounts are at least 0.01, payable amounts more than 0. */
export function checkAmount(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
	kind: 'receivable' | 'payable',
): number {
	const rule =
		kind === 'receivable' ? { min: 0.01, field: label } : { min: 0, exclusive: true, field: label };
	return unwrap(ctx, validateAmount(value, rule), itemIndex);
}

/**
 * Normalises and checks a payment method's details (API field names). Returns the details to
 * send. Messages name the fields as the user sees them.
 */
export function checkMethodDetails(
	ctx: IExecuteFunctions,
	method: unknown,
	details: IDataObject,
	itemIndex: number,
	context: 'vendor' | 'payable',
	hasVendorId?: boolean,
): IDataObject {
	const normalised = normaliseMethodDetails(details as MethodDetails) as IDataObject;
	const problems = validateMethodDetails(method, normalised as MethodDetails, {
		context,
		hasVendorId,
	});
	if (problems.length > 0) {
		const named = problems.map((p) => ({ ...p, label: DISPLAY_NAMES[p.field] ?? p.field }));
		const fields = [...new Set(named.map((p) => p.label))].join(', ');
		throw inputError(
			ctx,
			`Invalid payment details: ${fields}`,
			named.map((p) => `${p.label}: ${p.message}`).join('\n'),
			itemIndex,
		);
	}
	return normalised;
}

/** An update without any field would be refused by the service: say so before sending. */
export function requireUpdate(ctx: IExecuteFunctions, body: IDataObject, itemIndex: number): void {
	if (Object.keys(body).length === 0) {
		throw inputError(
			ctx,
			'Nothing to update',
			'Add at least one field under Update Fields (empty values are not sent)',
			itemIndex,
		);
	}
}

/** `limit` must be a whole number of at least 1 (it may be above the API's page size). */
export function readLimit(ctx: IExecuteFunctions, i: number): number {
	const limit = ctx.getNodeParameter('limit', i, 50) as unknown;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw inputError(
			ctx,
			'Limit must be a whole number of at least 1',
			'Set Limit, or turn on Return All',
			i,
		);
	}
	return limit;
}

/** A webhook endpoint id (`ep_…` in the service; other forms are passed on, URL-encoded). */
export function webhookEndpointIdParam(ctx: IExecuteFunctions, i: number): string {
	const id = requiredString(ctx, 'webhookEndpointId', 'Webhook Endpoint ID', i);
	if (/[\s/?#]/.test(id)) {
		throw inputError(
			ctx,
			'Webhook Endpoint ID must not contain spaces, "/", "?" or "#"',
			'Enter the endpoint’s ID, such as ep_2b9f6c1d8a',
			i,
		);
	}
	return id;
}
