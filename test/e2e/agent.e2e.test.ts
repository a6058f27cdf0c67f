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
import { requireRuntime } from '../../scripts/n8n';
import { createHttpClient } from '../helpers/http';
import {
	scriptedModel,
	toolResults,
	type ModelRequest,
	type ScriptedModel,
	type Step,
} from '../helpers/scripted-model';
import {
	AGENT,
	AGENT_TOOLS,
	AGENT_WORKFLOW_ID,
	OPENAI_CREDENTIAL,
	REVOKED_TOOL,
	agentWorkflow,
} from './agent-workflow';
import { startN8nWithPackage, type PackageInN8n } from './environment';
import { REVOKED_CREDENTIAL } from './mcp-workflow';
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
	{ toolCalls: [{ name: REVOKED_TOOL, arguments: {} }] },
	(request) => {
		const created = toolResults(request).find(
			(t) => t.arguments?.invoice_number === GOOD.invoice_number,
		);
		return {
			answer: `Invoice ${GOOD.invoice_number} created as ${firstRecord(created?.result)?.id}.`,
		};
	},
];

let sandbox: RunningSandbox;
let model: ScriptedModel;
let environment: PackageInN8n;
/** The finished execution, and every /v1 request the sandbox received during it. */
let execution: any;
let received: any[];
let balance: unknown;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo' });
	const api = createHttpClient(`${sandbox.baseUrl}/v1`, { apiKey: sandbox.apiKey });
	balance = (await api.get('/treasury/balance')).body.data;
	model = await scriptedModel(SCRIPT);
	// Each line's default AI Agent: 3.1 on 2.x, 3 on 1.x.
	const agentVersion = requireRuntime().major >= 2 ? 3.1 : 3;
	environment = await startN8nWithPackage({
		credentials: [
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
			{ ...REVOKED_CREDENTIAL, apiKey: sandbox.keys.revoked, baseUrl: sandbox.baseUrl },
			{ ...OPENAI_CREDENTIAL, data: { apiKey: 'sk-scripted-model', url: model.baseUrl } },
		],
		workflows: [agentWorkflow(agentVersion, model.model)],
	});
	await sandbox.admin.clearRequests();
	execution = await runManually(environment.n8n, AGENT_WORKFLOW_ID, 180_000);
	received = await sandbox.admin.getRequests();
	console.log(transcript());
}, 400_000);

afterAll(async () => {
	await environment?.stop();
	await Promise.all([sandbox?.close(), model?.close()]);
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
			[...Object.keys(AGENT_TOOLS), REVOKED_TOOL].sort(),
		);
		const parameters = { ...AGENT_TOOLS, [REVOKED_TOOL]: AGENT_TOOLS.get_balance };
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
		for (const key of [sandbox.apiKey, sandbox.keys.revoked]) {
			for (const form of [key, Buffer.from(key).toString('base64'), encodeURIComponent(key)]) {
				for (const text of sent) expect(text.includes(form)).toBe(false);
			}
		}
	});
});
