/** Deterministic seed data (seeded PRNG, dates relative to today): demo data and bulk vendors. */
import type { Store } from './store';
import type {
	Payable,
	PayableStatus,
	PaymentMethod,
	Receivable,
	ReceivableStatus,
	TreasuryTransaction,
	Vendor,
} from './types';
import { prng } from './util';
import { newSecret } from './routes/webhooks';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const HEX = '0123456789abcdef';

const pick = <T>(rand: () => number, list: readonly T[]): T =>
	list[Math.floor(rand() * list.length)];
/** n characters drawn from alphabet, built flat (no chain of intermediate strings). */
function chars(rand: () => number, alphabet: string, n: number): string {
	const codes = new Array<number>(n);
	for (let i = 0; i < n; i++) codes[i] = alphabet.charCodeAt(Math.floor(rand() * alphabet.length));
	return String.fromCharCode(...codes);
}
const words = <T extends string>(list: string) => list.split(' ') as T[];
/** A v4 UUID from 32 drawn hex digits; join builds it flat. */
function seededUuid(rand: () => number): string {
	const h = chars(rand, HEX, 32);
	const variant = HEX[(HEX.indexOf(h[16]) & 0x3) | 0x8];
	const groups = [h.slice(0, 8), h.slice(8, 12), `4${h.slice(13, 16)}`, variant + h.slice(17, 20)];
	return [...groups, h.slice(20)].join('-');
}
const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

/** Per chain: prefix, alphabet and length of an address (EVM chains: the fallback). */
const WALLETS: Record<string, [string, string, number]> = {
	solana: ['', BASE58, 44],
	tron: ['T', BASE58, 33],
	bitcoin: ['bc1q', BECH32, 38],
};
function walletFor(rand: () => number, chain: string): string {
	const [prefix, alphabet, length] = WALLETS[chain] ?? ['0x', HEX, 40];
	return prefix + chars(rand, alphabet, length);
}

const COMPANIES = [
	['Acme Office Supplies', 'billing@acme-supplies.example', 'ach'],
	['Northwind Logistics', 'ap@northwind.example', 'ach'],
	['Blue Harbor Consulting', 'invoices@blueharbor.example', 'ach'],
	['Greenfield Utilities', 'accounts@greenfield.example', 'ach'],
	['Contoso Manufacturing GmbH', 'finance@contoso.example', 'wire'],
	['Fabrikam Legal LLP', 'billing@fabrikam.example', 'wire'],
	['Tailspin Travel Ltd', 'payments@tailspin.example', 'wire'],
	['Litware Cloud Hosting', 'billing@litware.example', 'wire'],
	['Chainlink Design Studio', 'hello@chainlink-design.example', 'crypto', 'ethereum'],
	['Solar Flare Devs', 'pay@solarflare.example', 'crypto', 'solana'],
	['Basecamp Freelance Collective', 'team@basecamp-collective.example', 'crypto', 'base'],
	['Tron Media Partners', 'ops@tronmedia.example', 'crypto', 'tron'],
	['Satoshi Hardware Co', 'sales@satoshi-hw.example', 'crypto', 'bitcoin'],
	['Polygon Analytics', 'billing@polygon-analytics.example', 'crypto', 'polygon'],
] as const;

const BANKS = ['First Sandbox Bank', 'Harbor Trust', 'Pacific Commerce Bank', 'Union Demo Bank'];
/** Valid ABA routing numbers (check digit correct). */
const ROUTING = ['021000021', '026009593', '011000015', '121000358', '122105155'];

function makeVendor(
	rand: () => number,
	name: string,
	email: string | null,
	method: PaymentMethod,
	chain: string,
	at: string,
): Vendor {
	const bank = method !== 'crypto';
	return {
		id: seededUuid(rand),
		name,
		email,
		payment_method: method,
		bank_name: bank ? pick(rand, BANKS) : null,
		account_name: bank ? name : null,
		account_number_last4: bank ? chars(rand, '0123456789', 4) : null,
		routing_number_last4: bank ? pick(rand, ROUTING).slice(-4) : null,
		wallet_address: bank ? null : walletFor(rand, chain),
		wallet_chain: bank ? null : chain,
		created_at: at,
		updated_at: at,
	};
}

