/**
 * Examples 06 and 06b as imported (examples/README.md), driven by the official MCP client in a
 * real n8n against the sandbox: the read tools behind the MCP Server Trigger's bearer token, and a
 * payable an agent proposes, a person approves or rejects on n8n's form, and only an approved one
 * created. The approval message goes to a local receiver in place of the Slack webhook.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MCP_BEARER_CREDENTIAL, loadExamples, type WorkflowJson } from '../../scripts/n8n';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { bodyOf, scriptedServer, type ScriptedServer } from '../helpers/scripted-server';
import { startN8nWithPackage, type PackageInN8n } from './environment';
import { connectMcp, connectMcpWhenReady } from './mcp-workflow';
import { nodeNamed } from './workflows';

const TOOLS_FILE = '06-finance-tools-over-mcp.json';
const APPROVAL_FILE = '06b-create-payable-after-approval.json';
const READS = [
	'list_vendors',
	'get_vendor',
	'get_balance',
	'get_transactions',
	'get_deposit_instructions',
	'get_webhook_endpoint',
];

let sandbox: RunningSandbox;
let environment: PackageInN8n;
let receiver: ScriptedServer;
/** The texts the approval step posted, in order. */
const messages: string[] = [];
const token = randomBytes(24).toString('hex');
let mcpUrl: URL;
let approvalId: string;

function example(file: string): WorkflowJson {
	return loadExamples().find((e) => e.file === file)!.workflow;
}

/** A local stand-in for the Slack incoming webhook: keeps each posted `text`. */
async function startReceiver(): Promise<string> {
	receiver = await scriptedServer((req, res) => {
		void bodyOf(req).then((body) => {
			messages.push(JSON.parse(body.toString()).text);
			res.end('ok');
		});
	});
	return `${receiver.baseUrl}/slack`;
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo' });
	const approval = example(APPROVAL_FILE);
	approvalId = approval.id!;
	nodeNamed(approval, 'Ask for approval').parameters.url = await startReceiver();
	environment = await startN8nWithPackage({
		credentials: [
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
			{ ...MCP_BEARER_CREDENTIAL, data: { token } },
		],
		workflows: [example(TOOLS_FILE), approval],
	});
	// n8n 2.x runs a sub-workflow for a production caller only when it is published (active).
	if (environment.runtime.major >= 2) await environment.n8n.activate(approvalId);
	await environment.n8n.activate(example(TOOLS_FILE).id!);
	mcpUrl = new URL(`${environment.n8n.baseUrl}/mcp/business-finance`);
}, 300_000);

afterAll(async () => {
	await agent?.close();
	await environment?.stop();
	await sandbox?.close();
	await receiver?.close();
});

let agent: Client;
const callTool = async (name: string, args: Record<string, unknown> = {}) => {
	const result: any = await agent.callTool({ name, arguments: args });
	return {
		isError: result.isError === true,
		text: result.content.map((c: any) => c.text).join(''),
	};
};

it('offers the six reads and propose_payable to the token; a read answers', async () => {
	agent = await connectMcpWhenReady(environment.n8n, mcpUrl, { authorization: `Bearer ${token}` });
	const { tools } = await agent.listTools();
	expect(tools.map((t) => t.name).sort()).toEqual([...READS, 'propose_payable'].sort());
	const listed = await callTool('list_vendors', { limit: 5, search: 'acme' });
	expect(listed.isError).toBe(false);
	expect(JSON.parse(listed.text)).toEqual([
		expect.objectContaining({ name: 'Acme Office Supplies' }),
	]);
});

it('refuses a client without the bearer token, or with another one (403)', async () => {
	// Once the endpoint answers the token, a refusal is the bearer check's, not a missing route.
	const ready = await connectMcpWhenReady(environment.n8n, mcpUrl, {
		authorization: `Bearer ${token}`,
	});
	await ready.close();
	await expect(connectMcp(mcpUrl)).rejects.toMatchObject({ code: 403 });
	const wrong = { authorization: 'Bearer not-the-token' };
	await expect(connectMcp(mcpUrl, wrong)).rejects.toMatchObject({ code: 403 });
});

/** Proposes a payable; resolves with the approval form's address the person was sent. */
async function propose(
	invoice: string,
	vendorId: string,
): Promise<{ answer: string; form: string }> {
	const before = messages.length;
	const { text } = await callTool('propose_payable', {
		invoice_number: invoice,
		amount: 120.5,
		vendor_id: vendorId,
	});
	const message = await environment.n8n.waitFor(
		'the approval message',
		async () => messages[before],
	);
	expect(message).toMatch(new RegExp(`120\\.5 to Acme Office Supplies .* invoice ${invoice}`));
	return { answer: text, form: /(http\S+)$/.exec(message)![1] };
}

async function decide(form: string, decision: 'Approve' | 'Reject'): Promise<void> {
	const body = new FormData();
	body.set('field-0', decision);
	const response = await fetch(form, { method: 'POST', body });
	expect(response.status).toBe(200);
}

async function payablesCreated(): Promise<any[]> {
	const requests = await sandbox.admin.getRequests();
	return requests.filter((r: any) => r.method === 'POST' && r.path === '/v1/payables');
}

async function finishedApprovals(count: number): Promise<any[]> {
	const runs = await environment.n8n.waitForExecutions(approvalId, count - 1, 60_000);
	return runs.filter((r) => r.status === 'success');
}

it('propose_payable: a person is asked, and only an approved payable is created', async () => {
	const acme = await vendorNamed('Acme Office Supplies');
	await sandbox.admin.clearRequests();
	const approved = await propose('BILL-MCP-APPROVE', acme);
	// What the agent is told: n8n 2.x's own text for a paused sub-workflow; on 1.x, the example's.
	expect(approved.answer).toMatch(
		environment.runtime.major >= 2 ? /Sub-workflow is paused/ : /Waiting for a person to approve/,
	);
	expect(await payablesCreated()).toEqual([]);
	await decide(approved.form, 'Approve');
	await finishedApprovals(1);
	const created = await payablesCreated();
	expect(created).toHaveLength(1);
	expect(created[0].body).toMatchObject({
		invoice_number: 'BILL-MCP-APPROVE',
		amount: 120.5,
		vendor_id: acme,
		notes: expect.stringMatching(/approved in n8n execution \d+/),
	});

	const rejected = await propose('BILL-MCP-REJECT', acme);
	if (environment.runtime.major >= 2) {
		// The form's address carries a token; the execution's number alone does not open it.
		const unsigned = rejected.form.replace(/\?.*$/, '');
		const guessed = new FormData();
		guessed.set('field-0', 'Approve');
		expect((await fetch(unsigned, { method: 'POST', body: guessed })).status).not.toBe(200);
	} else {
		// On 1.x it is the execution's number alone (examples/README.md says what to do).
		expect(rejected.form).toMatch(/\/form-waiting\/\d+$/);
	}
	await decide(rejected.form, 'Reject');
	await finishedApprovals(2);
	expect(await payablesCreated()).toHaveLength(1);
});

async function vendorNamed(name: string): Promise<string> {
	const found = await fetch(`${sandbox.baseUrl}/v1/vendors?search=${encodeURIComponent(name)}`, {
		headers: { authorization: `Bearer ${sandbox.apiKey}` },
	});
	return ((await found.json()) as any).data[0].id;
}
