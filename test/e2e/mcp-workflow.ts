/**
 * The MCP suite's workflow (test/e2e/mcp.e2e.test.ts): n8n's MCP Server Trigger offering one
 * Business Finance Tool per operation, every input an agent fills in through `$fromAI`, as a user
 * builds it in the editor. Two more tools run on a revoked and an expired key.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { N8nServer, WorkflowJson } from '../../scripts/n8n';
import { SANDBOX_CREDENTIAL, action, chain, manual, node, rl } from './workflows';

export const MCP_WORKFLOW_ID = 'bfE2eMcpTools001';
export const MCP_PATH = 'bf-e2e-mcp';
export const REVOKED_CREDENTIAL = { id: 'bfMcpRevokedKey1', name: 'Business Finance revoked key' };
export const EXPIRED_CREDENTIAL = { id: 'bfMcpExpiredKey1', name: 'Business Finance expired key' };
/** A credential on a sandbox whose rate limit the suite narrows. */
export const LIMITED_CREDENTIAL = { id: 'bfMcpLimitedKey1', name: 'Business Finance rate-limited' };

const TOOL = 'n8n-nodes-business-finance.businessFinanceTool';
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** `$fromAI` as the editor's "Let the model define this parameter" button writes it. */
export const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;

/** Tool name (the node's name as MCP shows it) → the node's parameters. */
export const TOOLS: Record<string, Record<string, unknown>> = {
	create_receivable: {
		resource: 'receivable',
		operation: 'create',
		invoiceNumber: fromAI('invoice_number', 'Invoice number, unique per invoice'),
		amount: fromAI('amount', 'Amount in USD, greater than 0', 'number'),
		additionalFields: { customerEmail: fromAI('customer_email', 'Customer email address') },
	},
	update_receivable: {
		resource: 'receivable',
		operation: 'update',
		receivableId: fromAI('receivable_id', 'Receivable id, rcv_...'),
		updateFields: { notes: fromAI('notes', 'Notes to set') },
	},
	send_receivable: {
		resource: 'receivable',
		operation: 'send',
		receivableId: fromAI('receivable_id', 'Receivable id, rcv_...'),
	},
	create_payable: {
		resource: 'payable',
		operation: 'create',
		invoiceNumber: fromAI('invoice_number', 'The vendor invoice number'),
		amount: fromAI('amount', 'Amount, greater than 0', 'number'),
		vendorId: rl(fromAI('vendor_id', 'Vendor id, vnd_...')),
		additionalFields: {},
	},
	update_payable: {
		resource: 'payable',
		operation: 'update',
		payableId: fromAI('payable_id', 'Payable id, pay_...'),
		updateFields: { notes: fromAI('notes', 'Notes to set') },
	},
	create_vendor: {
		resource: 'vendor',
		operation: 'create',
		name: fromAI('name', 'Vendor name'),
		paymentMethod: 'crypto',
		additionalFields: {
			walletAddress: fromAI('wallet_address', 'EVM wallet address, 0x and 40 hex digits'),
			walletChain: 'base',
		},
	},
	get_vendor: {
		resource: 'vendor',
		operation: 'get',
		vendorId: rl(fromAI('vendor_id', 'Vendor id, vnd_...')),
	},
	list_vendors: {
		resource: 'vendor',
		operation: 'getAll',
		returnAll: false,
		limit: fromAI('limit', 'How many vendors at most (1-100)', 'number'),
		filters: { search: fromAI('search', 'Text in the vendor name or email') },
	},
	update_vendor: {
		resource: 'vendor',
		operation: 'update',
		vendorId: rl(fromAI('vendor_id', 'Vendor id, vnd_...')),
		updateFields: { email: fromAI('email', 'The new email address') },
	},
	get_balance: { resource: 'treasury', operation: 'getBalance' },
	get_deposit_instructions: { resource: 'treasury', operation: 'getDepositInstructions' },
	get_transactions: {
		resource: 'treasury',
		operation: 'getTransactions',
		returnAll: false,
		limit: fromAI('limit', 'How many transactions at most (1-100)', 'number'),
		filters: {},
	},
	get_webhook_endpoint: {
		resource: 'webhookEndpoint',
		operation: 'get',
		webhookEndpointId: fromAI('endpoint_id', 'Webhook endpoint id, ep_...'),
	},
	update_webhook_endpoint: {
		resource: 'webhookEndpoint',
		operation: 'update',
		webhookEndpointId: fromAI('endpoint_id', 'Webhook endpoint id, ep_...'),
		updateFields: { description: fromAI('description', 'The new description') },
	},
};

