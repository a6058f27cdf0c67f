/**
 * The Business Finance Tool as agents meet it (workflows: tools-workflows.ts). The AI Agent's
 * OpenAI Chat Model points at a scripted model (test/helpers/scripted-model.ts); the MCP tests
 * drive n8n's MCP Server Trigger with the official MCP client.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import {
	APPROVERS_CREDENTIAL,
	MCP_BEARER_CREDENTIAL,
	connectNamedTable,
	dataTableRows,
	importWorkflows,
	loadExamples,
	requireRuntime,
	type DataTable,
	type WorkflowJson,
} from '../../scripts/n8n';
import { createHttpClient, type HttpClient } from '../../scripts/http-client';
import {
	defaultToolDescription,
	scriptedModel,
	toolResults,
	type ModelRequest,
	type ScriptedModel,
	type Step,
} from '../helpers/scripted-model';
import { RECEIVABLE_MAY_EXIST_FOR_MODEL, RETRY_ADVICE } from '../helpers/outcomes';
import { expectNowhereIn } from '../helpers/secrets';
import { bodyOf, scriptedServer, type ScriptedServer } from '../helpers/scripted-server';
import { bodyOf as mailText, linksOf, smtpServer, type SmtpServer } from '../helpers/smtp-server';
import { startN8nWithPackage, type PackageInN8n } from './environment';
import { output, runManually } from './service';
import {
	AGENT,
	EXPIRED_CREDENTIAL,
	LIMITED_CREDENTIAL,
	MCP_PATH,
	MCP_WORKFLOW_ID,
	OUTPUT_CHOICES,
	READS_WORKFLOW_ID,
	REVOKED_CREDENTIAL,
	TOOLS_FILE,
	agentWorkflow,
	connectMcp,
	connectMcpWhenReady,
	example07Copy,
	mcpWorkflow,
	readsWorkflow,
} from './tools-workflows';
import { SANDBOX_CREDENTIAL, nodeNamed } from './workflows';

/** Example 07 (a tool that waits for a person) and AI Agent 2.2 are tested on 2.x only. */
const TWO_X = requireRuntime().major >= 2;

let sandbox: RunningSandbox;
/** A sandbox with 250 vendors and one request a minute (the MCP tests narrow it to 3 s). */
let limited: RunningSandbox;
let environment: PackageInN8n;
let api: HttpClient;
let mailbox: SmtpServer;
let client: Client;
let agent: Client;
let endpointId: string;
let acmeId: string;
const ENDPOINT_URL = 'https://hooks.example/bf-mcp';
const exampleUrl = () => new URL(`${environment.n8n.baseUrl}/mcp/business-finance`);
const token = randomBytes(24).toString('hex');
/** 06b's credential "Approvers (Basic Auth)". */
const approver = { user: 'approver', password: randomBytes(12).toString('hex') };
let approval: WorkflowJson;
let proposals: DataTable;
/** A local stand-in for 06b's Slack incoming webhook: keeps each posted `text`. */
let receiver: ScriptedServer;
const messages: string[] = [];
const answers: string[] = [];

const openAi = ({ id, name }: { id: string; name: string }, server: ScriptedModel) => ({
	id,
	name,
	type: 'openAiApi',
	data: { apiKey: 'sk-scripted', url: server.baseUrl },
});
const MCP_WORKFLOW = mcpWorkflow();
const EXAMPLE07 = example07Copy();
const EXAMPLE07_SMTP = { id: 'bfExampleSmtp001', name: 'Approvers mailbox (SMTP)', type: 'smtp' };

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo' });
	limited = await startSandbox({ port: 0, seed: 'none', rateLimit: 1, rateWindowSeconds: 60 });
	await limited.admin.seedVendors(250);
	api = createHttpClient(`${sandbox.baseUrl}/v1`, { apiKey: sandbox.apiKey });
	const endpoint = await api.request('POST', '/webhooks', {
		body: { url: ENDPOINT_URL, description: 'for the agent', filter_types: [], disabled: false },
	});
	endpointId = endpoint.body.data.id;
	acmeId = (await api.request('GET', '/vendors', { query: { search: 'acme' } })).body.data[0].id;
	for (const [run, { script }] of Object.entries(AGENT_RUNS))
		models[run as AgentRun] = await scriptedModel(script);
	mailbox = await smtpServer();
	const { host, port } = mailbox;
	const smtp = { host, port, secure: false, disableStartTls: true, user: '', password: '' };
	environment = await startN8nWithPackage({
		credentials: [
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
			{ ...REVOKED_CREDENTIAL, apiKey: sandbox.keys.revoked, baseUrl: sandbox.baseUrl },
			{ ...EXPIRED_CREDENTIAL, apiKey: sandbox.keys.expired, baseUrl: sandbox.baseUrl },
			{ ...LIMITED_CREDENTIAL, apiKey: limited.apiKey, baseUrl: limited.baseUrl },
			{ ...MCP_BEARER_CREDENTIAL, data: { token } },
			{ ...APPROVERS_CREDENTIAL, data: approver },
			...Object.entries(AGENT_RUNS).map(([run, r]) => openAi(r.model, models[run as AgentRun])),
			{ ...EXAMPLE07_SMTP, data: smtp },
		],
		workflows: [
			...Object.values(AGENT_RUNS).flatMap((run) => run.workflow ?? []),
			MCP_WORKFLOW,
			readsWorkflow(READS()),
			example(TOOLS_FILE),
		],
	});
}, 300_000);

afterAll(async () => {
	await client?.close();
	await agent?.close();
	await environment?.stop();
	const servers = [sandbox, limited, receiver, ...Object.values(models), mailbox];
	await Promise.all(servers.map((server) => server?.close()));
});

function expectNoKeyIn(texts: string[]): void {
	const keys = [sandbox.apiKey, sandbox.keys.revoked, sandbox.keys.expired, limited.apiKey];
	for (const text of texts) expectNowhereIn(text, ...keys);
}

