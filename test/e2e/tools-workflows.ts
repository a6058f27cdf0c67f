/**
 * The tool suite's workflows: examples 06 (MCP) and 07 (AI Agent), patched only where the suite
 * must, plus the tools they lack, added as a user adds them in the editor (inputs via `$fromAI`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { N8nServer, WorkflowJson } from '../../scripts/n8n';
import {
	SANDBOX_CREDENTIAL,
	action,
	chain,
	exampleCopy,
	manual,
	node,
	nodeNamed,
	operation,
	rl,
} from './workflows';

export const MCP_WORKFLOW_ID = 'bfE2eMcpTools001';
export const MCP_PATH = 'bf-e2e-mcp';
const MCP_WEBHOOK_ID = '5e1b3c70-1111-4000-8000-000000000001';
export const REVOKED_CREDENTIAL = { id: 'bfMcpRevokedKey1', name: 'Business Finance revoked key' };
export const EXPIRED_CREDENTIAL = { id: 'bfMcpExpiredKey1', name: 'Business Finance expired key' };
export const LIMITED_CREDENTIAL = { id: 'bfMcpLimitedKey1', name: 'Business Finance rate-limited' };

const TOOL = 'n8n-nodes-business-finance.businessFinanceTool';

/** `$fromAI` as the editor's "Let the model define this parameter" button writes it. */
const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;

const receivableId = fromAI('receivable_id', 'Receivable id, rcv_...');
const vendorId = rl(fromAI('vendor_id', 'Vendor id, vnd_...'));
const notes = { notes: fromAI('notes', 'Notes to set') };

/** The writes, which no example offers: tool name (the node's name) → the node's parameters. */
const WRITES: Record<string, Record<string, unknown>> = {
	create_receivable: operation('receivable.create', {
		invoiceNumber: fromAI('invoice_number', 'Invoice number, unique per invoice'),
		amount: fromAI('amount', 'Amount in USD, greater than 0', 'number'),
		additionalFields: { customerEmail: fromAI('customer_email', 'Customer email address') },
	}),
	update_receivable: operation('receivable.update', { receivableId, updateFields: notes }),
	send_receivable: operation('receivable.send', { receivableId }),
	create_payable: operation('payable.create', {
		invoiceNumber: fromAI('invoice_number', 'The vendor invoice number'),
		amount: fromAI('amount', 'Amount, greater than 0', 'number'),
		vendorId,
		additionalFields: {},
	}),
	update_payable: operation('payable.update', {
		payableId: fromAI('payable_id', 'Payable id, pay_...'),
		updateFields: notes,
	}),
	create_vendor: operation('vendor.create', {
		name: fromAI('name', 'Vendor name'),
		paymentMethod: 'crypto',
		additionalFields: {
			walletAddress: fromAI('wallet_address', 'EVM wallet address, 0x and 40 hex digits'),
			walletChain: 'base',
		},
	}),
	update_vendor: operation('vendor.update', {
		vendorId,
		updateFields: { email: fromAI('email', 'The new email address') },
	}),
	update_webhook_endpoint: operation('webhookEndpoint.update', {
		webhookEndpointId: fromAI('endpoint_id', 'Webhook endpoint id, ep_...'),
		updateFields: { description: fromAI('description', 'The new description') },
	}),
};

const BALANCE = operation('treasury.getBalance');
/** Tools on other credentials: name → [parameters, credential]. */
const OTHER_KEYS: Record<string, [Record<string, unknown>, { id: string; name: string }]> = {
	get_balance_revoked_key: [BALANCE, REVOKED_CREDENTIAL],
	get_balance_expired_key: [BALANCE, EXPIRED_CREDENTIAL],
	list_vendors_rate_limited: [
		operation('vendor.getAll', {
			returnAll: true,
			filters: {},
			options: {
				rateLimitWaitSeconds: fromAI('max_wait_seconds', 'Seconds to wait at most', 'number'),
			},
		}),
		LIMITED_CREDENTIAL,
	],
};

const toolNode = (name: string) => {
	const [parameters, credential] = OTHER_KEYS[name] ?? [WRITES[name], SANDBOX_CREDENTIAL];
	return node(name, TOOL, parameters, { credentials: { businessFinanceApi: credential } });
};

/** The tool Output choice (descriptions/tool.ts) on the examples' list_vendors: name → choice. */
export const OUTPUT_CHOICES: Record<string, Record<string, string>> = {
	list_vendors_raw: { output: 'raw' },
	list_vendors_selected: { output: 'selected', outputFields: 'name, bank_name, email' },
};

