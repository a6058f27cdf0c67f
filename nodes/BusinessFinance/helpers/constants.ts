/** Values fixed by the service contract (../shared/spec/contract.md), shared by both nodes. */

export const PAYMENT_METHODS = ['ach', 'wire', 'crypto'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const WALLET_CHAINS = [
	'ethereum',
	'base',
	'polygon',
	'arbitrum',
	'optimism',
	'solana',
	'tron',
	'bitcoin',
] as const;
export type WalletChain = (typeof WALLET_CHAINS)[number];

export const EVM_CHAINS: readonly WalletChain[] = [
	'ethereum',
	'base',
	'polygon',
	'arbitrum',
	'optimism',
];

export const TRANSACTION_TYPES = ['deposit', 'withdrawal', 'conversion'] as const;

export const RECEIVABLE_WRITABLE_STATUSES = ['draft', 'cancelled'] as const;
export const PAYABLE_WRITABLE_STATUSES = ['pending_review', 'ready'] as const;

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
export type EventType = (typeof EVENT_TYPES)[number];

/** The API's largest page size. */
export const MAX_PAGE_SIZE = 100;
