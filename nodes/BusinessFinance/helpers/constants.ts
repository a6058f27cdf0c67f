/** Facts more than one module needs, defined once (the service's: docs/api-decisions.md). */

/** The credential type both nodes use (its `name` in credentials/BusinessFinanceApi.credentials.ts). */
export const CREDENTIAL_NAME = 'businessFinanceApi';

/** The API's largest page size (`limit` on list endpoints is 1 to 100). */
export const API_MAX_PAGE_SIZE = 100;

/** A webhook endpoint's route, for any id the service gives (URL-encoded). */
export const webhookEndpointPath = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`;

/** The service's rate limit per API key, as messages state it. */
export const RATE_LIMIT_TEXT = '100 requests per minute per API key';

/** Default total wait for rate limits per item, in seconds: the node option's default. */
export const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 300;

/** The option's largest value: one day, well below Node's longest timer (about 24.8 days). */
export const MAX_RATE_LIMIT_WAIT_SECONDS = 86_400;

/** A UUID (8-4-4-4-12 hex, any version or case) as a regex source, as n8n's locators take it. */
export const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const PAYMENT_METHODS = ['ach', 'wire', 'crypto'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The chains whose addresses are EVM addresses (`0x` and 40 hex characters). */
export const EVM_CHAINS = ['ethereum', 'base', 'polygon', 'arbitrum', 'optimism'] as const;
export const WALLET_CHAINS = [...EVM_CHAINS, 'solana', 'tron', 'bitcoin'] as const;
export type WalletChain = (typeof WALLET_CHAINS)[number];

export const TRANSACTION_TYPES = ['deposit', 'withdrawal', 'conversion'] as const;

export const EVENT_TYPES = [
	'receivable.created',
	'receivable.updated',
	'receivable.sent',
	'receivable.paid',
	'receivable.overdue',
	'receivable.cancelled',
	'payable.created',
	'payable.updated',
	'payable.ready',
	'payable.paid',
	'payable.failed',
	'vendor.created',
	'vendor.updated',
	'treasury.transaction.created',
	'treasury.transaction.completed',
	'treasury.transaction.failed',
] as const;
