import type { INodeProperties } from 'n8n-workflow';

/**
 * What a model reads about each operation as an agent's tool: what it does, its inputs, what it
 * changes. n8n takes it from a `toolDescription` parameter, shown only on the tool (`@tool`).
 */
const TOOL_DESCRIPTIONS: Record<string, Record<string, string>> = {
	receivable: {
		create:
			'Creates a receivable, an invoice to a customer, in USD. Needs an invoice number and an amount of at least 0.01; may take the customer email, customer name, customer id (a UUID), due date (YYYY-MM-DD) and notes. Emails the customer only when Send Immediately is on in the tool. Returns the receivable with its id.',
		send: 'Emails a receivable to its customer now; the email cannot be taken back and sending again sends another. Needs the receivable id (a UUID); the receivable needs a customer email and must not be paid or cancelled. Returns the receivable.',
		update:
			'Changes a receivable: its notes, its due date (YYYY-MM-DD), or its status (cancelled, or back to draft). Needs the receivable id (a UUID). Paid receivables cannot be changed. Sends no email. Returns the receivable.',
	},
	payable: {
		create:
			'Creates a payable, a vendor bill, awaiting review (nothing is paid until it is approved). Needs the vendor invoice number, an amount above 0, and a vendor id (a UUID, from the vendor tools) or a vendor name with payment details. Returns the payable with its id.',
		update:
			'Changes a payable: its notes, its due date (YYYY-MM-DD), or its status (ready approves it: the service then schedules and pays it, and money leaves the account; pending_review sends it back). Needs the payable id (a UUID). Scheduled, paid, failed or cancelled payables cannot be changed. Returns the payable.',
	},
	vendor: {
		create:
			'Creates a vendor (a payee). Needs a name and a payment method: ach (account number and 9-digit routing number), wire (account number and a routing number, SWIFT code or IBAN) or crypto (wallet address and chain). Returns the vendor with its id.',
		get: 'Reads one vendor by its id (a UUID). Returns its id, name, email, payment method and when it was last updated.',
		getAll:
			'Lists vendors, optionally only those whose name or email contains a search text. Returns each vendor’s id, name, email, payment method and when it was last updated; use the id for payables.',
		update:
			'Changes a vendor’s name, email or payment method (bank and wallet details cannot be changed). Needs the vendor id (a UUID). Returns the vendor.',
	},
	treasury: {
		getBalance:
			'Reads the treasury balance: available and pending amounts per currency. Needs no input.',
		getDepositInstructions:
			'Reads how to deposit funds into the treasury: crypto address, ACH, wire and SWIFT details with the reference to quote. Needs no input.',
		getTransactions:
			'Lists treasury transactions (deposits, withdrawals, conversions), optionally from and to a date (YYYY-MM-DD) and of one type. Returns each one’s id, type, amount, currency, status, reference and dates.',
	},
	webhookEndpoint: {
		get: 'Reads a webhook endpoint by its id (ep_...): where the service sends events, which event types, and whether it is disabled.',
		update:
			'Changes a webhook endpoint (id ep_...): its URL, description, event types or whether it is disabled. Changing the URL or disabling it redirects or stops the events other workflows receive. Returns the endpoint.',
	},
};

/** One `toolDescription` per operation, shown only when the node is a tool. */
export const toolDescriptionFields: INodeProperties[] = Object.entries(TOOL_DESCRIPTIONS).flatMap(
	([resource, operations]) =>
		Object.entries(operations).map(([operation, text]) => ({
			displayName: 'Tool Description',
			name: 'toolDescription',
			type: 'string' as const,
			typeOptions: { rows: 3 },
			default: text,
			description:
				'What the model reads about this tool: what it does, the inputs it needs and their formats, and what it changes',
			displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
		})),
);