const TOOL_TYPE = 'n8n-nodes-business-finance.businessFinanceTool';
const describedTools = (workflow: WorkflowJson) =>
	workflow.nodes
		.filter((n) => n.type === TOOL_TYPE)
		.map(({ name, parameters: p }) => [
			name,
			p.toolDescription ?? defaultToolDescription(p.resource, p.operation),
		]);

/** A tool's `$fromAI` inputs with their types, `?` after an optional one's (it has a default). */
const INPUTS: Record<string, Record<string, string>> = {
	create_receivable: { invoice_number: 'string', amount: 'number', customer_email: 'string' },
	create_payable: { invoice_number: 'string', amount: 'number', vendor_id: 'string' },
	list_vendors: { limit: 'number?', search: 'string?' },
	get_balance: {},
	get_transactions: { from: 'string?', limit: 'number?', to: 'string?', type: 'string?' },
	update_webhook_endpoint: { endpoint_id: 'string', description: 'string' },
};

function expectInputs(name: string, { properties = {}, required = [] }: any): void {
	const types = Object.entries(properties).map(([key, { type }]: [string, any]) => [
		key,
		required.includes(key) ? type : `${type}?`,
	]);
	expect(Object.fromEntries(types)).toEqual(INPUTS[name]);
}

function parsed(text: string | undefined): any {
	try {
		return JSON.parse(text ?? '');
	} catch {
		return undefined;
	}
}

/** The record a tool result holds (its answer is a JSON list of records), or undefined. */
const firstRecord = (result: string | undefined) => parsed(result)?.[0];

const payablesCreated = async () =>
	(await sandbox.admin.getRequests()).filter(
		(r) => r.method === 'POST' && r.path === '/v1/payables',
	);
const expectOnePayableCreated = async (body: object) =>
	expect(await payablesCreated()).toEqual([
		expect.objectContaining({ body: expect.objectContaining(body) }),
	]);

/** Execution `id` with its data, once it has ended (a waiting one has a stoppedAt too). */
async function ended(id: string, timeoutMs: number): Promise<any> {
	const { n8n } = environment;
	const path = `/executions/${id}`;
	const done = async () =>
		['success', 'error', 'crashed', 'canceled'].includes((await n8n.api('GET', path))?.status);
	await n8n.waitFor(`execution ${id} to finish`, done, timeoutMs);
	return await n8n.api('GET', `${path}?includeData=true`);
}

async function call(name: string, args: Record<string, unknown> = {}, via = client) {
	const result: any = await via.callTool({ name, arguments: args });
	const text = (result.content ?? []).map((c: any) => c.text ?? '').join('');
	answers.push(text);
	return { isError: result.isError === true, text, json: parsed(text) };
}

async function callOk(name: string, args: Record<string, unknown>): Promise<any> {
	const answer = await call(name, args);
	expect(answer).toMatchObject({ isError: false, json: [expect.anything()] });
	return answer.json[0];
}

const example = (file: string): WorkflowJson =>
	loadExamples().find((e) => e.file === file)!.workflow;

/** What an agent needs to act on a record: kept in every answer that has it. */
const NEEDED = 'id name invoice_number amount currency status type due_date balances url';
/** ...and at least one of its dates. */
const DATES = ['updated_at', 'created_at'];

const READS = () => ({
	list_vendors: { limit: 2, search: 'acme' },
	get_vendor: { vendor_id: acmeId },
	get_balance: {},
	get_deposit_instructions: {},
	get_transactions: { limit: 3 },
	get_webhook_endpoint: { endpoint_id: endpointId },
});

const BAD = { invoice_number: 'INV-AGENT-BAD', amount: 0, customer_email: 'not-an-email' };
const GOOD = { invoice_number: 'INV-AGENT-1', amount: 250.5, customer_email: 'ap@globex.example' };

/** What the model does, one turn per step: reads, a bad invoice, a good one, the revoked key. */
const SCRIPT: Step[] = [
	{
		toolCalls: [
			{ name: 'list_vendors', arguments: { search: 'acme', limit: 5 } },
			...Object.keys(OUTPUT_CHOICES).map((name) => ({
				name,
				arguments: { search: 'acme', limit: 5 },
			})),
			{ name: 'get_balance', arguments: {} },
			{ name: 'get_transactions', arguments: { limit: 3 } },
		],
	},
	{ toolCalls: [{ name: 'create_receivable', arguments: BAD }] },
	{ toolCalls: [{ name: 'create_receivable', arguments: GOOD }] },
	{
		toolCalls: [
			{ name: 'get_balance_revoked_key', arguments: {} },
			{ name: 'list_vendors_rate_limited', arguments: { max_wait_seconds: 1 } },
		],
	},
	(request) => {
		const created = toolResults(request).find(
			(t) => t.arguments?.invoice_number === GOOD.invoice_number,
		);
		return {
			answer: `Invoice ${GOOD.invoice_number} created as ${firstRecord(created?.result)?.id}.`,
		};
	},
];

/** A vendor id the review model is steered to (text it read), instead of the one it looked up. */
let steeredTo: string | undefined;

/** Example 07's model: find the vendor, create the payable, then say what it was told. */
const REVIEW_SCRIPT: Step[] = [
	{ toolCalls: [{ name: 'list_vendors', arguments: { search: 'acme', limit: 5 } }] },
	(request) => {
		const vendor = firstRecord(toolResults(request).find((t) => t.name === 'list_vendors')?.result);
		const vendor_id = steeredTo ?? vendor?.id;
		const payable = { invoice_number: 'BILL-EXAMPLE-07', amount: 120.5, vendor_id };
		return { toolCalls: [{ name: 'create_payable', arguments: payable }] };
	},
	(request) => ({ answer: `Told: ${toolResults(request).at(-1)?.result}` }),
];

