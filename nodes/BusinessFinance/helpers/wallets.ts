/**
 * Wallet address structure per `wallet_chain` (as the sandbox checks). No checksums: EIP-55 and
 * base58check need hashes the package would have to ship.
 */
import { EVM_CHAINS, WALLET_CHAINS, type WalletChain } from './constants';
import { isOneOf } from './validators';

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
/** Legacy (P2PKH) and P2SH: base58 starting with 1 or 3, 26 to 35 characters. */
const BITCOIN_BASE58_ADDRESS = new RegExp(`^[13]${BASE58}{25,34}$`);
/** bech32/bech32m: `bc1` and 11 to 71 bech32 characters, checked on the lower-case form. */
const BITCOIN_BECH32_ADDRESS = /^bc1[02-9ac-hj-np-z]{11,71}$/;

interface WalletRule {
	test: (address: string) => boolean;
	/** What an address looks like, for messages. */
	hint: string;
}

const matching = (pattern: RegExp, hint: string): WalletRule => ({
	test: (a) => pattern.test(a),
	hint,
});

const EVM_RULE = matching(/^0x[0-9a-fA-F]{40}$/, '0x followed by 40 hex characters');

const WALLET_RULES: Record<WalletChain, WalletRule> = {
	...(Object.fromEntries(EVM_CHAINS.map((chain) => [chain, EVM_RULE])) as Record<
		(typeof EVM_CHAINS)[number],
		WalletRule
	>),
	solana: matching(new RegExp(`^${BASE58}{32,44}$`), '32 to 44 base58 characters'),
	tron: matching(new RegExp(`^T${BASE58}{33}$`), 'T followed by 33 base58 characters'),
	bitcoin: {
		// A bech32 address is all lower case or all upper case, never mixed.
		test: (a) =>
			BITCOIN_BASE58_ADDRESS.test(a) ||
			((a === a.toLowerCase() || a === a.toUpperCase()) &&
				BITCOIN_BECH32_ADDRESS.test(a.toLowerCase())),
		hint: 'a base58 address starting with 1 or 3 (26-35 characters) or a bech32 address starting with bc1',
	},
};

/** True when `address` (surrounding spaces ignored) has the structure of an address on `chain`. */
export function isValidWalletAddress(chain: unknown, address: unknown): boolean {
	if (!isOneOf(WALLET_CHAINS, chain) || typeof address !== 'string') return false;
	return WALLET_RULES[chain].test(address.trim());
}

export function walletAddressHint(chain: WalletChain): string {
	return WALLET_RULES[chain].hint;
}

/**
 * An address in the form to send: trimmed, and an all-upper-case bech32 bitcoin address (as QR
 * codes carry it) in its canonical lower case. Other addresses are case-sensitive and kept.
 */
export function normaliseWalletAddress(address: string): string {
	const trimmed = address.trim();
	return /^bc1/i.test(trimmed) && trimmed === trimmed.toUpperCase()
		? trimmed.toLowerCase()
		: trimmed;
}