/** `workflow` with a copy of its list_vendors per Output choice, connected as list_vendors is. */
function withOutputChoices(workflow: WorkflowJson): WorkflowJson {
	const listVendors = nodeNamed(workflow, 'list_vendors');
	for (const [name, choice] of Object.entries(OUTPUT_CHOICES)) {
		const copy = JSON.parse(JSON.stringify(listVendors));
		Object.assign(copy, { name, id: `${listVendors.id}-${name}` });
		delete copy.parameters.toolDescription;
		Object.assign(copy.parameters, choice);
		workflow.nodes.push(copy);
		workflow.connections[name] = workflow.connections.list_vendors;
	}
	return workflow;
}

/** `workflow` without the nodes `drop`, and with the tools `add` connected to `to`. */
function withTools(workflow: WorkflowJson, to: string, drop: string[], add: string[]) {
	workflow.nodes = workflow.nodes.filter((n) => !drop.includes(n.name)).concat(add.map(toolNode));
	for (const name of drop) delete workflow.connections[name];
	for (const name of add) {
		workflow.connections[name] = { ai_tool: [[{ node: to, type: 'ai_tool', index: 0 }]] };
	}
	return workflow;
}

export const TOOLS_FILE = '06-finance-tools-over-mcp.json';

/**
 * Example 06 on its own path without the bearer token, its propose_payable (tested as shipped)
 * left out: its reads, the writes, and the tools on other keys.
 */
export function mcpWorkflow(): WorkflowJson {
	const copy = exampleCopy(TOOLS_FILE, MCP_WORKFLOW_ID, {});
	copy.name = 'e2e: Business Finance tools over MCP';
	const trigger = nodeNamed(copy, 'MCP Server Trigger');
	Object.assign(trigger, { parameters: { path: MCP_PATH }, webhookId: MCP_WEBHOOK_ID });
	delete trigger.credentials;
	const add = [...Object.keys(WRITES), ...Object.keys(OTHER_KEYS)];
	return withOutputChoices(withTools(copy, trigger.name, ['propose_payable'], add));
}

export const READS_WORKFLOW_ID = 'bfE2eMcpReads001';

/** `reads` (tool → arguments) as action nodes, `$fromAI` filled in, to compare answers with. */
export function readsWorkflow(reads: Record<string, Record<string, unknown>>): WorkflowJson {
	const tools = mcpWorkflow();
	const actions = Object.entries(reads).map(([name, args]) => {
		const fill = (_key: string, value: unknown) => {
			const input = typeof value === 'string' && /\$fromAI\('([^']+)'/.exec(value)?.[1];
			return input ? args[input] : value;
		};
		const parameters = JSON.parse(JSON.stringify(nodeNamed(tools, name).parameters), fill);
		return action(name, parameters, { executeOnce: true });
	});
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
	const connected = () => connectMcp(url, headers).catch(() => undefined);
	return await n8n.waitFor('the MCP endpoint to answer', connected);
}

export const AGENT = 'AI Agent';
/** Example 07's reviewed create: its tool and the approval path it runs in the same workflow. */
const REVIEW = [
	'create_payable',
	'When the agent proposes a payable',
	'Look up the payee',
	'Ask for approval',
	'Approved?',
	'Create payable',
	'Declined',
];

/** Example 07 without the person's review (n8n 2.x only), at `agentVersion`. */
export function agentWorkflow(
	id: string,
	agentVersion: number,
	credential: { id: string; name: string },
): WorkflowJson {
	const prompt = 'Bill Globex 250.50 USD for invoice INV-AGENT-1, then check the balance.';
	const copy = example07Copy(id, prompt);
	copy.name = `e2e: Business Finance tools in an AI Agent ${agentVersion}`;
	nodeNamed(copy, AGENT).typeVersion = agentVersion;
	nodeNamed(copy, 'OpenAI Chat Model').credentials.openAiApi = credential;
	const add = ['create_receivable', 'get_balance_revoked_key', 'list_vendors_rate_limited'];
	return withOutputChoices(withTools(copy, AGENT, REVIEW, add));
}

/** Example 07 with a Manual Trigger of the same name (the connections hold) and a fixed prompt. */
export function example07Copy(
	id = 'bfE2eExample07Mn',
	prompt = 'Pay Acme Office Supplies 120.50 for invoice BILL-EXAMPLE-07.',
): WorkflowJson & { id: string } {
	const copy = exampleCopy('07-finance-agent.json', id, {});
	copy.name = `${copy.name} (manual start)`;
	const trigger = nodeNamed(copy, 'When chat message received');
	Object.assign(trigger, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
	delete trigger.webhookId;
	Object.assign(nodeNamed(copy, AGENT).parameters, { promptType: 'define', text: prompt });
	return copy;
}