/** Two creates the service processes but whose answers are lost: a 503, then a dropped connection. */
const LOST = ['INV-AGENT-503', 'INV-AGENT-RESET'];
const LOST_SCRIPT: Step[] = [
	...LOST.map((invoice_number) => ({
		toolCalls: [{ name: 'create_receivable', arguments: { ...GOOD, invoice_number } }],
	})),
	{ answer: 'Both invoices may exist: I will not create them again before they are checked.' },
];

/** Faults for the next POSTs of receivables: each is processed, then its answer is lost so. */
async function loseAnswers(...kinds: Array<'status503' | 'reset'>): Promise<void> {
	for (const kind of kinds) {
		const where = { method: 'POST', pathPrefix: '/v1/receivables' };
		await sandbox.admin.addFault({ kind, count: 1, ...where, afterProcessing: true });
	}
}

const receivablesCreated = async (invoice: string) =>
	(await sandbox.admin.getEvents()).filter(
		(e) => e.type === 'receivable.created' && (e.data as any).invoice_number === invoice,
	);

/** AI Agent 2.2 (a thrown tool error once reached its model as an empty message): a refusal. */
const BAD_V2 = { ...BAD, invoice_number: 'INV-AGENT22-BAD' };
const V2_SCRIPT: Step[] = [
	{ toolCalls: [{ name: 'create_receivable', arguments: BAD_V2 }] },
	{ answer: 'Could not create the invoice.' },
];

/**
 * The AI Agent runs, one row each over the n8n lines: its workflow (each line's default agent,
 * 3.1 on 2.x and 3 on 1.x; 2.2 and example 07 on 2.x only), its model's credential, its script.
 */
const DEFAULT_AGENT = TWO_X ? 3.1 : 3;
const AGENT_RUNS = {
	tools: row('bfE2eAgentTools1', DEFAULT_AGENT, 'bfAgentOpenAiKey', SCRIPT),
	lost: row('bfE2eAgentLost01', DEFAULT_AGENT, 'bfAgentOpenAiLst', LOST_SCRIPT),
	v22: row('bfE2eAgentTool22', TWO_X && 2.2, 'bfAgentOpenAi22', V2_SCRIPT),
	review: row(EXAMPLE07.id, TWO_X && EXAMPLE07, 'bfExampleOpenAi1', REVIEW_SCRIPT),
};
type AgentRun = keyof typeof AGENT_RUNS;
const models = {} as Record<AgentRun, ScriptedModel>;
const AGENT_WORKFLOW = AGENT_RUNS.tools.workflow!;

/** Every model's credential has example 07's name ("OpenAI account"): its workflow names it so. */
function row(id: string, agent: number | WorkflowJson | false, modelId: string, script: Step[]) {
	const model = { id: modelId, name: 'OpenAI account' };
	const workflow = typeof agent === 'number' ? agentWorkflow(id, agent, model) : agent || undefined;
	return { id, model, script, workflow };
}

let execution: any;
let received: any[];

/** The model's last request: it holds every tool result of the run. */
const last = (): ModelRequest => models.tools.requests[models.tools.requests.length - 1];

function told(tool: string, match: (args: any) => boolean = () => true): string | undefined {
	return toolResults(last()).find((t) => t.name === tool && match(t.arguments ?? {}))?.result;
}

function transcript(): string {
	const calls = models.tools.requests.length ? toolResults(last()) : [];
	const lines = calls.map((t) => `${t.name} ${JSON.stringify(t.arguments)}\n  -> ${t.result}`);
	const { error } = execution?.data?.resultData ?? {};
	const end = error?.message ?? JSON.stringify(output(execution, AGENT));
	return [...lines, `execution ${execution?.status}: ${end}`].join('\n');
}

const created = () =>
	firstRecord(told('create_receivable', (a) => a.invoice_number === GOOD.invoice_number));

function expectRefusal(text: string | undefined): void {
	expect(text).toMatch(/'Amount' must be at least 0\.01/);
	expect(text).toMatch(/'Customer Email' must be an email address/);
	expect(text).toMatch(/nothing was sent/i);
}

