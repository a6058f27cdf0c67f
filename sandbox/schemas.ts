/**
 * JSON Schemas of every request body (Fastify validates them with ajv, no coercion), and the
 * TypeScript type of what each accepts (`BodyOf`), so each field list is written once.
 */

/** The value a property schema accepts (the subset of JSON Schema used below). */
type ValueOf<P> = P extends { enum: readonly (infer E)[] }
	? E
	: P extends { type: 'string' }
		? string
		: P extends { type: 'number' | 'integer' }
			? number
			: P extends { type: 'boolean' }
				? boolean
				: P extends { type: 'array'; items: infer I }
					? ValueOf<I>[]
					: BodyOf<P>;

interface ObjectSchema<P, R extends keyof P> {
	type: 'object';
	additionalProperties: false;
	properties: P;
	required?: R[];
	minProperties?: number;
}

/** The body an object schema accepts: its required fields, and the others as optional. */
export type BodyOf<S> =
	S extends ObjectSchema<infer P, infer R>
		? { [K in R]: ValueOf<P[K]> } & { [K in Exclude<keyof P, R>]?: ValueOf<P[K]> }
		: never;

/** The event types of docs/api-decisions.md, by resource. */
export const EVENT_TYPES = [
	...['created', 'updated', 'sent', 'paid', 'overdue', 'cancelled'].map((t) => `receivable.${t}`),
	...['created', 'updated', 'ready', 'paid', 'failed'].map((t) => `payable.${t}`),
	...['created', 'updated'].map((t) => `vendor.${t}`),
	...['created', 'completed', 'failed'].map((t) => `treasury.transaction.${t}`),
];

export const PAYMENT_METHODS = ['ach', 'wire', 'crypto'] as const;
export const EVM_CHAINS = ['ethereum', 'base', 'polygon', 'arbitrum', 'optimism'];
export const WALLET_CHAINS = [...EVM_CHAINS, 'solana', 'tron', 'bitcoin'];
export const TRANSACTION_TYPES = ['deposit', 'withdrawal', 'conversion'] as const;
export const TRANSACTION_STATUSES = ['pending', 'completed', 'failed'] as const;
export const FAULT_KINDS = [
	'status500',
	'status503',
	'reset',
	'malformed',
	'cut',
	'latency',
] as const;

const text = (max = 255) =>
	({ type: 'string', minLength: 1, maxLength: max, pattern: '\\S' }) as const;
const email = { type: 'string', format: 'email', maxLength: 255 } as const;
const date = { type: 'string', format: 'date' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const notes = { type: 'string', maxLength: 5000 } as const;
const payment_method = { type: 'string', enum: PAYMENT_METHODS } as const;
const MAX_AMOUNT = 1_000_000_000_000;

const obj = <const P, const R extends keyof P & string = never>(
	properties: P,
	required: R[] = [],
	minProperties = 0,
): ObjectSchema<P, R> => ({
	type: 'object',
	additionalProperties: false,
	properties,
	...(required.length ? { required } : {}),
	...(minProperties ? { minProperties } : {}),
});

const details = {
	bank_name: text(),
	account_name: text(),
	account_number: { type: 'string', minLength: 1, maxLength: 34 },
	routing_number: { type: 'string', minLength: 1, maxLength: 9 },
	swift_code: { type: 'string', minLength: 1, maxLength: 11 },
	iban: { type: 'string', minLength: 1, maxLength: 42 },
	bank_address: text(500),
	wallet_address: { type: 'string', minLength: 1, maxLength: 128 },
	wallet_chain: { type: 'string', enum: WALLET_CHAINS },
};

export const receivableCreate = obj(
	{
		invoice_number: text(),
		amount: { type: 'number', minimum: 0.01, maximum: MAX_AMOUNT },
		customer_id: uuid,
		customer_name: text(),
		customer_email: email,
		due_date: date,
		notes,
		send_immediately: { type: 'boolean' },
	},
	['invoice_number', 'amount'],
);

export const payableCreate = obj(
	{
		invoice_number: text(),
		amount: { type: 'number', exclusiveMinimum: 0, maximum: MAX_AMOUNT },
		vendor_id: uuid,
		vendor_name: text(),
		vendor_email: email,
		due_date: date,
		notes,
		payment_method,
		...details,
	},
	['invoice_number', 'amount'],
);

/** PATCH of a receivable or payable: a status the client may set, notes, the due date. */
const invoiceUpdate = <const T extends readonly string[]>(statuses: T) =>
	obj({ status: { type: 'string', enum: statuses }, notes, due_date: date }, [], 1);
export const receivableUpdate = invoiceUpdate(['draft', 'cancelled']);
export const payableUpdate = invoiceUpdate(['pending_review', 'ready']);

export const vendorCreate = obj({ name: text(), email, payment_method, ...details }, [
	'name',
	'payment_method',
]);

export const vendorUpdate = obj({ name: text(), email, payment_method }, [], 1);

const webhookFields = {
	url: { type: 'string', format: 'uri', pattern: '^[hH][tT][tT][pP][sS]?://', maxLength: 2048 },
	description: { type: 'string', maxLength: 255 },
	filter_types: { type: 'array', uniqueItems: true, items: { type: 'string', enum: EVENT_TYPES } },
	disabled: { type: 'boolean' },
};

export const webhookCreate = obj(webhookFields, ['url']);
export const webhookUpdate = obj(webhookFields, [], 1);

// ---- admin ----

export const adminReset = obj({ seed: { type: 'string', enum: ['demo', 'none'] } });

/** `{status}`, one of the keys of a transition table. */
export const adminStatus = (fromTable: Record<string, string[]>) =>
	obj({ status: { type: 'string', enum: Object.keys(fromTable) } }, ['status']);

export const adminTransactions = obj(
	{
		transactions: {
			type: 'array',
			minItems: 1,
			maxItems: 10_000,
			items: obj(
				{
					type: { type: 'string', enum: TRANSACTION_TYPES },
					amount: { type: 'number', minimum: -MAX_AMOUNT, maximum: MAX_AMOUNT },
					currency: { type: 'string', pattern: '^[A-Z0-9]{2,10}$' },
					network: text(),
					status: { type: 'string', enum: TRANSACTION_STATUSES },
					reference: text(),
					created_at: { type: 'string', format: 'date-time' },
				},
				['type', 'amount', 'currency'],
			),
		},
	},
	['transactions'],
);

export const adminSeedVendors = obj({ count: { type: 'integer', minimum: 1, maximum: 200_000 } }, [
	'count',
]);

export const adminFault = obj(
	{
		kind: { type: 'string', enum: FAULT_KINDS },
		count: { type: 'integer', minimum: 1 },
		rate: { type: 'number', minimum: 0, maximum: 1 },
		pathPrefix: { type: 'string', pattern: '^/' },
		method: { type: 'string', minLength: 1 },
		latencyMs: { type: 'integer', minimum: 0, maximum: 60_000 },
		afterProcessing: { type: 'boolean' },
	},
	['kind'],
);

export const adminRateLimit = obj({
	limit: { type: 'integer', minimum: 1 },
	windowSeconds: { type: 'number', exclusiveMinimum: 0 },
	retryAfter: { type: 'boolean' },
});
