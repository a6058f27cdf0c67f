/**
 * The Business Finance Tool inside n8n's own AI Agent, as a user's n8n runs it: a real n8n
 * (2.40.7, or 1.123.81 with BF_N8N_VERSION=1.123.81) with the AI Agent at its line's default
 * version, an OpenAI Chat Model whose Base URL points at a scripted model
 * (test/helpers/scripted-model.ts), and the tools of agent-workflow.ts against the sandbox. The
 * workflow runs once; the tests read what the model was offered and told (its recorded requests),
 * what the sandbox received, and the execution.
 */
import { TOOL_DESCRIPTIONS } from '../../nodes/BusinessFinance/descriptions/tool';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { requireRuntime, type OtherCredential, type WorkflowJson } from '../../scripts/n8n';
import { createHttpClient } from '../helpers/http';
import { bodyOf, linksOf, smtpServer, type Mail, type SmtpServer } from '../helpers/smtp-server';
import {
	scriptedModel,
	textOf,
	toolResults,
	type ModelRequest,
	type ScriptedModel,
	type Step,
} from '../helpers/scripted-model';
import {
	AGENT,
	AGENT_TOOLS,
	AGENT_V2_WORKFLOW_ID,
	AGENT_WORKFLOW_ID,
	LIMITED_TOOL,
	OPENAI_CREDENTIAL,
	OPENAI_V2_CREDENTIAL,
	EXAMPLE07_COPY_ID,
	REVIEW_OPENAI_CREDENTIAL,
	REVIEW_WORKFLOW_ID,
	REVOKED_TOOL,
	SMTP_CREDENTIAL,
	agentWorkflow,
	example07Copy,
	reviewWorkflow,
} from './agent-workflow';
import { startN8nWithPackage, type PackageInN8n } from './environment';
import { LIMITED_CREDENTIAL, REVOKED_CREDENTIAL } from './mcp-workflow';
import { output, runManually } from './service';

const BAD = { invoice_number: 'INV-AGENT-BAD', amount: 0, customer_email: 'not-an-email' };
const GOOD = { invoice_number: 'INV-AGENT-1', amount: 250.5, customer_email: 'ap@globex.example' };

/** The record a tool result holds (its answer is a JSON list of records), or undefined. */
function firstRecord(result: string | undefined): any {
	try {
		return JSON.parse(result ?? '')[0];
	} catch {
		return undefined;
	}
}