describe('in n8n’s AI Agent', () => {
	beforeAll(async () => {
		await sandbox.admin.clearRequests();
		execution = await runManually(environment.n8n, AGENT_RUNS.tools.id, 180_000);
		received = await sandbox.admin.getRequests();
		console.log(transcript());
	}, 200_000);

	describe('what the model is offered', () => {
		it('one tool per tool node, by its node name, with its own description or its operation’s default', () => {
			const offered = models.tools.requests[0].tools.map((t) => [t.name, t.description]);
			expect(offered.sort()).toEqual(describedTools(AGENT_WORKFLOW).sort());
		});

		it.each(['list_vendors', 'get_balance', 'get_transactions', 'create_receivable'])(
			'%s: its $fromAI inputs, typed and required',
			(name) =>
				expectInputs(name, models.tools.requests[0].tools.find((t) => t.name === name)?.parameters),
		);

		it('the same tools on every turn', () => {
			const names = (request: ModelRequest) => request.tools.map((t) => t.name).sort();
			for (const request of models.tools.requests)
				expect(names(request)).toEqual(names(models.tools.requests[0]));
		});
	});

	describe('what each tool result tells the model', () => {
		it('reads: the service’s records', async () => {
			const balance = (await api.get('/treasury/balance')).body.data;
			const [acme] = JSON.parse(told('list_vendors')!);
			expect(acme).toMatchObject({ name: 'Acme Office Supplies', id: expect.any(String) });
			expect(JSON.parse(told('get_balance')!)).toEqual([balance]);
			expect(JSON.parse(told('get_transactions')!)).toHaveLength(3);
		});

		it('the Output choice: Raw gives every field, Selected Fields the id and those named, Simplified no bank details', async () => {
			const [vendor] = (await api.get('/vendors', { query: { search: 'acme' } })).body.data;
			const [raw] = JSON.parse(told('list_vendors_raw')!);
			expect(raw).toEqual(expect.objectContaining(vendor));
			expect(Object.keys(raw)).toEqual(expect.arrayContaining(['bank_name', 'wallet_address']));
			const [selected] = JSON.parse(told('list_vendors_selected')!);
			const named = ['id', 'name', 'bank_name', 'email'].filter((f) => vendor[f] != null);
			expect(Object.keys(selected)).toEqual(named);
			const [simplified] = JSON.parse(told('list_vendors')!);
			expect(Object.keys(simplified)).not.toContain('bank_name');
		});

		it('a refused input: each refused field and its reason, that nothing was sent, and nothing reaches the service', () => {
			const bad = received.filter((r) => r.body?.invoice_number === BAD.invoice_number);
			expect(bad).toEqual([]);
			expectRefusal(told('create_receivable', (a) => a.invoice_number === BAD.invoice_number));
		});

		it('a valid create after the refusal: exactly one receivable, and the model is told its id', () => {
			const posts = received.filter((r) => r.method === 'POST' && r.path === '/v1/receivables');
			expect(posts).toEqual([
				expect.objectContaining({ body: expect.objectContaining(GOOD), status: 201 }),
			]);
			expect(created()).toMatchObject({ ...GOOD, id: expect.any(String) });
		});

		it('a service error (revoked key): the service’s code and what to do', () => {
			const error = told('get_balance_revoked_key');
			expect(error).toEqual(expect.stringMatching(/INVALID_API_KEY/));
			expect(error).toEqual(expect.stringMatching(/Create a new key in the dashboard/));
		});

		it('a spent rate-limit budget: why the listing stopped, and which option gives it room', () => {
			const stopped = told('list_vendors_rate_limited');
			expect(stopped).toEqual(expect.stringMatching(/RATE_LIMITED: .*wait budget 1s/));
			expect(stopped).toEqual(expect.stringMatching(/Max Wait for Rate Limits/));
		});
	});

	describe('the run', () => {
		it('does not fail: the execution succeeds with the model’s final answer', () => {
			expect(execution.status).toBe('success');
			expect(output(execution, AGENT)).toEqual([
				expect.objectContaining({
					output: `Invoice ${GOOD.invoice_number} created as ${created().id}.`,
				}),
			]);
		});

		it('the API keys are in no message to the model, plain or base64', () => {
			expect(models.tools.requests.length).toBeGreaterThan(1);
			expectNoKeyIn(models.tools.requests.map((r) => JSON.stringify(r.body)));
		});
	});
});

describe('in n8n’s AI Agent, creates the service processed but whose answers were lost', () => {
	let run: any;
	let results: ReturnType<typeof toolResults>;

	beforeAll(async () => {
		await sandbox.admin.clearRequests();
		await loseAnswers('status503', 'reset');
		run = await runManually(environment.n8n, AGENT_RUNS.lost.id, 180_000);
		await sandbox.admin.clearFaults();
		results = toolResults(models.lost.requests.at(-1)!);
		console.log(results.map((r) => `${r.arguments.invoice_number} -> ${r.result}`).join('\n'));
	}, 200_000);

	it('each create is sent once, and the service created each', async () => {
		const posts = (await sandbox.admin.getRequests()).filter(
			(r) => r.method === 'POST' && r.path === '/v1/receivables',
		);
		expect(posts.map((r) => (r.body as any).invoice_number)).toEqual(LOST);
		for (const invoice of LOST) expect(await receivablesCreated(invoice)).toHaveLength(1);
	});

	it.each(LOST)(
		'%s: the model is told the outcome is unknown, not to call again for that item and what to tell the user, with nothing that invites a second call',
		(invoice) => {
			const told = results.find((r) => r.arguments.invoice_number === invoice)?.result;
			const [answer] = parsed(told);
			expect(answer.outcome).toMatch(RECEIVABLE_MAY_EXIST_FOR_MODEL);
			expect(answer.description).toBeUndefined(); // the person's text, which names a dashboard
			expect(told).not.toMatch(RETRY_ADVICE);
		},
	);

	it('the run succeeds with the model’s answer', () => {
		expect(run.status).toBe('success');
		expect(results).toHaveLength(2);
	});
});

(TWO_X ? describe : describe.skip)('AI Agent 2.2 (n8n 2.x)', () => {
	it('a refused input reaches the model with each field, its reason and that nothing was sent; the run succeeds', async () => {
		const run = await runManually(environment.n8n, AGENT_RUNS.v22.id, 180_000);
		expectRefusal(toolResults(models.v22.requests.at(-1)!)[0]?.result);
		expect(run.status).toBe('success');
		const sent = await sandbox.admin.getRequests();
		expect(sent.filter((r: any) => r.body?.invoice_number === BAD_V2.invoice_number)).toEqual([]);
	});
});

/** A browser's User-Agent: n8n answers a link opened by a bot (Node's fetch is one) with nothing. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120';

/** Runs example 07 until it waits for the person, then opens the email's `link` as they would. */
async function reviewed(link: 'Approve' | 'Decline') {
	const { n8n } = environment;
	const [mails, requests] = [mailbox.mails.length, models.review.requests.length];
	await sandbox.admin.clearRequests();
	const waiting = await runManually(n8n, EXAMPLE07.id, 180_000);
	// on a failed review the model's last request says why
	const results = models.review.requests.slice(requests).flatMap((r) => toolResults(r));
	expect(waiting.status === 'waiting' ? 'waiting' : JSON.stringify(results)).toBe('waiting');
	const mail = await n8n.waitFor('the review email', async () => mailbox.mails[mails]);
	const createdBeforeDecision = await payablesCreated();
	const opened = await fetch(linksOf(mail)[link], { headers: { 'user-agent': BROWSER } });
	expect(opened.status).toBe(200);
	const execution = await ended(waiting.id, 120_000);
	const last = models.review.requests.slice(requests).at(-1);
	const told = last && toolResults(last).find((t) => t.name === 'create_payable')?.result;
	return { mail, createdBeforeDecision, created: await payablesCreated(), execution, told };
}

