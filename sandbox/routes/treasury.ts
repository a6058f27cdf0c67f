/** Treasury: deposit instructions, transactions (from/to/type, pages), balance. */
import { validationError } from '../errors';
import { TRANSACTION_TYPES } from '../schemas';
import type { Store } from '../store';
import { round8 } from '../util';
import { parseDateParam, parsePagination } from '../validation';
import { sendData, sendPage, type Ctx, type Define } from './common';

const DEPOSIT_INSTRUCTIONS = {
	crypto: {
		address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
		network: 'ethereum',
		asset: 'USDC',
	},
	ach: {
		bank_name: 'Sandbox Community Bank',
		routing_number: '021000021',
		account_number: '000123456789',
		account_type: 'checking',
		reference_code: 'BFS-SANDBOX-0001',
	},
	wire: {
		bank_name: 'Sandbox Community Bank',
		routing_number: '026009593',
		account_number: '000123456789',
		account_type: 'checking',
		bank_address: '1 Sandbox Plaza, New York, NY 10001, USA',
		reference_code: 'BFS-SANDBOX-0001',
	},
	swift: {
		bank_name: 'Sandbox International Bank',
		swift_code: 'SBXBGB2LXXX',
		account_number: '12345698765432',
		iban: 'GB82WEST12345698765432',
		bank_address: '10 Sandbox Lane, London EC2V 7HH, United Kingdom',
		reference_code: 'BFS-SANDBOX-0001',
	},
};

/** The signed effect of a transaction on its currency's balance. */
const signed = (type: string, amount: number) => (type === 'withdrawal' ? -amount : amount);

function balance(store: Store) {
	const byCurrency = new Map<string, { available: number; pending: number }>();
	let updated = '';
	for (const t of store.transactions.all()) {
		if (t.created_at > updated) updated = t.created_at;
		if (t.completed_at && t.completed_at > updated) updated = t.completed_at;
		if (t.status === 'failed') continue;
		let b = byCurrency.get(t.currency);
		if (!b) byCurrency.set(t.currency, (b = { available: 0, pending: 0 }));
		if (t.status === 'completed') b.available += signed(t.type, t.amount);
		else b.pending += signed(t.type, t.amount);
	}
	const balances = [...byCurrency.entries()]
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([currency, b]) => ({
			currency,
			available: round8(b.available),
			pending: round8(b.pending),
		}));
	return { balances, updated_at: updated || store.startedAt };
}

export function treasuryRoutes(define: Define, ctx: Ctx): void {
	const { store } = ctx;
	const txs = store.transactions;

	define('GET', '/v1/treasury/deposit-instructions', undefined, (_req, reply) =>
		sendData(reply, 200, DEPOSIT_INSTRUCTIONS),
	);

	define('GET', '/v1/treasury/transactions', undefined, (req, reply) => {
		const q = req.query as Record<string, string>;
		const paging = parsePagination(q);
		const from = q.from === undefined ? undefined : parseDateParam('from', q.from);
		const to = q.to === undefined ? undefined : parseDateParam('to', q.to);
		if (from && to && from > to) throw validationError('from must not be after to');
		if (q.type !== undefined && !(TRANSACTION_TYPES as readonly string[]).includes(q.type)) {
			throw validationError(`type must be one of: ${TRANSACTION_TYPES.join(', ')}`);
		}
		const filtered =
			from || to || q.type
				? txs.all().filter((t) => {
						const day = t.created_at.slice(0, 10);
						return (!from || day >= from) && (!to || day <= to) && (!q.type || t.type === q.type);
					})
				: txs.all();
		return sendPage(reply, filtered, paging);
	});

	define('GET', '/v1/treasury/balance', undefined, (_req, reply) =>
		sendData(reply, 200, balance(store)),
	);
}
