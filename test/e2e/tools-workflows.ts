/**
 * The tool suite's workflows (test/e2e/tools.e2e.test.ts), as a user builds them in the editor:
 * Business Finance Tool nodes whose inputs an agent fills in through `$fromAI`, under n8n's MCP
 * Server Trigger or its AI Agent (with an OpenAI Chat Model whose credential's Base URL points at
 * the scripted model, test/helpers/scripted-model.ts). Three tools run on a revoked, an expired
 * and a rate-limited key.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { N8nServer, WorkflowJson } from '../../scripts/n8n';
import { SANDBOX_CREDENTIAL, action, chain, exampleCopy, manual, node, rl } from './workflows';

export const MCP_WORKFLOW_ID = 'bfE2eMcpTools001';
export const MCP_PATH = 'bf-e2e-mcp';
export const REVOKED_CREDENTIAL = { id: 'bfMcpRevokedKey1', name: 'Business Finance revoked key' };
export const EXPIRED_CREDENTIAL = { id: 'bfMcpExpiredKey1', name: 'Business Finance expired key' };
/** A credential on a sandbox whose rate limit the suite narrows. */
export const LIMITED_CREDENTIAL = { id: 'bfMcpLimitedKey1', name: 'Business Finance rate-limited' };

const TOOL = 'n8n-nodes-business-finance.businessFinanceTool';
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** `$fromAI` as the editor's "Let the model define this parameter" button writes it. */
const fromAI = (key: string, description: string, type = 'string') =>
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
const OTHER_KEYS: Record<string, [Record<string, unknown>, { id: string; name: string }]> = {
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

/** The parameters of the tool node `name` (of TOOLS or OTHER_KEYS). */
export const toolParameters = (name: string) => OTHER_KEYS[name]?.[0] ?? TOOLS[name];

const toolNode = (name: string) =>
	node(name, TOOL, toolParameters(name), {
		credentials: { businessFinanceApi: OTHER_KEYS[name]?.[1] ?? SANDBOX_CREDENTIAL },
	});

/** A workflow of `nodes`, with `links`: [from, to, connection type]. */
function workflow(id: string, name: string, nodes: Array<Record<string, any>>, links: string[][]) {
	const connections: Record<string, any> = {};
	for (const [from, to, type] of links)
		connections[from] = { [type]: [[{ node: to, type, index: 0 }]] };
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

export function mcpWorkflow(): WorkflowJson {
	const names = [...Object.keys(TOOLS), ...Object.keys(OTHER_KEYS)];
	const webhookId = '5e1b3c70-1111-4000-8000-000000000001';
	const extra = { typeVersion: 2, webhookId };
	const trigger = node('MCP Server Trigger', MCP_TRIGGER, { path: MCP_PATH }, extra);
	return workflow(
		MCP_WORKFLOW_ID,
		'e2e: Business Finance tools over MCP',
		[trigger, ...names.map(toolNode)],
		names.map((name) => [name, trigger.name, 'ai_tool']),
	);
}

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

export const AGENT = 'AI Agent';
const PROMPT = 'Bill Globex 250.50 USD for invoice INV-AGENT-1, then check the balance.';
/** The AI Agent's tools: three reads, a create, and the tools on the revoked and rate-limited keys. */
export const AGENT_TOOLS = [
	'list_vendors',
	'get_balance',
	'get_transactions',
	'create_receivable',
	'get_balance_revoked_key',
	'list_vendors_rate_limited',
];

/**
 * A Manual Trigger, the AI Agent at `agentVersion` with the prompt typed in ("Define below": a
 * Manual Trigger brings no chat input), the Chat Model 1.3 on Chat Completions (its Responses API
 * option off) with `model` by id on `credential`, and AGENT_TOOLS.
 */
export function agentWorkflow(
	id: string,
	agentVersion: number,
	model: string,
	credential: { id: string; name: string },
): WorkflowJson {
	const parameters = { promptType: 'define', text: PROMPT, options: {} };
	const agent = node(AGENT, '@n8n/n8n-nodes-langchain.agent', parameters, {
		typeVersion: agentVersion,
	});
	const chatModel = node(
		'OpenAI Chat Model',
		'@n8n/n8n-nodes-langchain.lmChatOpenAi',
		{ model: rl(model), responsesApiEnabled: false, options: {} },
		{ typeVersion: 1.3, credentials: { openAiApi: credential } },
	);
	return workflow(
		id,
		`e2e: Business Finance tools in an AI Agent ${agentVersion}`,
		[manual(), agent, chatModel, ...AGENT_TOOLS.map(toolNode)],
		[
			['Start', AGENT, 'main'],
			[chatModel.name, AGENT, 'ai_languageModel'],
			...AGENT_TOOLS.map((name) => [name, AGENT, 'ai_tool']),
		],
	);
}

export const EXAMPLE07_COPY_ID = 'bfE2eExample07Mn';
export const EXAMPLE07_PROMPT = 'Pay Acme Office Supplies 120.50 for invoice BILL-EXAMPLE-07.';

/**
 * Example 07 as the suite runs it: its Chat Trigger replaced by a Manual Trigger of the same name
 * (so the connections hold), and the agent given the chat message as its own prompt; every other
 * node, credentials included, as the user imports it.
 */
export function example07Copy(): WorkflowJson & { id: string } {
	const copy = exampleCopy('07-finance-agent.json', EXAMPLE07_COPY_ID, {});
	copy.name = `${copy.name} (manual start)`;
	for (const n of copy.nodes) {
		if (n.type === '@n8n/n8n-nodes-langchain.chatTrigger') {
			Object.assign(n, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
			delete n.webhookId;
		}
		if (n.type === '@n8n/n8n-nodes-langchain.agent') {
			Object.assign(n.parameters, { promptType: 'define', text: EXAMPLE07_PROMPT });
		}
	}
	return copy;
}
