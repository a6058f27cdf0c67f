/**
 * The payment-method policy of vendors and payables: which details a method takes and needs, and
 * the form each is sent in. The fields and their rules are the table in ./paymentDetailFields.ts;
 * the decisions behind them are in docs/api-decisions.md ("Payment methods and their details").
 * Messages never repeat bank or wallet details (they end up in execution logs).
 */
import { PAYMENT_METHODS, type PaymentMethod } from './constants';
import {
	completingFields,
	detailFieldByApiName,
	listOf,
	METHOD_LABELS,
	PAYMENT_DETAIL_FIELDS,
	PAYMENT_METHOD_LABEL,
	type DetailContext,
	type PaymentDetailField,
} from './paymentDetailFields';
import { isSet, quoted, type Problem } from './validators';

/** Bank and wallet details by API field name (`account_number`, ...). */
export type MethodDetails = Record<string, unknown>;

export interface MethodDetailsOptions {
	/**
	 * `vendor` (default): a payment method is required and its details must be complete.
	 * `payable`: see `validateMethodDetails`.
	 */
	context?: 'vendor' | 'payable';
	/**
	 * Payables only: whether the payable names an existing vendor (`vendor_id`). Details given
	 * without a payment method then use the vendor's method, which is not known here. When false,
	 * such details are refused (no method to check them against). When undefined, not checked.
	 */
	hasVendorId?: boolean;
}

export function isPaymentMethod(value: unknown): value is PaymentMethod {
	return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
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
	if (typeof value !== 'string') {
		return { field: field.label, message: `${name} must be text` };
	}
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
	if (isSet(method)) {
		if (isPaymentMethod(method)) return undefined;
		return {
			field: PAYMENT_METHOD_LABEL,
			message: `${METHOD_NAME} must be ${METHOD_CHOICES}`,
		};
	}
	if ((options.context ?? 'vendor') === 'vendor') {
		return {
			field: PAYMENT_METHOD_LABEL,
			message: `${METHOD_NAME} is required: ${METHOD_CHOICES}`,
		};
	}
	const hasDetails = PAYMENT_DETAIL_FIELDS.some((f) => isSet(details[f.apiField]));
	if (options.hasVendorId === false && hasDetails) {
		return {
			field: PAYMENT_METHOD_LABEL,
			message: `${METHOD_NAME} is required when bank or wallet details are given: ${METHOD_CHOICES}`,
		};
	}
	return undefined;
}

/** Details the method needs that are missing. */
function missingDetails(method: PaymentMethod, details: MethodDetails): Problem[] {
	const has = (f: PaymentDetailField) => isSet(details[f.apiField]);
	const missing = PAYMENT_DETAIL_FIELDS.filter((f) => f.requiredFor?.includes(method) && !has(f));
	const problems: Problem[] = missing.map((f) => ({
		field: f.label,
		message: `${quoted(f.label)} is required for ${METHOD_LABELS[method]}${f.choices ? `: one of ${f.choices.join(', ')}` : ''}`,
	}));
	const oneOf = PAYMENT_DETAIL_FIELDS.filter((f) => f.oneOfFor?.includes(method));
	if (oneOf.length > 0 && !oneOf.some(has)) {
		problems.push({
			field: oneOf[0].label,
			message: `${METHOD_LABELS[method]} needs ${listOf(
				oneOf.map((f) => quoted(f.label)),
				'or',
			)}`,
		});
	}
	return problems;
}

/**
 * Checks a payment method and its details (API field names, normalised, only those applying to
 * the method: `applicableDetails`) and returns every problem found, an empty list when the body
 * can be sent:
 *
 * - every detail present must be text of the right form (its rule in the table), whatever the
 *   method; a bank identifier given as a number is refused (its digits may have changed);
 * - vendors: the method is required and its details must be complete (the table's
 *   `requiredFor` and `oneOfFor`);
 * - payables: the API requires neither a method nor details (the vendor's details on file may
 *   apply). When the method is set and any detail that completes it is given, the details must
 *   be complete (partial details cannot pay anyone); a method alone, or none, is accepted.
 *   Details without a method are refused when `hasVendorId` is false (nothing to check them
 *   against), and passed on when the payable names a vendor (the service uses its method).
 */
function validateMethodDetails(
	method: unknown,
	details: MethodDetails,
	options: MethodDetailsOptions = {},
): Problem[] {
	const known = isPaymentMethod(method) ? method : undefined;
	const context: DetailContext = { method: known, details };
	const problems = PAYMENT_DETAIL_FIELDS.map((f) => formProblem(f, context)).filter(
		(p): p is Problem => p !== undefined,
	);
	const wrongMethod = methodProblem(method, details, options);
	if (wrongMethod) return [...problems, wrongMethod];
	if (!known) return problems;

	const mustBeComplete =
		(options.context ?? 'vendor') === 'vendor' ||
		completingFields(known).some((f) => isSet(details[f.apiField]));
	if (mustBeComplete) problems.push(...missingDetails(known, details));
	return problems;
}

/** One detail in the form to send; undefined when there is nothing to send. */
function normaliseDetail(apiField: string, value: unknown): unknown {
	if (value === undefined || value === null) return undefined;
	const field = detailFieldByApiName(apiField);
	// Text that is only a number in disguise is fine for names and addresses; identifiers are
	// refused by validateMethodDetails instead (their digits may already be wrong).
	if (typeof value === 'number' && Number.isFinite(value) && !field?.textOnly) return String(value);
	if (typeof value !== 'string') return value;
	const trimmed = value.trim();
	if (trimmed === '') return undefined;
	return field?.normalise ? field.normalise(trimmed) : trimmed;
}

/**
 * A copy of the details in the form to send: text trimmed, IBAN and SWIFT in their electronic
 * form (no spaces, upper case), an upper-case bech32 bitcoin address in lower case, names given
 * as numbers turned into text. Empty values are dropped. Normalise first, then validate.
 */
function normaliseMethodDetails(details: MethodDetails): MethodDetails {
	const result: MethodDetails = {};
	for (const [apiField, value] of Object.entries(details)) {
		const sent = normaliseDetail(apiField, value);
		if (sent !== undefined) result[apiField] = sent;
	}
	return result;
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
 * The details that apply to the method: with a known method, those of other methods are left
 * out. The editor hides them for that method (descriptions/methodDetails.ts) but keeps what was
 * typed before the method changed; a value the user cannot see is neither checked nor sent.
 * Without a known method every detail is kept (a payable may use its vendor's method).
 */
function applicableDetails(method: unknown, details: MethodDetails): MethodDetails {
	if (!isPaymentMethod(method)) return details;
	const applicable: MethodDetails = {};
	for (const [apiField, value] of Object.entries(details)) {
		if (detailFieldByApiName(apiField)?.methods.includes(method) !== false) {
			applicable[apiField] = value;
		}
	}
	return applicable;
}

/**
 * The details to send (normalised, only those applying to the method) and every problem with
 * them and the method.
 */
export function prepareMethodDetails(
	method: unknown,
	details: MethodDetails,
	options: MethodDetailsOptions = {},
): { details: MethodDetails; problems: Problem[] } {
	const normalised = normaliseMethodDetails(applicableDetails(method, details));
	return { details: normalised, problems: validateMethodDetails(method, normalised, options) };
}