/** What the model does, one turn per step: reads, a bad invoice, a good one, the revoked key. */
const SCRIPT: Step[] = [
	{
		toolCalls: [
			{ name: 'find_vendors', arguments: { search: 'acme' } },
			{ name: 'get_balance', arguments: {} },
			{ name: 'get_transactions', arguments: { limit: 3 } },
		],
	},
	{ toolCalls: [{ name: 'create_invoice', arguments: BAD }] },
	{ toolCalls: [{ name: 'create_invoice', arguments: GOOD }] },
	{
		toolCalls: [
			{ name: REVOKED_TOOL, arguments: {} },
			{ name: LIMITED_TOOL, arguments: { max_wait_seconds: 1 } },
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

/**
 * n8n 2.x generates a review tool for each node with a "send and wait" operation; n8n 1.123.81
 * has none (no `*HitlTool` node type, no review step in its AI Agent), so the reviewed create is
 * tested on 2.x only.
 */
const REVIEWED = requireRuntime().major >= 2;

/** The reviewed create's model: find the vendor, create the payable, then say what it was told. */
const REVIEW_SCRIPT: Step[] = [
	{ toolCalls: [{ name: 'list_vendors', arguments: { search: 'acme', limit: 5 } }] },
	(request) => {
		const vendor = firstRecord(toolResults(request).find((t) => t.name === 'list_vendors')?.result);
		const invoice = /invoice (\S+?)\.?$/.exec(textOf(userMessage(request)))?.[1];
		const payable = { invoice_number: invoice, amount: 120.5, vendor_id: vendor?.id };
		// A reviewed tool takes its own inputs under `toolParameters`, the review node's under
		// `hitlParameters` (none here).
		const args = { toolParameters: payable, hitlParameters: {} };
		return { toolCalls: [{ name: 'create_payable', arguments: args }] };
	},
	(request) => ({ answer: `Told: ${toolResults(request).at(-1)?.result}` }),
];

const userMessage = (request: ModelRequest) => request.messages.find((m) => m.role === 'user')!;

const EXAMPLE07_OPENAI = { id: 'bfExampleOpenAi1', name: 'OpenAI account', type: 'openAiApi' };
const EXAMPLE07_SMTP = { id: 'bfExampleSmtp001', name: 'Approvers mailbox (SMTP)', type: 'smtp' };

/** The reviewed create's model, mailbox, credentials and workflow. */
async function reviewSetup(): Promise<{
	credentials: OtherCredential[];
	workflows: WorkflowJson[];
}> {
	reviewModel = await scriptedModel(REVIEW_SCRIPT);
	mailbox = await smtpServer();
	const smtp = { host: mailbox.host, port: mailbox.port, secure: false, disableStartTls: true };
	return {
		credentials: [
			{ ...REVIEW_OPENAI_CREDENTIAL, data: { apiKey: 'sk-scripted', url: reviewModel.baseUrl } },
			{ ...SMTP_CREDENTIAL, data: { ...smtp, user: '', password: '' } },
			// Example 07's own credentials, by the ids its nodes name.
			{ ...EXAMPLE07_OPENAI, data: { apiKey: 'sk-scripted', url: reviewModel.baseUrl } },
			{ ...EXAMPLE07_SMTP, data: { ...smtp, user: '', password: '' } },
		],
		workflows: [reviewWorkflow(reviewModel.model), example07Copy()],
	};
}

/**
 * AI Agent 2.2 (tested on 2.x: one line is enough, its tool path is the same on both), where a
 * thrown tool error reached the model as an empty message: only the refused input, then an answer.
 */
const BAD_V2 = { ...BAD, invoice_number: 'INV-AGENT22-BAD' };
const V2_SCRIPT: Step[] = [
	{ toolCalls: [{ name: 'create_invoice', arguments: BAD_V2 }] },
	{ answer: 'Could not create the invoice.' },
];
let v2Model: ScriptedModel | undefined;

async function agentV2Setup() {
	v2Model = await scriptedModel(V2_SCRIPT);
	const credential = { ...OPENAI_V2_CREDENTIAL, data: { apiKey: 'sk-22', url: v2Model.baseUrl } };
	const workflow = agentWorkflow(2.2, v2Model.model, {
		id: AGENT_V2_WORKFLOW_ID,
		credential: OPENAI_V2_CREDENTIAL,
	});
	return { credentials: [credential], workflows: [workflow] };
}

let sandbox: RunningSandbox;
let limited: RunningSandbox;
let model: ScriptedModel;
/** The reviewed create's model and the approver's mailbox (n8n 2.x only). */
let reviewModel: ScriptedModel | undefined;
let mailbox: SmtpServer | undefined;
let environment: PackageInN8n;
/** The finished execution, and every /v1 request the sandbox received during it. */
let execution: any;
let received: any[];
let balance: unknown;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo' });
	// one request a minute: the listing's second page waits longer than the model allows
	limited = await startSandbox({ port: 0, seed: 'none', rateLimit: 1, rateWindowSeconds: 60 });
	await limited.admin.seedVendors(250);
	const api = createHttpClient(`${sandbox.baseUrl}/v1`, { apiKey: sandbox.apiKey });
	balance = (await api.get('/treasury/balance')).body.data;
	model = await scriptedModel(SCRIPT);
	// Each line's default AI Agent: 3.1 on 2.x, 3 on 1.x.
	const agentVersion = REVIEWED ? 3.1 : 3;
	const review = REVIEWED ? await reviewSetup() : { credentials: [], workflows: [] };
	const v2 = REVIEWED ? await agentV2Setup() : { credentials: [], workflows: [] };
	environment = await startN8nWithPackage({
		credentials: [
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
			{ ...REVOKED_CREDENTIAL, apiKey: sandbox.keys.revoked, baseUrl: sandbox.baseUrl },
			{ ...LIMITED_CREDENTIAL, apiKey: limited.apiKey, baseUrl: limited.baseUrl },
			{ ...OPENAI_CREDENTIAL, data: { apiKey: 'sk-scripted-model', url: model.baseUrl } },
			...review.credentials,
			...v2.credentials,
		],
		workflows: [agentWorkflow(agentVersion, model.model), ...review.workflows, ...v2.workflows],
	});
	await sandbox.admin.clearRequests();
	execution = await runManually(environment.n8n, AGENT_WORKFLOW_ID, 180_000);
	received = await sandbox.admin.getRequests();
	console.log(transcript());
}, 400_000);

afterAll(async () => {
	await environment?.stop();
	const servers = [sandbox, limited, model, reviewModel, mailbox, v2Model];
	await Promise.all(servers.map((server) => server?.close()));
});

/** The model's last request: it holds every tool result of the run. */
const last = (): ModelRequest => model.requests[model.requests.length - 1];

/** What the model was told by the call of `tool` that `match` picks (any call when none). */
function told(tool: string, match: (args: any) => boolean = () => true): string | undefined {
	return toolResults(last()).find((t) => t.name === tool && match(t.arguments ?? {}))?.result;
}

/** For the log: each tool call of the run and what the model was told, and how it ended. */
function transcript(): string {
	const calls = model.requests.length ? toolResults(last()) : [];
	const lines = calls.map((t) => `${t.name} ${JSON.stringify(t.arguments)}\n  -> ${t.result}`);
	const { error, lastNodeExecuted } = execution?.data?.resultData ?? {};
	const failure = error ? ` in "${lastNodeExecuted}": ${error.message}` : '';
	const end = `execution ${execution?.status}${failure}; agent output: ${JSON.stringify(output(execution, AGENT))}`;
	return [
		`n8n ${environment.runtime.version}, ${model.requests.length} model requests`,
		...lines,
		end,
	].join('\n');
}

const receivablesCreated = () =>
	received.filter((r) => r.method === 'POST' && r.path === '/v1/receivables');

describe('what the model is offered', () => {
	it('one tool per tool node, by its node name, described by the node’s default description', () => {
		const offered = model.requests[0].tools;
		expect(offered.map((t) => t.name).sort()).toEqual(
			[...Object.keys(AGENT_TOOLS), REVOKED_TOOL, LIMITED_TOOL].sort(),
		);
		const parameters = {
			...AGENT_TOOLS,
			[REVOKED_TOOL]: AGENT_TOOLS.get_balance,
			[LIMITED_TOOL]: AGENT_TOOLS.find_vendors,
		};
		for (const [name, { resource, operation }] of Object.entries(parameters) as any) {
			expect(offered.find((t) => t.name === name)?.description).toBe(
				TOOL_DESCRIPTIONS[resource][operation],
			);
		}
	});

	it.each([
		['find_vendors', { search: 'string' }],
		['get_balance', {}],
		['get_transactions', { limit: 'number' }],
		['create_invoice', { invoice_number: 'string', amount: 'number', customer_email: 'string' }],
	])('%s: its $fromAI inputs, typed and required', (name, expected) => {
		const schema = model.requests[0].tools.find((t) => t.name === name)?.parameters;
		const properties = Object.entries(schema.properties ?? {});
		expect(Object.fromEntries(properties.map(([k, v]: [string, any]) => [k, v.type]))).toEqual(
			expected,
		);
		expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(expected).sort());
	});

	it('the same tools on every turn', () => {
		const names = (request: ModelRequest) => request.tools.map((t) => t.name).sort();
		for (const request of model.requests) expect(names(request)).toEqual(names(model.requests[0]));
	});
});

