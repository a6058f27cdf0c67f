/**
 * The payment-method policy of vendors and payables (docs/api-decisions.md, "Payment methods and
 * their details"), from the table in ./paymentDetailFields.ts. Messages never repeat details.
 */
import { PAYMENT_METHODS } from './constants';
import {
	detailFieldByApiName,
	fieldsFor,
	labelsOf,
	METHOD_LABELS,
	PAYMENT_DETAIL_FIELDS,
	PAYMENT_METHOD_LABEL,
	type DetailContext,
	type PaymentDetailField,
} from './paymentDetailFields';
import { isOneOf, isSet, quoted, type Problem } from './validators';

/** Bank and wallet details by API field name (`account_number`, ...). */
type MethodDetails = Record<string, unknown>;

interface MethodDetailsOptions {
	/**
	 * `vendor` (default): a payment method is required and its details must be complete.
	 * `payable`: see `validateMethodDetails`.
	 */
	context?: 'vendor' | 'payable';
	/** Payables: whether a vendor is named; if not, details without a method are refused. */
	hasVendorId?: boolean;
}

const METHOD_CHOICES = `one of ${PAYMENT_METHODS.join(', ')}`;
const METHOD_NAME = quoted(PAYMENT_METHOD_LABEL);

/** The form problems of one detail: not text, or breaking the field's own rule. */
function formProblem(field: PaymentDetailField, context: DetailContext): Problem | undefined {
	const value = context.details[field.apiField];
	if (value === undefined || value === null) return undefined;
	const name = quoted(field.label);
	if (typeof value === 'number' && field.textOnly) {
		return {
			field: field.label,
			message: `${name} must be text, not a number: a number has lost its leading zeros and any digits past the 15th`,
			fix: `Give ${name} as text: in an expression, as a string such as "000123456789"; in a spreadsheet, from a column formatted as text`,
		};
	}
	if (typeof value !== 'string') return { field: field.label, message: `${name} must be text` };
	if (!isSet(value)) return undefined;
	const wrong = field.check?.(value, context);
	return wrong === undefined ? undefined : { field: field.label, message: `${name} ${wrong}` };
}

/** The problem with the method itself, if any: missing where it is needed, or unknown. */
function methodProblem(
	method: unknown,
	details: MethodDetails,
	options: MethodDetailsOptions,
): Problem | undefined {
	const problem = (wrong: string) => ({
		field: PAYMENT_METHOD_LABEL,
		message: `${METHOD_NAME} ${wrong}`,
	});
	if (isOneOf(PAYMENT_METHODS, method)) return undefined;
	if (isSet(method)) return problem(`must be ${METHOD_CHOICES}`);
	if (options.context !== 'payable') return problem(`is required: ${METHOD_CHOICES}`);
	const hasDetails = PAYMENT_DETAIL_FIELDS.some((f) => isSet(details[f.apiField]));
	if (options.hasVendorId === false && hasDetails) {
		return problem(`is required when bank or wallet details are given: ${METHOD_CHOICES}`);
	}
	return undefined;
}

/**
 * Every problem with a method and its (normalised, applicable) details: each detail's form;
 * vendors need a method and complete details; payables need complete details only once one that
 * completes the method is given (partial details cannot pay anyone).
 */
function validateMethodDetails(
	method: unknown,
	details: MethodDetails,
	options: MethodDetailsOptions = {},
): Problem[] {
	const known = isOneOf(PAYMENT_METHODS, method) ? method : undefined;
	const context: DetailContext = { method: known, details };
	const problems = PAYMENT_DETAIL_FIELDS.flatMap((f) => formProblem(f, context) ?? []);
	const wrongMethod = methodProblem(method, details, options);
	if (wrongMethod) return [...problems, wrongMethod];
	if (!known) return problems;

	const has = (f: PaymentDetailField) => isSet(details[f.apiField]);
	const { required, oneOf } = fieldsFor(known);
	if (options.context === 'payable' && ![...required, ...oneOf].some(has)) return problems;
	for (const f of required.filter((r) => !has(r))) {
		const choices = f.choices ? `: one of ${f.choices.join(', ')}` : '';
		const message = `${quoted(f.label)} is required for ${METHOD_LABELS[known]}${choices}`;
		problems.push({ field: f.label, message });
	}
	if (oneOf.length > 0 && !oneOf.some(has)) {
		const message = `${METHOD_LABELS[known]} needs ${labelsOf(oneOf, 'or')}`;
		problems.push({ field: oneOf[0].label, message });
	}
	return problems;
}

/** One detail in the form to send; undefined when there is nothing to send. */
function normaliseDetail(field: PaymentDetailField | undefined, value: unknown): unknown {
	if (value === undefined || value === null) return undefined;
	// Text that is only a number in disguise is fine for names and addresses; identifiers are
	// refused by validateMethodDetails instead (their digits may already be wrong).
	if (typeof value === 'number' && Number.isFinite(value) && !field?.textOnly) return String(value);
	if (typeof value !== 'string') return value;
	const trimmed = value.trim();
	if (trimmed === '') return undefined;
	return field?.normalise ? field.normalise(trimmed) : trimmed;
}

/** A collection's values split into method details (by API field name) and the other fields. */
export function separateMethodDetails(fields: Record<string, unknown>): {
	details: MethodDetails;
	others: Record<string, unknown>;
} {
	const details: MethodDetails = {};
	const others: Record<string, unknown> = {};
	for (const [parameter, value] of Object.entries(fields)) {
		const field = PAYMENT_DETAIL_FIELDS.find((f) => f.parameter === parameter);
		if (field) details[field.apiField] = value;
		else others[parameter] = value;
	}
	return { details, others };
}

/**
 * The details in the form to send (each field's `normalise`), empty ones dropped, and only the
 * method's (all without a known one): the editor hides other methods' details but keeps what was
 * typed; a value the user cannot see is neither checked nor sent.
 */
function detailsToSend(method: unknown, details: MethodDetails): MethodDetails {
	const result: MethodDetails = {};
	for (const [apiField, value] of Object.entries(details)) {
		const field = detailFieldByApiName(apiField);
		if (isOneOf(PAYMENT_METHODS, method) && field?.methods.includes(method) === false) continue;
		const sent = normaliseDetail(field, value);
		if (sent !== undefined) result[apiField] = sent;
	}
	return result;
}

/** The details to send and every problem with them and the method. */
export function prepareMethodDetails(
	method: unknown,
	details: MethodDetails,
	options: MethodDetailsOptions = {},
): { details: MethodDetails; problems: Problem[] } {
	const normalised = detailsToSend(method, details);
	return { details: normalised, problems: validateMethodDetails(method, normalised, options) };
}