(TWO_X ? describe : describe.skip)(
	'example 07: a person reviews the agent’s create (n8n 2.x)',
	() => {
		let declined: Awaited<ReturnType<typeof reviewed>>;
		let approved: typeof declined;

		beforeAll(async () => {
			// create_payable runs this workflow's approval path, which n8n 2.x runs only published.
			await environment.n8n.activate(EXAMPLE07.id);
			declined = await reviewed('Decline');
			approved = await reviewed('Approve');
			console.log(`declined -> ${declined.told}\napproved -> ${approved.told}`);
		}, 400_000);

		it('the model is offered create_payable with the payable’s inputs', () => {
			const offered = models.review.requests[0].tools.find((t) => t.name === 'create_payable');
			const { description } = nodeNamed(EXAMPLE07, 'create_payable').parameters;
			expect(offered?.description).toBe(description);
			const inputs = offered?.parameters.properties;
			expect(Object.keys(inputs).sort()).toEqual(['amount', 'invoice_number', 'vendor_id']);
		});

		it('the person is emailed the payable’s inputs with the payee as the service listed it (name, payment method), and an Approve and a Decline link', () => {
			const vendor = firstRecord(toolResults(models.review.requests[1]).at(-1)?.result).id;
			for (const { mail } of [declined, approved]) {
				expect(mail.to).toEqual(['approver@example.com']);
				expect(Object.keys(linksOf(mail)).sort()).toEqual(['Approve', 'Decline']);
				expect(mailText(mail)).toContain(
					`create a payable: invoice BILL-EXAMPLE-07, amount 120.5 USD, to Acme Office Supplies (paid by ach; vendor ${vendor}, as the service lists it).`,
				);
			}
		});

		it('a model steered to another vendor’s id (text it read, say): the email names that vendor as the service lists it, whatever the model was asked', async () => {
			const listed = (await api.request('GET', '/vendors', { query: { search: 'northwind' } })).body
				.data;
			steeredTo = listed[0].id;
			try {
				const steered = await reviewed('Decline');
				expect(mailText(steered.mail)).toContain(
					`to Northwind Logistics (paid by ach; vendor ${steeredTo}, as the service lists it).`,
				);
				expect(mailText(steered.mail)).not.toMatch(/Acme/);
				expect(steered.created).toEqual([]);
			} finally {
				steeredTo = undefined;
			}
		}, 200_000);

		it('declined: nothing reaches the service, and the model is told the person rejected it', () => {
			expect(declined.createdBeforeDecision).toEqual([]);
			expect(declined.created).toEqual([]);
			expect(declined.told).toMatch(
				/Declined by the approver: no payable was created for invoice BILL-EXAMPLE-07\. Do not propose it again/,
			);
			expect(declined.execution.status).toBe('success');
		});

		it('approved: exactly one payable is created, and the agent answers with the id it was told', () => {
			expect(approved.createdBeforeDecision).toEqual([]);
			expect(approved.created).toEqual([
				expect.objectContaining({
					body: expect.objectContaining({ invoice_number: 'BILL-EXAMPLE-07', amount: 120.5 }),
					status: 201,
				}),
			]);
			const payable = firstRecord(approved.told);
			expect(payable).toMatchObject({ invoice_number: 'BILL-EXAMPLE-07', id: expect.any(String) });
			expect(approved.execution.status).toBe('success');
			expect(JSON.stringify(output(approved.execution, AGENT))).toContain(payable.id);
		});
	},
);