describe('what each tool result tells the model', () => {
	it('reads: the service’s records', () => {
		const [acme] = JSON.parse(told('find_vendors')!);
		expect(acme).toMatchObject({ name: 'Acme Office Supplies', id: expect.any(String) });
		expect(JSON.parse(told('get_balance')!)).toEqual([balance]);
		expect(JSON.parse(told('get_transactions')!)).toHaveLength(3);
	});

	it('a refused input: nothing reaches the service', () => {
		const bad = received.filter((r) => r.body?.invoice_number === BAD.invoice_number);
		expect(bad).toEqual([]);
	});

	it('a refused input: each refused field and its reason, and that nothing was sent', () => {
		const refusal = told('create_invoice', (args) => args.invoice_number === BAD.invoice_number);
		expect(refusal).toEqual(expect.stringMatching(/'Amount' must be at least 0\.01/));
		expect(refusal).toEqual(expect.stringMatching(/'Customer Email' must be an email address/));
		expect(refusal).toEqual(expect.stringMatching(/nothing was sent|not sent/i));
	});

	it('a valid create after the refusal: exactly one receivable, and the model is told its id', () => {
		expect(receivablesCreated()).toEqual([
			expect.objectContaining({ body: expect.objectContaining(GOOD), status: 201 }),
		]);
		const created = firstRecord(
			told('create_invoice', (a) => a.invoice_number === GOOD.invoice_number),
		);
		expect(created).toMatchObject({ ...GOOD, id: expect.any(String) });
	});

	it('a service error (revoked key): the service’s code and what to do', () => {
		const error = told(REVOKED_TOOL);
		expect(error).toEqual(expect.stringMatching(/INVALID_API_KEY/));
		expect(error).toEqual(expect.stringMatching(/Create a new key in the dashboard/));
	});

	it('a spent rate-limit budget: why the listing stopped, and which option gives it room', () => {
		const stopped = told(LIMITED_TOOL);
		expect(stopped).toEqual(expect.stringMatching(/RATE_LIMITED: .*wait budget 1s/));
		expect(stopped).toEqual(expect.stringMatching(/Max Wait for Rate Limits/));
	});
});

