/** Rules about a request as a whole, and the webhook endpoint's values: problems, or the value. */
import { EVENT_TYPES } from './constants';
import {
	fail,
	isOneOf,
	isSet,
	ok,
	oneProblem,
	quoted,
	validateRequiredText,
	type Problem,
	type Validated,
} from './validators';

/** An update without any field is refused by the service: say so before sending. */
export function validateUpdate(body: Record<string, unknown>): Problem[] {
	if (Object.keys(body).length > 0) return [];
	return oneProblem(
		'Update Fields',
		'Nothing to update',
		"Add at least one field under 'Update Fields' (empty values are not sent)",
	);
}

/** A payable names who is paid: an existing vendor, or a vendor name. */
export function validatePayee(vendorId: unknown, vendorName: unknown): Problem[] {
	if (isSet(vendorId) || isSet(vendorName)) return [];
	return oneProblem(
		'Vendor Name',
		"A payable needs a 'Vendor' or a 'Vendor Name'",
		"Select a vendor, or add 'Vendor Name' under 'Additional Fields'",
	);
}

/** Sending a receivable emails the customer, so it needs the customer's email. */
export function validateSendImmediately(
	sendImmediately: boolean,
	customerEmail: unknown,
): Problem[] {
	if (!sendImmediately || isSet(customerEmail)) return [];
	return oneProblem(
		'Customer Email',
		"'Send Immediately' needs a 'Customer Email'",
		"Add 'Customer Email' under 'Additional Fields', or turn 'Send Immediately' off",
	);
}

/** A webhook endpoint id goes into the path: any token without spaces, `/`, `?` or `#`. */
export function validateWebhookEndpointId(value: unknown): Validated<string> {
	const field = 'Webhook Endpoint ID';
	const id = validateRequiredText(value, field);
	if (!id.ok || !/[\s/?#]/.test(id.value)) return id;
	return fail(
		field,
		`${quoted(field)} must not contain spaces, "/", "?" or "#"`,
		'Enter the endpoint’s ID, such as ep_2b9f6c1d8a',
	);
}

/** Where events are delivered: an absolute http or https URL. */
export function validateWebhookUrl(value: unknown): Validated<string> {
	const url = String(value).trim();
	if (!/^https?:\/\/[^\s/]+/i.test(url)) {
		return fail(
			'URL',
			`'URL' must be an absolute http or https URL, got "${url.slice(0, 80)}"`,
			'Enter a URL such as https://example.com/hooks/finance',
		);
	}
	return ok(url);
}

/**
 * The event types an endpoint receives: a list, or comma-separated text from an expression; each
 * a type the service knows. An empty list is kept: the service reads it as every type.
 */
export function validateEventTypes(value: unknown): Validated<string[]> {
	const list = Array.isArray(value)
		? value.map(String)
		: String(value)
				.split(',')
				.map((t) => t.trim())
				.filter(Boolean);
	const unknown = list.filter((t) => !isOneOf(EVENT_TYPES, t));
	if (unknown.length > 0) {
		return fail(
			'Event Types',
			`Unknown event type(s) in 'Event Types': ${unknown.join(', ')}`,
			`Use only: ${EVENT_TYPES.join(', ')}`,
		);
	}
	return ok(list);
}