/** Tools on other credentials: name → [parameters, credential]. */
export const OTHER_KEYS: Record<string, [Record<string, unknown>, { id: string; name: string }]> = {
	get_balance_revoked_key: [{ resource: 'treasury', operation: 'getBalance' }, REVOKED_CREDENTIAL],
	get_balance_expired_key: [{ resource: 'treasury', operation: 'getBalance' }, EXPIRED_CREDENTIAL],
	list_vendors_rate_limited: [
		{
			resource: 'vendor',
			operation: 'getAll',
			returnAll: true,
			filters: {},
			options: {
				rateLimitWaitSeconds: fromAI('max_wait_seconds', 'Seconds to wait at most', 'number'),
			},
		},
		LIMITED_CREDENTIAL,
	],
};

export function mcpWorkflow(): WorkflowJson {
	const tools = [
		...Object.entries(TOOLS).map(([name, parameters]) => toolNode(name, parameters)),
		...Object.entries(OTHER_KEYS).map(([name, [parameters, credential]]) =>
			toolNode(name, parameters, credential),
		),
	];
	tools.forEach((tool, i) => (tool.position = [(i + 1) * 200, 300]));
	const webhookId = '5e1b3c70-1111-4000-8000-000000000001';
	const extra = { typeVersion: 2, webhookId };
	const trigger = node('MCP Server Trigger', MCP_TRIGGER, { path: MCP_PATH }, extra);
	const connections: Record<string, unknown> = {};
	for (const tool of tools) {
		connections[tool.name] = { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] };
	}
	return {
		id: MCP_WORKFLOW_ID,
		name: 'e2e: Business Finance tools over MCP',
		nodes: [trigger, ...tools],
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

const toolNode = (name: string, parameters: object, credential = SANDBOX_CREDENTIAL) =>
	node(name, TOOL, parameters, { credentials: { businessFinanceApi: credential } });

export const READS_WORKFLOW_ID = 'bfE2eMcpReads001';

/**
 * The same reads as the tools' calls in the suite, as a normal workflow runs them (Manual Trigger,
 * then one action node per read): the node's normal output, to compare the tools' answers with.
 */
export function readsWorkflow(reads: Record<string, Record<string, unknown>>): WorkflowJson {
	const actions = Object.entries(reads).map(([name, parameters]) =>
		action(name, parameters, { executeOnce: true }),
	);
	return chain(READS_WORKFLOW_ID, 'e2e: the tools’ reads as a workflow', [manual(), ...actions]);
}

/** An MCP client connected to `url` (with `headers`); rejects with the server's HTTP status as `code`. */
export async function connectMcp(url: URL, headers: Record<string, string> = {}): Promise<Client> {
	const client = new Client({ name: 'bf-e2e', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
	return client;
}

/** The same, once the MCP Server Trigger's endpoint answers (just after activation it may not). */
export async function connectMcpWhenReady(
	n8n: N8nServer,
	url: URL,
	headers: Record<string, string> = {},
): Promise<Client> {
	return await n8n.waitFor('the MCP endpoint to answer', async () => {
		try {
			return await connectMcp(url, headers);
		} catch {
			return undefined;
		}
	});
}