(REVIEWED ? describe : describe.skip)('AI Agent 2.2 (n8n 2.x)', () => {
	it('a refused input reaches the model with each field, its reason and that nothing was sent; the run succeeds', async () => {
		const run = await runManually(environment.n8n, AGENT_V2_WORKFLOW_ID, 180_000);
		const requests = v2Model!.requests;
		const refusal = toolResults(requests[requests.length - 1])[0]?.result;
		expect(refusal).toEqual(expect.stringMatching(/'Amount' must be at least 0\.01/));
		expect(refusal).toEqual(expect.stringMatching(/'Customer Email' must be an email address/));
		expect(refusal).toEqual(expect.stringMatching(/Nothing was sent/));
		expect(run.status).toBe('success');
		const sent = await sandbox.admin.getRequests();
		expect(sent.filter((r: any) => r.body?.invoice_number === BAD_V2.invoice_number)).toEqual([]);
	});
});

describe('the run', () => {
	it('does not fail: the execution succeeds with the model’s final answer', () => {
		expect(execution.status).toBe('success');
		const id = firstRecord(
			told('create_invoice', (a) => a.invoice_number === GOOD.invoice_number),
		)?.id;
		expect(output(execution, AGENT)).toEqual([
			expect.objectContaining({ output: `Invoice ${GOOD.invoice_number} created as ${id}.` }),
		]);
	});

	it('the API keys are in no message to the model, plain or base64', () => {
		expect(model.requests.length).toBeGreaterThan(1);
		const sent = model.requests.map((r) => JSON.stringify(r.body));
		for (const key of [sandbox.apiKey, sandbox.keys.revoked, limited.apiKey]) {
			for (const form of [key, Buffer.from(key).toString('base64'), encodeURIComponent(key)]) {
				for (const text of sent) expect(text.includes(form)).toBe(false);
			}
		}
	});
});

/** An execution's status once it has ended (a waiting one has a stoppedAt too). */
const ENDED = ['success', 'error', 'crashed', 'canceled'];
/** A browser's User-Agent: n8n answers a link opened by a bot (Node's fetch is one) with nothing. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120';

interface Reviewed {
	mail: Mail;
	/** Payables the service was asked to create before the person decided, and in the whole run. */
	createdBeforeDecision: any[];
	created: any[];
	execution: any;
	/** What the model was told by its create_payable call. */
	told: string | undefined;
}

/**
 * Runs a reviewed workflow until it waits for the person, opens the email's `link` as the person
 * would, and resolves with the finished run.
 */
