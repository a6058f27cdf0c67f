/**
 * The fields the API documents per resource, and the shapes the nodes give them: stable columns
 * (a spreadsheet maps columns from the first items; docs/api-decisions.md, "Output items"),
 * simplified, and an agent's.
 */
import type { IDataObject } from 'n8n-workflow';

export type ResourceName = 'receivable' | 'payable' | 'vendor' | 'transaction' | 'webhookEndpoint';

const fields = (names: string): readonly string[] => names.split(' ');

/** Every documented field of each resource, in the documented order. */
const RESOURCE_FIELDS: Record<ResourceName, readonly string[]> = {
	receivable: fields(
		'id invoice_number customer_id customer_name customer_email amount currency due_date status notes sent_at paid_at created_at updated_at',
	),
	payable: fields(
		'id invoice_number vendor_id vendor_name amount currency due_date status notes payment_method created_at updated_at',
	),
	vendor: fields(
		'id name email payment_method bank_name account_name account_number_last4 routing_number_last4 wallet_address wallet_chain created_at updated_at',
	),
	transaction: fields('id type amount currency network status reference created_at completed_at'),
	webhookEndpoint: fields('id url description filter_types disabled created_at updated_at'),
};

/** The fields Simplify keeps (at most ten: n8n's UX guideline), in output order. */
export const SIMPLIFIED_FIELDS = {
	vendor: fields(
		'id name email payment_method bank_name account_number_last4 wallet_address wallet_chain updated_at',
	),
	transaction: fields('id type amount currency status reference created_at completed_at'),
} satisfies Partial<Record<ResourceName, readonly string[]>>;

export type SimplifiableResource = keyof typeof SIMPLIFIED_FIELDS;

export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `names` of `value`, `null` where left out (Object.fromEntries: `__proto__` stays a field). */
function columns(names: readonly string[], value: IDataObject): IDataObject {
	return Object.fromEntries(
		names.map((name) => [name, value[name] === undefined ? null : value[name]]),
	);
}

/** Every documented field in order (`null` where left out), then the service's own, unchanged. */
export function withStableColumns<T>(resource: ResourceName, value: T): T | IDataObject {
	if (!isPlainObject(value)) return value;
	const documented = RESOURCE_FIELDS[resource];
	const added = Object.keys(value).filter((key) => !documented.includes(key));
	return columns([...documented, ...added], value);
}

/** Only the simplified fields, in their order, `null` where the service left one out. */
export function simplified<T>(resource: SimplifiableResource, value: T): T | IDataObject {
	return isPlainObject(value) ? columns(SIMPLIFIED_FIELDS[resource], value) : value;
}

/** A resource as the list and get operations output it: simplified when Simplify is on. */
export function shaped<T>(
	resource: SimplifiableResource,
	value: T,
	simplify: boolean,
): T | IDataObject {
	return simplify ? simplified(resource, value) : withStableColumns(resource, value);
}

/** The fields an agent gets, where fewer than all: a vendor's banking details stay out. */
const AGENT_FIELDS: Partial<Record<ResourceName, readonly string[]>> = {
	vendor: ['id', 'name', 'email', 'payment_method', 'updated_at'],
	transaction: SIMPLIFIED_FIELDS.transaction,
};

/**
 * A record as an agent gets it: its agent fields, no `null` ones (an agent pays per character).
 * Empty strings and lists stay: `filter_types: []` means "every event", not "unknown".
 */
export function forAgent<T>(resource: ResourceName | undefined, value: T): T | IDataObject {
	if (!isPlainObject(value)) return value;
	return withoutEmpty((resource && AGENT_FIELDS[resource]) ?? Object.keys(value), value);
}

/** A record as a tool with Output "Selected Fields" answers: its id, then `names`, no `null`s. */
export function selectedForAgent<T>(names: readonly string[], value: T): T | IDataObject {
	if (!isPlainObject(value)) return value;
	return withoutEmpty([...new Set(['id', ...names])], value);
}

function withoutEmpty(fields: readonly string[], value: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) {
		// own fields only: a picked name like `constructor` must not answer Object's own function
		if (field === '__proto__' || !Object.prototype.hasOwnProperty.call(value, field)) continue;
		const kept = value[field];
		if (kept !== null && kept !== undefined) out[field] = kept;
	}
	return out;
}

/** The resource an event type's `data` holds (`vendor.updated` → vendor), if it is one of ours. */
function resourceOfEventType(type: unknown): ResourceName | undefined {
	if (typeof type !== 'string') return undefined;
	if (type.startsWith('treasury.transaction.')) return 'transaction';
	const prefix = type.split('.')[0];
	if (prefix === 'receivable' || prefix === 'payable' || prefix === 'vendor') return prefix;
	return undefined;
}

/** A trigger's item json: the whole event, or its resource alone (stable columns for ours). */
export function eventItemJson(output: 'event' | 'data', event: IDataObject): IDataObject {
	if (output === 'event') return event;
	const resource = resourceOfEventType(event.type);
	const data = resource ? withStableColumns(resource, event.data) : event.data;
	return isPlainObject(data) ? data : { data };
}
