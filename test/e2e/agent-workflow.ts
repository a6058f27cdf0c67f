/**
 * The AI Agent suite's workflow (test/e2e/agent.e2e.test.ts), as a user builds it in the editor:
 * a Manual Trigger, n8n's AI Agent with a prompt of its own, an OpenAI Chat Model whose
 * credential's Base URL points at the scripted model (test/helpers/scripted-model.ts), and
 * Business Finance Tool nodes whose inputs the model fills in through `$fromAI`; one tool runs on
 * a revoked key.
 */
import type { WorkflowJson } from '../../scripts/n8n';
import { REVOKED_CREDENTIAL, TOOLS, fromAI } from './mcp-workflow';
import { SANDBOX_CREDENTIAL, manual, node } from './workflows';

export const AGENT_WORKFLOW_ID = 'bfE2eAgentTools1';
export const OPENAI_CREDENTIAL = {
	id: 'bfAgentOpenAiKey',
	name: 'Scripted model',
	type: 'openAiApi',
};
export const AGENT = 'AI Agent';
export const PROMPT = 'Bill Globex 250.50 USD for invoice INV-AGENT-1, then check the balance.';

const TOOL = 'n8n-nodes-business-finance.businessFinanceTool';

/** Tool name (the node's name, as the model sees it) → the node's parameters. */
export const AGENT_TOOLS: Record<string, Record<string, unknown>> = {
	find_vendors: {
		resource: 'vendor',
		operation: 'getAll',
		returnAll: false,
		limit: 10,
		filters: { search: fromAI('search', 'Text in the vendor name or email') },
	},
	get_balance: TOOLS.get_balance,
	get_transactions: TOOLS.get_transactions,
	create_invoice: TOOLS.create_receivable,
};
/** The tool on the revoked key: a service error on every call. */
export const REVOKED_TOOL = 'get_balance_revoked_key';

/**
 * The workflow with the AI Agent at `agentVersion` (each line's default: 3.1 on 2.x, 3 on 1.x)
 * and the Chat Model 1.3 on Chat Completions (its Responses API option off), the model by id.
 */
export function agentWorkflow(agentVersion: number, model: string): WorkflowJson {
	const agent = node(AGENT, '@n8n/n8n-nodes-langchain.agent', agentParameters(), {
		typeVersion: agentVersion,
	});
	const chatModel = node(
		'OpenAI Chat Model',
		'@n8n/n8n-nodes-langchain.lmChatOpenAi',
		{
			model: { __rl: true, mode: 'id', value: model },
			responsesApiEnabled: false,
			options: {},
		},
		{ typeVersion: 1.3, credentials: { openAiApi: credentialRef(OPENAI_CREDENTIAL) } },
	);
	const tools = [
		...Object.entries(AGENT_TOOLS).map(([name, parameters]) => toolNode(name, parameters)),
		toolNode(REVOKED_TOOL, TOOLS.get_balance, REVOKED_CREDENTIAL),
	];
	const start = manual();
	start.position = [0, 0];
	agent.position = [300, 0];
	chatModel.position = [200, 250];
	tools.forEach((tool, i) => (tool.position = [400 + i * 150, 250]));
	const connections: Record<string, unknown> = {
		[start.name]: { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
		[chatModel.name]: {
			ai_languageModel: [[{ node: AGENT, type: 'ai_languageModel', index: 0 }]],
		},
	};
	for (const tool of tools) {
		connections[tool.name] = { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] };
	}
	return {
		id: AGENT_WORKFLOW_ID,
		name: 'e2e: Business Finance tools in an AI Agent',
		nodes: [start, agent, chatModel, ...tools],
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** The prompt typed into the agent ("Define below"): a Manual Trigger brings no chat input. */
const agentParameters = () => ({ promptType: 'define', text: PROMPT, options: {} });

const credentialRef = ({ id, name }: { id: string; name: string }) => ({ id, name });

const toolNode = (name: string, parameters: object, credential = SANDBOX_CREDENTIAL) =>
	node(name, TOOL, parameters, { credentials: { businessFinanceApi: credentialRef(credential) } });