async function reviewed(workflowId: string, link: 'Approve' | 'Decline'): Promise<Reviewed> {
	const { n8n } = environment;
	const [mails, requests] = [mailbox!.mails.length, reviewModel!.requests.length];
	const payables = async () =>
		(await sandbox.admin.getRequests()).filter(
			(r) => r.method === 'POST' && r.path === '/v1/payables',
		);
	await sandbox.admin.clearRequests();
	const waiting = await runManually(n8n, workflowId, 180_000);
	expect(waiting.status).toBe('waiting');
	const mail = await n8n.waitFor('the review email', async () => mailbox!.mails[mails]);
	const createdBeforeDecision = await payables();
	const opened = await fetch(linksOf(mail)[link], { headers: { 'user-agent': BROWSER } });
	expect(opened.status).toBe(200);
	const path = `/executions/${waiting.id}`;
	await n8n.waitFor(
		`execution ${waiting.id} to finish`,
		async () => ENDED.includes((await n8n.api('GET', path))?.status),
		120_000,
	);
	const execution = await n8n.api('GET', `${path}?includeData=true`);
	const last = reviewModel!.requests.slice(requests).at(-1);
	const told = last && toolResults(last).find((t) => t.name === 'create_payable')?.result;
	return { mail, createdBeforeDecision, created: await payables(), execution, told };
}

(REVIEWED ? describe : describe.skip)('a person reviews the create (n8n 2.x)', () => {
	let declined: Reviewed;
	let approved: Reviewed;

	beforeAll(async () => {
		declined = await reviewed(REVIEW_WORKFLOW_ID, 'Decline');
		approved = await reviewed(REVIEW_WORKFLOW_ID, 'Approve');
		console.log(`declined -> ${declined.told}\napproved -> ${approved.told}`);
	}, 400_000);

	it('the model is offered the reviewed tool with the payable’s inputs under toolParameters', () => {
		const offered = reviewModel!.requests[0].tools.find((t) => t.name === 'create_payable');
		expect(offered?.description).toBe(TOOL_DESCRIPTIONS.payable.create);
		const inputs = offered?.parameters.properties.toolParameters.properties;
		expect(Object.keys(inputs).sort()).toEqual(['amount', 'invoice_number', 'vendor_id']);
	});

	it('the person is emailed the payable’s inputs, and an Approve and a Decline link', () => {
		const vendor = firstRecord(toolResults(reviewModel!.requests[1]).at(-1)?.result).id;
		for (const { mail } of [declined, approved]) {
			expect(mail.to).toEqual(['approver@business-finance.example']);
			expect(Object.keys(linksOf(mail)).sort()).toEqual(['Approve', 'Decline']);
			expect(bodyOf(mail)).toContain(
				`create a payable: invoice BILL-AGENT-REVIEW, amount 120.5, vendor ${vendor}.`,
			);
		}
	});

	it('declined: nothing reaches the service, and the model is told the person rejected it', () => {
		expect(declined.createdBeforeDecision).toEqual([]);
		expect(declined.created).toEqual([]);
		expect(declined.told).toMatch(/User rejected the tool call to create_payable/);
		expect(declined.execution.status).toBe('success');
	});

	it('approved: exactly one payable is created, and the model is told its id', () => {
		expect(approved.createdBeforeDecision).toEqual([]);
		expect(approved.created).toEqual([
			expect.objectContaining({
				body: expect.objectContaining({ invoice_number: 'BILL-AGENT-REVIEW', amount: 120.5 }),
				status: 201,
			}),
		]);
		expect(firstRecord(approved.told)).toMatchObject({
			invoice_number: 'BILL-AGENT-REVIEW',
			id: expect.any(String),
		});
		expect(approved.execution.status).toBe('success');
	});
});

(REVIEWED ? describe : describe.skip)('example 07: the finance agent (n8n 2.x)', () => {
	it('approved by email: exactly one payable, and the agent answers with what the tool told it', async () => {
		const run = await reviewed(EXAMPLE07_COPY_ID, 'Approve');
		expect(run.mail.to).toEqual(['approver@example.com']);
		expect(bodyOf(run.mail)).toMatch(/create a payable: invoice BILL-EXAMPLE-07, amount 120\.5/);
		expect(run.createdBeforeDecision).toEqual([]);
		expect(run.created).toEqual([
			expect.objectContaining({
				body: expect.objectContaining({ invoice_number: 'BILL-EXAMPLE-07', amount: 120.5 }),
				status: 201,
			}),
		]);
		expect(run.execution.status).toBe('success');
		const id = firstRecord(run.told)?.id;
		expect(id).toEqual(expect.any(String));
		expect(JSON.stringify(output(run.execution, AGENT))).toContain(id);
	}, 200_000);
});