describe('over MCP', () => {
	beforeAll(async () => {
		receiver = await scriptedServer((req, res) => {
			void bodyOf(req).then((body) => {
				messages.push(JSON.parse(body.toString()).text);
				res.end('ok');
			});
		});
		approval = example('06b-create-payable-after-approval.json');
		nodeNamed(approval, 'Ask for approval').parameters.url = `${receiver.baseUrl}/slack`;
		const n8n = environment.n8n;
		// 06b as shipped names its table without picking it; `npm run dev` connects it the same way.
		await importWorkflows(environment.runtime, { userFolder: environment.userFolder, port: 0 }, [
			approval,
		]);
		const table = await connectNamedTable(n8n, approval.id!);
		if (!table) throw new Error('06b names no data table');
		expect(table).toMatchObject({ name: 'Payable proposals' });
		expect(table.columns.map((c) => c.name).sort()).toEqual([
			'invoice_number',
			'payable_id',
			'status',
			'vendor_id',
		]);
		proposals = table;
		await n8n.activate(MCP_WORKFLOW_ID);
		// n8n 2.x runs a sub-workflow for a production caller only when it is published (active).
		if (environment.runtime.major >= 2) await n8n.activate(approval.id!);
		await n8n.activate(example(TOOLS_FILE).id!);
		client = await connectMcpWhenReady(n8n, new URL(`${n8n.baseUrl}/mcp/${MCP_PATH}`));
	}, 300_000);

	describe('tools/list', () => {
		it('offers one tool per operation, and one per credential the workflow uses besides', async () => {
			const { tools } = await client.listTools();
			const nodes = MCP_WORKFLOW.nodes.filter((n) => n.type === TOOL_TYPE);
			expect(tools.map((t) => t.name).sort()).toEqual(nodes.map((n) => n.name).sort());
			// the node's 14 operations, each once on the sandbox's own key (and Output choices besides)
			const ownKey = nodes.filter(
				(n) =>
					n.credentials.businessFinanceApi.id === SANDBOX_CREDENTIAL.id &&
					!(n.name in OUTPUT_CHOICES),
			);
			const operations = ownKey.map(({ parameters: p }) => `${p.resource}.${p.operation}`);
			expect(new Set(operations).size).toBe(14);
			expect(operations).toHaveLength(14);
		});

		it('describes each tool by its operation: what it does, its inputs and their formats, its side effects', async () => {
			const { tools } = await client.listTools();
			const offered = tools.map((t) => [t.name, t.description]);
			expect(offered.sort()).toEqual(describedTools(MCP_WORKFLOW).sort());
		});

		it.each(Object.keys(INPUTS))('%s: its $fromAI inputs, typed and required', async (name) => {
			const { tools } = await client.listTools();
			expectInputs(name, tools.find((t) => t.name === name)?.inputSchema);
		});
	});

	describe('reads', () => {
		it('each read answers the records the node puts out, in fewer characters: ids, names, amounts, statuses and dates kept', async () => {
			const run = await environment.n8n.execute(READS_WORKFLOW_ID);
			// a plain run that failed (its data then read back from n8n) has no items to compare with:
			// say why, instead of a count that differs from the tool's
			const error = run.data?.data?.resultData?.error;
			expect({ code: run.code, error: error?.message }).toEqual({ code: 0, error: undefined });
			const rows: string[] = [];
			const answered: Record<string, any[]> = {};
			for (const [tool, args] of Object.entries(READS())) {
				const normal = output(run.data, tool);
				const answer = await call(tool, args);
				expect(answer.isError).toBe(false);
				expect(answer.json).toHaveLength(normal.length);
				answered[tool] = answer.json;
				const normalChars = JSON.stringify(normal).length;
				const percent = Math.round((100 * answer.text.length) / normalChars);
				rows.push(`${tool}: normal ${normalChars}, as a tool ${answer.text.length} (${percent} %)`);
				expect(answer.text.length).toBeLessThanOrEqual(normalChars);
				for (const [record, full] of (answer.json as any[]).map((r, i) => [r, normal[i]])) {
					for (const field of NEEDED.split(' ')) {
						if (full[field] !== null && full[field] !== undefined)
							expect(record[field]).toEqual(full[field]);
					}
					if (DATES.some((d) => full[d]))
						expect(DATES.some((d) => record[d] === full[d])).toBe(true);
				}
				if (tool === 'list_vendors' || tool === 'get_vendor') {
					expect(answer.text.length).toBeLessThanOrEqual(normalChars / 2);
				}
			}
			console.log(rows.join('\n'));
			expect(answered.list_vendors).toEqual([
				expect.objectContaining({ name: 'Acme Office Supplies' }),
			]);
			expect(answered.get_vendor).toEqual([expect.objectContaining({ id: acmeId })]);
			expect(answered.get_transactions).toHaveLength(3);
			expect(answered.get_webhook_endpoint).toEqual([
				expect.objectContaining({ id: endpointId, url: ENDPOINT_URL }),
			]);
			// Balance and deposit instructions come whole.
			expect(answered.get_balance).toEqual([(await api.get('/treasury/balance')).body.data]);
			const instructions = (await api.get('/treasury/deposit-instructions')).body.data;
			expect(answered.get_deposit_instructions).toEqual([instructions]);
		});
	});

	describe('the Output choice', () => {
		/** Each choice's answer to the same search, beside the node's normal output. */
		async function answersEachWay() {
			const args = READS().list_vendors;
			const normal = output(
				(await environment.n8n.execute(READS_WORKFLOW_ID)).data,
				'list_vendors',
			);
			const each = { simplified: await call('list_vendors', args) } as Record<string, any>;
			for (const name of Object.keys(OUTPUT_CHOICES)) each[name] = await call(name, args);
			return { normal, each };
		}

		it('Raw answers the node’s output whole; Selected Fields the id and the fields named, no null; Simplified (the default) today’s answer', async () => {
			const { normal, each } = await answersEachWay();
			expect(normal).toEqual([expect.objectContaining({ name: 'Acme Office Supplies' })]);
			for (const answer of Object.values(each)) expect(answer.isError).toBe(false);
			expect(each.list_vendors_raw.json).toEqual(normal);
			const picked = (v: any) =>
				Object.fromEntries(
					['id', 'name', 'bank_name', 'email'].filter((f) => v[f] != null).map((f) => [f, v[f]]),
				);
			expect(each.list_vendors_selected.json).toEqual(normal.map(picked));
			expect(Object.keys(each.list_vendors_selected.json[0])[0]).toBe('id');
			const agentFields = ['id', 'name', 'email', 'payment_method', 'updated_at'];
			const simplified = (v: any) =>
				Object.fromEntries(agentFields.filter((f) => v[f] != null).map((f) => [f, v[f]]));
			expect(each.simplified.json).toEqual(normal.map(simplified));
			const sizes = Object.entries(each).map(([way, a]) => `${way} ${a.text.length}`);
			console.log(
				`list_vendors as a tool, in characters: normal ${JSON.stringify(normal).length}, ${sizes.join(', ')}`,
			);
		});
	});

	/** Each write checked on its tool's answer: the service's answer, as an agent gets it (forAgent). */
	describe('writes', () => {
		it('vendor: create, then update its email', async () => {
			const wallet_address = '0x' + 'cd'.repeat(20);
			const { id } = await callOk('create_vendor', { name: 'MCP Vendor', wallet_address });
			const email = 'ap@mcp-vendor.example';
			const updated = await callOk('update_vendor', { vendor_id: id, email });
			expect(updated).toMatchObject({ id, name: 'MCP Vendor', email });
		});

		it('receivable: create, update its notes, send it', async () => {
			const args = { invoice_number: 'INV-MCP-1001', amount: 250.5 };
			const email = { customer_email: 'ap@globex.example' };
			const { id } = await callOk('create_receivable', { ...args, ...email });
			const notes = 'Agreed by phone';
			await callOk('update_receivable', { receivable_id: id, notes });
			const sent = await callOk('send_receivable', { receivable_id: id });
			expect(sent).toMatchObject({ ...args, ...email, id, notes, status: 'sent' });
		});

		it('payable: create for a vendor, update its notes', async () => {
			const args = { invoice_number: 'BILL-MCP-7', amount: 99, vendor_id: acmeId };
			const { id } = await callOk('create_payable', args);
			const notes = 'Checked by the agent';
			const updated = await callOk('update_payable', { payable_id: id, notes });
			expect(updated).toMatchObject({ ...args, id, notes });
		});

		it('webhook endpoint: update its description', async () => {
			const description = 'Edited over MCP';
			const args = { endpoint_id: endpointId, description };
			expect(await callOk('update_webhook_endpoint', args)).toMatchObject({ description });
		});
	});

	describe('what an agent is told when a call cannot be done', () => {
		it('a refused input names each field and its reason, and nothing is sent', async () => {
			await sandbox.admin.clearRequests();
			const refused = await call('create_receivable', {
				invoice_number: 'INV-MCP-BAD',
				amount: -5,
				customer_email: 'not-an-email',
			});
			// the tool's answer, not a failed call (router.ts errorItemJson says why)
			expect(refused.isError).toBe(false);
			expect(refused.json[0].error).toBe("Invalid parameters: 'Amount', 'Customer Email'");
			expect(refused.text).toMatch(/'Amount' must be at least 0\.01, got -5/);
			expect(refused.text).toMatch(/'Customer Email' must be an email address/);
			expect(refused.json[0].outcome).toMatch(/^Nothing was sent to the service/);
			expect(await sandbox.admin.getRequests()).toEqual([]);
		});

		it('a create whose answer is lost after the service processed it: the outcome is unknown, what to check, no advice to call again', async () => {
			await sandbox.admin.clearRequests();
			await loseAnswers('status503');
			const args = {
				invoice_number: 'INV-MCP-LOST',
				amount: 99,
				customer_email: 'ap@globex.example',
			};
			const lost = await call('create_receivable', args);
			expect(lost.isError).toBe(false);
			expect(lost.json[0]).toMatchObject({
				error: expect.stringMatching(/^SERVICE_UNAVAILABLE/),
				httpCode: '503',
			});
			expect(lost.json[0].outcome).toMatch(RECEIVABLE_MAY_EXIST_FOR_MODEL);
			expect(lost.json[0].description).toBeUndefined();
			expect(lost.text).not.toMatch(RETRY_ADVICE);
			expect(await receivablesCreated('INV-MCP-LOST')).toHaveLength(1);
			expect(await sandbox.admin.getRequests()).toHaveLength(1);
		});

		it('a search that matches nothing says so instead of an empty answer', async () => {
			const none = await call('list_vendors', { limit: 5, search: 'no-such-vendor' });
			expect(none.json).toEqual([{ message: 'No vendors matched (search "no-such-vendor").' }]);
		});

		it.each([
			['get_balance_revoked_key', /INVALID_API_KEY/],
			['get_balance_expired_key', /API_KEY_EXPIRED/],
		])('%s: the service’s code and what to do', async (name, code) => {
			const answer = await call(name);
			expect(answer.json[0]).toMatchObject({ error: expect.stringMatching(code), httpCode: '401' });
			expect(answer.json[0].outcome).toBeUndefined(); // it was sent: the service refused it
			expect(answer.text).toMatch(/Create a new key in the dashboard/);
		});

		it('a rate-limited listing stops when its wait budget is spent, and says why; with room it waits and finishes', async () => {
			await limited.admin.setRateLimit({ limit: 1, windowSeconds: 3 });
			const stopped = await call('list_vendors_rate_limited', { max_wait_seconds: 1 });
			expect(stopped.json[0].error).toMatch(/RATE_LIMITED: .*wait budget 1s/);
			expect(stopped.text).toMatch(/Max Wait for Rate Limits/);
			await new Promise((resolve) => setTimeout(resolve, 3000));
			const finished = await call('list_vendors_rate_limited', { max_wait_seconds: 30 });
			expect(finished.isError).toBe(false);
			expect(finished.json).toHaveLength(250);
		});
	});

	describe('examples 06 and 06b', () => {
		it('offer the six reads and propose_payable to the token; a read answers', async () => {
			agent = await connectMcpWhenReady(environment.n8n, exampleUrl(), {
				authorization: `Bearer ${token}`,
			});
			const { tools } = await agent.listTools();
			const reads = Object.keys(READS());
			expect(tools.map((t) => t.name).sort()).toEqual([...reads, 'propose_payable'].sort());
			const listed = await call('list_vendors', { limit: 5, search: 'acme' }, agent);
			expect(listed.isError).toBe(false);
			expect(listed.json).toEqual([expect.objectContaining({ name: 'Acme Office Supplies' })]);
		});

		it('get_transactions: from, to and type narrow the list as the service does; every input optional', async () => {
			const { tools } = await agent.listTools();
			const schema: any = tools.find((t) => t.name === 'get_transactions')?.inputSchema;
			expect(Object.keys(schema.properties).sort()).toEqual(['from', 'limit', 'to', 'type']);
			expect(schema.required ?? []).toEqual([]);
			const all = (await api.request('GET', '/treasury/transactions', { query: { limit: 100 } }))
				.body.data;
			const newest = all.at(-1);
			const day = String(newest.created_at).slice(0, 10);
			const query = { from: day, to: day, type: newest.type };
			const expected = (await api.request('GET', '/treasury/transactions', { query })).body.data;
			const answer = await call('get_transactions', query, agent);
			expect(answer.isError).toBe(false);
			expect(answer.json.map((t: any) => t.id)).toEqual(expected.map((t: any) => t.id));
			expect(answer.json).toContainEqual(expect.objectContaining({ id: newest.id }));
			const unfiltered = await call('get_transactions', {}, agent);
			expect(unfiltered.json).toHaveLength(Math.min(50, all.length));
		});

		it('refuse a client without the bearer token, or with another one (403)', async () => {
			// The endpoint answers the token (previous test): a refusal is the bearer check's.
			await expect(connectMcp(exampleUrl())).rejects.toMatchObject({ code: 403 });
			const wrong = { authorization: 'Bearer not-the-token' };
			await expect(connectMcp(exampleUrl(), wrong)).rejects.toMatchObject({ code: 403 });
		});

		const proposal = (invoice: string) => ({
			invoice_number: invoice,
			amount: 120.5,
			vendor_id: acmeId,
		});

		async function propose(invoice: string): Promise<{ answer: string; form: string }> {
			const before = messages.length;
			const { text } = await call('propose_payable', proposal(invoice), agent);
			const message = await environment.n8n.waitFor(
				'the approval message',
				async () => messages[before],
			);
			expect(message).toMatch(new RegExp(`120\\.5 to Acme Office Supplies .* invoice ${invoice}`));
			return { answer: text, form: /(http\S+)$/.exec(message)![1] };
		}

		async function submit(form: string, decision: string, login?: typeof approver) {
			const body = new FormData();
			body.set('field-0', decision);
			const basic = login && Buffer.from(`${login.user}:${login.password}`).toString('base64');
			const headers: Record<string, string> = basic ? { authorization: `Basic ${basic}` } : {};
			return (await fetch(form, { method: 'POST', body, headers })).status;
		}

		async function decide(form: string, decision: 'Approve' | 'Reject'): Promise<any> {
			expect(await submit(form, decision, approver)).toBe(200);
			return await ended(/\/form-waiting\/(\d+)/.exec(form)![1], 60_000);
		}

		it('the approval form opens only to the approvers: a guessed address, or the real one without the Basic Auth login, is refused (401)', async () => {
			await sandbox.admin.clearRequests();
			const { form } = await propose('BILL-MCP-GUESS');
			// 1.x: the form's address is the execution's number alone; 2.x adds a token to it.
			const executionNumber = /\/form-waiting\/(\d+)/.exec(form)![1];
			const guessed = `${environment.n8n.baseUrl}/form-waiting/${executionNumber}`;
			expect(form === guessed).toBe(environment.runtime.major < 2);
			const wrong = { user: approver.user, password: 'guessed' };
			for (const address of [guessed, form]) {
				expect((await fetch(address)).status).toBe(401);
				expect(await submit(address, 'Approve')).toBe(401);
				expect(await submit(address, 'Approve', wrong)).toBe(401);
			}
			expect(await payablesCreated()).toEqual([]);
			// 2.x: the login without the token is refused too.
			if (form !== guessed) expect(await submit(guessed, 'Approve', approver)).toBe(401);
			await decide(form, 'Approve');
			await expectOnePayableCreated({ invoice_number: 'BILL-MCP-GUESS' });
		});

		describe('06b: one proposal per vendor and invoice number', () => {
			const proposeAgain = async (invoice: string) => {
				const before = messages.length;
				const { text } = await call('propose_payable', proposal(invoice), agent);
				expect(messages.length).toBe(before);
				return text;
			};
			const rowsOf = async (invoice: string) =>
				(await dataTableRows(environment.n8n, proposals)).filter(
					(r) => r.invoice_number === invoice,
				);
			/** 06b's executions waiting on a form (as the editor lists them: 1.x's public API does not). */
			const waitingForms = async () => {
				const filter = JSON.stringify({ workflowId: approval.id, status: ['waiting'] });
				const query = `filter=${encodeURIComponent(filter)}`;
				return await environment.n8n.waitFor('an execution waiting on its form', async () => {
					const { results } = await environment.n8n.rest('GET', `/executions?${query}`);
					return results.length > 0 && results;
				});
			};

			it('a person is asked, and the payable created once approved; a second proposal while one waits, and one after it was approved, asks no one and is told why', async () => {
				await sandbox.admin.clearRequests();
				const { form, answer } = await propose('BILL-MCP-TWICE');
				// What the agent is told: n8n 2.x's own text for a paused sub-workflow; on 1.x, the example's.
				expect(answer).toMatch(
					TWO_X ? /Sub-workflow is paused/ : /Waiting for a person to approve/,
				);
				expect(await proposeAgain('BILL-MCP-TWICE')).toMatch(
					/Already proposed \(waiting for approval\): invoice BILL-MCP-TWICE from Acme Office Supplies/,
				);
				expect(await waitingForms()).toHaveLength(1);
				expect(await payablesCreated()).toEqual([]);
				const approved = await decide(form, 'Approve');
				await expectOnePayableCreated({
					...proposal('BILL-MCP-TWICE'),
					notes: expect.stringMatching(/approved in n8n execution \d+/),
				});
				const payableId = output(approved, 'Create payable')[0].id;
				expect(await proposeAgain('BILL-MCP-TWICE')).toMatch(
					new RegExp(`Already created: payable ${payableId} for invoice BILL-MCP-TWICE`),
				);
				expect(await payablesCreated()).toHaveLength(1);
				expect(await rowsOf('BILL-MCP-TWICE')).toEqual([
					expect.objectContaining({ vendor_id: acmeId, status: 'created', payable_id: payableId }),
				]);
			});

			it('a rejected proposal may be proposed again: a new message and form, on the same row', async () => {
				await sandbox.admin.clearRequests();
				const first = await propose('BILL-MCP-AGAIN');
				await decide(first.form, 'Reject');
				expect(await rowsOf('BILL-MCP-AGAIN')).toEqual([
					expect.objectContaining({ status: 'rejected' }),
				]);
				const second = await propose('BILL-MCP-AGAIN');
				expect(second.form).not.toBe(first.form);
				await decide(second.form, 'Approve');
				await expectOnePayableCreated({ invoice_number: 'BILL-MCP-AGAIN' });
				expect(await rowsOf('BILL-MCP-AGAIN')).toEqual([
					expect.objectContaining({ status: 'created' }),
				]);
			});
		});
	});

	it('secrets: no API key appears in any answer or in n8n’s log, plain or base64', () => {
		expectNoKeyIn([...answers, environment.n8n.log()]);
		expect(answers.length).toBeGreaterThan(15);
	});
});