export function seedDemo(store: Store, now = Date.now()): void {
	const rand = prng(20261122);
	const today = Math.floor(now / DAY) * DAY;
	const base = today - 90 * DAY;

	const vendors = COMPANIES.map(([name, email, method, chain], i) =>
		makeVendor(rand, name, email, method, chain ?? 'ethereum', iso(base + (9 + i) * HOUR)),
	);
	store.vendors.insert(vendors);

	const customers = [
		['Globex Corporation', 'ap@globex.example'],
		['Initech', 'accounts.payable@initech.example'],
		['Umbrella Health', 'finance@umbrella.example'],
		['Wayne Enterprises', 'payables@wayne.example'],
		['Stark Industries', 'ap@stark.example'],
	];
	const recStatuses = words<ReceivableStatus>(
		'draft draft sent sent paid paid overdue cancelled sent paid draft overdue',
	);
	const receivables: Receivable[] = recStatuses.map((status, i) => {
		const [customer, email] = customers[i % customers.length];
		const created = base + (5 + i * 7) * DAY + 10 * HOUR;
		const sent =
			status === 'draft' || (status === 'cancelled' && i % 2 === 0) ? null : iso(created + HOUR);
		const due = status === 'overdue' ? today - (3 + i) * DAY : created + 30 * DAY;
		return {
			id: seededUuid(rand),
			invoice_number: `INV-2026-${String(1001 + i)}`,
			customer_id: seededUuid(rand),
			customer_name: customer,
			customer_email: email,
			amount: Math.round(500 + rand() * 20_000) + (i % 3 === 0 ? 0.5 : 0),
			currency: 'USD',
			due_date: day(due),
			status,
			notes: i % 4 === 0 ? 'Net 30. Thank you for your business.' : null,
			sent_at: sent,
			paid_at: status === 'paid' ? iso(created + 12 * DAY) : null,
			created_at: iso(created),
			updated_at: iso(status === 'paid' ? created + 12 * DAY : created + HOUR),
		};
	});
	store.receivables.insert(receivables);

	const payStatuses = words<PayableStatus>(
		'pending_review pending_review ready ready scheduled paid paid failed cancelled pending_review',
	);
	const payables: Payable[] = payStatuses.map((status, i) => {
		const v = vendors[i % vendors.length];
		const created = base + (8 + i * 8) * DAY + 14 * HOUR;
		return {
			id: seededUuid(rand),
			invoice_number: `BILL-${String(5001 + i)}`,
			vendor_id: v.id,
			vendor_name: v.name,
			amount: Math.round(100 + rand() * 9_000) + (i % 2 ? 0.25 : 0),
			currency: 'USD',
			due_date: day(created + 21 * DAY),
			status,
			notes: i % 3 === 0 ? 'Approved by finance' : null,
			payment_method: v.payment_method,
			created_at: iso(created),
			updated_at: iso(created + (status === 'pending_review' ? 0 : 2 * DAY)),
		};
	});
	store.payables.insert(payables);

	const txs: TreasuryTransaction[] = [];
	type Row = [TreasuryTransaction['type'], number, string, string, TreasuryTransaction['status']];
	const tx = (at: number, ...[type, amount, currency, network, status]: Row) => {
		const n = String(txs.length + 1);
		txs.push({
			id: `txn_${n.padStart(6, '0')}${chars(rand, HEX, 12)}`,
			type,
			amount,
			currency,
			network,
			status,
			reference: `REF-${n.padStart(5, '0')}`,
			created_at: iso(at),
			completed_at: status === 'completed' ? iso(at + 2 * HOUR) : null,
		});
	};
	const amount = (min: number, span: number) => Math.round(min + rand() * span);
	for (let d = 0; d < 90; d++) {
		const at = base + d * DAY + 8 * HOUR + Math.floor(rand() * 8) * HOUR;
		// the last two days are still pending; a deposit fails now and then
		const status = d >= 88 ? 'pending' : 'completed';
		const deposit = d % 29 === 5 && status === 'completed' ? 'failed' : status;
		tx(at, 'deposit', amount(2_000, 8_000), 'USD', pick(rand, ['ach', 'wire']), deposit);
		const chains = ['ethereum', 'base', 'solana'];
		if (d % 3 === 0)
			tx(at + HOUR, 'deposit', amount(1_000, 5_000), 'USDC', pick(rand, chains), status);
		if (d % 4 === 1) tx(at + 2 * HOUR, 'withdrawal', amount(500, 3_000), 'USD', 'ach', status);
		if (d % 10 === 7) {
			const usd = amount(1_000, 2_000);
			tx(at + 4 * HOUR, 'conversion', -usd, 'USD', 'internal', 'completed');
			tx(at + 4 * HOUR + 1_000, 'conversion', usd, 'USDC', 'internal', 'completed');
		}
	}
	store.transactions.insert(txs);

	const epAt = iso(base);
	const epId = `ep_demo${chars(rand, HEX, 17)}`;
	store.webhooks.insert([
		{
			id: epId,
			url: 'http://127.0.0.1:9/webhooks/business-finance',
			description: 'Demo endpoint (disabled): point it at your receiver and enable it',
			filter_types: [],
			disabled: true,
			created_at: epAt,
			updated_at: epAt,
		},
	]);
	const secretBytes = Buffer.from(Array.from({ length: 24 }, () => Math.floor(rand() * 256)));
	store.secrets.set(epId, newSecret(secretBytes));
}

/** Adds `count` valid vendors quickly (no events); created now, ordered by id. */
export function seedVendors(store: Store, count: number): void {
	const start = store.vendors.size;
	const rand = prng(start + 1);
	const at = new Date().toISOString();
	const methods: PaymentMethod[] = ['ach', 'wire', 'crypto'];
	const chains = ['ethereum', 'base', 'polygon', 'solana', 'tron', 'bitcoin'];
	const list = Array.from({ length: count }, (_, i) => {
		const k = start + i + 1;
		const name = `Seeded Vendor ${String(k).padStart(6, '0')}`;
		const email = `vendor${k}@seeded.example`;
		return makeVendor(rand, name, email, methods[k % 3], chains[k % chains.length], at);
	});
	store.vendors.insert(list);
}
