/** Workflows the e2e suites import; parameters use the nodes' public names, as saved ones do. */
import {
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	loadExamples,
	type WorkflowJson,
} from '../../scripts/n8n';

const ACTION = 'n8n-nodes-business-finance.businessFinance';
const TRIGGER = 'n8n-nodes-business-finance.businessFinanceTrigger';
const POLLING_TRIGGER = 'n8n-nodes-business-finance.businessFinancePollingTrigger';
export const SANDBOX_CREDENTIAL = { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME };

let uuidCounter = 0;
const nodeId = () => `00000000-0000-4000-8000-${String(++uuidCounter).padStart(12, '0')}`;

type Node = Record<string, any>;

/** A node of any type (position set by `chain`). */
export function node(name: string, type: string, parameters: object = {}, extra: Node = {}): Node {
	return { id: nodeId(), name, type, typeVersion: 1, position: [0, 0], parameters, ...extra };
}

export const manual = () => node('Start', 'n8n-nodes-base.manualTrigger');

export function action(
	name: string,
	parameters: object,
	extra: Node = {},
	credential = SANDBOX_CREDENTIAL,
): Node {
	const credentials = { businessFinanceApi: credential };
	return node(name, ACTION, parameters, { credentials, ...extra });
}

export function trigger(name: string, webhookId: string, parameters: object, typeVersion = 2) {
	const extra = { typeVersion, webhookId, credentials: { businessFinanceApi: SANDBOX_CREDENTIAL } };
	return node(name, TRIGGER, { options: {}, ...parameters }, extra);
}

export function chain(id: string, name: string, nodes: Node[]): WorkflowJson {
	const connections: Record<string, any> = {};
	nodes.forEach((node, index) => {
		node.position = [index * 220, 0];
		const next = nodes[index + 1];
		if (next) connections[node.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
	});
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

export const rl = (value: string) => ({ __rl: true, mode: 'id', value });

export const IDS = {
	receivables: 'bfE2eReceivable1',
	vendorsPayables: 'bfE2eVendorPay01',
	treasury: 'bfE2eTreasury001',
	webhookEndpoint: 'bfE2eWebhookEp01',
	triggerExisting: 'bfE2eTriggerExst',
	triggerEarly: 'bfE2eTriggerErly',
	polling: 'bfE2ePollingTrg1',
	pollingChanged: 'bfE2ePollingChg1',
};

/** A node's parameters for `what` ('resource.operation'), with its other `parameters`. */
export function operation(what: string, parameters: object = {}): Record<string, unknown> {
	const [resource, operation] = what.split('.');
	return { resource, operation, ...parameters };
}

export const step = (name: string, what: string, parameters: object = {}, extra: Node = {}) =>
	action(name, operation(what, parameters), extra);

const createdReceivable = "={{ $('Create receivable').item.json.id }}";

function receivablesWorkflow(tag: string): WorkflowJson {
	return chain(IDS.receivables, 'e2e: receivables', [
		manual(),
		step('Create receivable', 'receivable.create', {
			invoiceNumber: `E2E-${tag}-R1`,
			amount: 1234.5,
			additionalFields: {
				customerName: 'Globex Corporation',
				customerEmail: 'ap@globex.example',
				// An ISO date-time is accepted and cut to its date.
				dueDate: '2031-03-15T10:00:00.000Z',
				notes: 'created by the e2e suite',
			},
		}),
		step('Update receivable', 'receivable.update', {
			receivableId: createdReceivable,
			updateFields: { notes: 'updated by the e2e suite', dueDate: '2031-04-01' },
		}),
		step('Send receivable', 'receivable.send', { receivableId: createdReceivable }),
	]);
}

const createdVendor = rl("={{ $('Create vendor').item.json.id }}");

function vendorsPayablesWorkflow(tag: string): WorkflowJson {
	return chain(IDS.vendorsPayables, 'e2e: vendors and payables', [
		manual(),
		step('Create vendor', 'vendor.create', {
			name: `E2E Vendor ${tag}`,
			paymentMethod: 'ach',
			additionalFields: {
				email: `ap-${tag}@vendor.example`,
				bankName: 'First Sandbox Bank',
				accountName: `E2E Vendor ${tag}`,
				accountNumber: '000123456789',
				routingNumber: '021000021',
			},
		}),
		step('Update vendor', 'vendor.update', {
			vendorId: createdVendor,
			updateFields: { name: `E2E Vendor ${tag} Renamed` },
		}),
		step('Get vendor', 'vendor.get', { vendorId: createdVendor, simplify: true }),
		step('Find vendor', 'vendor.getAll', {
			returnAll: false,
			limit: 5,
			filters: { search: `E2E Vendor ${tag}` },
		}),
		step('Create payable', 'payable.create', {
			invoiceNumber: `E2E-${tag}-P1`,
			amount: 410.25,
			vendorId: createdVendor,
			additionalFields: { dueDate: '2031-05-01', notes: 'e2e bill', paymentMethod: 'ach' },
		}),
		step('Update payable', 'payable.update', {
			payableId: "={{ $('Create payable').item.json.id }}",
			updateFields: { status: 'ready' },
		}),
		step('All vendors', 'vendor.getAll', { returnAll: true, filters: {} }, { executeOnce: true }),
	]);
}

function treasuryWorkflow(): WorkflowJson {
	return chain(IDS.treasury, 'e2e: treasury', [
		manual(),
		step('Deposit instructions', 'treasury.getDepositInstructions'),
		step('Balance', 'treasury.getBalance'),
		step('Deposits', 'treasury.getTransactions', {
			returnAll: true,
			filters: { type: 'deposit', from: '2000-01-01', to: '2100-12-31' },
		}),
		step(
			'First 120 transactions',
			'treasury.getTransactions',
			{ returnAll: false, limit: 120, filters: {} },
			{ executeOnce: true },
		),
	]);
}

function webhookEndpointWorkflow(webhookEndpointId: string): WorkflowJson {
	return chain(IDS.webhookEndpoint, 'e2e: webhook endpoint', [
		manual(),
		step('Get endpoint', 'webhookEndpoint.get', { webhookEndpointId }),
		step('Update endpoint', 'webhookEndpoint.update', {
			webhookEndpointId,
			updateFields: {
				description: 'changed by the e2e suite',
				filterTypes: ['payable.paid', 'payable.failed'],
				disabled: true,
			},
		}),
	]);
}

export const TRIGGER_WEBHOOK_ID = '6a0f8c52-1111-4c1a-9e01-00000000e2e1';
export const TRIGGER_EARLY_WEBHOOK_ID = '6a0f8c52-2222-4c1a-9e01-00000000e2e2';
const keep = () => node('Keep', 'n8n-nodes-base.noOp');

/** At typeVersion 2, as a new workflow has it (the early one stays at 1, as saved workflows). */
function triggerWorkflow(endpointId: string): WorkflowJson {
	const events = ['receivable.paid', 'receivable.overdue'];
	return chain(IDS.triggerExisting, 'e2e: trigger on an existing endpoint', [
		trigger('On receivable paid', TRIGGER_WEBHOOK_ID, { webhookEndpointId: endpointId, events }),
		keep(),
	]);
}

/** A trigger that creates its endpoint, for vendor.created (no other e2e trigger listens to it). */
function triggerEarlyWorkflow(): WorkflowJson {
	const parameters = { webhookEndpointId: '', events: ['vendor.created'] };
	return chain(IDS.triggerEarly, 'e2e: trigger that creates its endpoint', [
		trigger('On vendor created', TRIGGER_EARLY_WEBHOOK_ID, parameters, 1),
		keep(),
	]);
}

/** n8n's Poll Times of a polling node: one cron expression (mode Custom in the editor). */
export const pollTimes = (cronExpression: string) => ({
	item: [{ mode: 'custom', cronExpression }],
});

export const POLLING_NODES = {
	transactions: 'New transactions',
	vendors: 'New vendors',
	changed: 'Changed vendors',
};

/** A polling node for `event`, on Poll Times that only activations reach until a test sets others. */
export function pollingNode(name: string, event: string): Node {
	const parameters = { pollTimes: pollTimes('0 0 1 1 *'), event, options: {} };
	return node(name, POLLING_TRIGGER, parameters, {
		credentials: { businessFinanceApi: SANDBOX_CREDENTIAL },
	});
}

/**
 * One polling node per event, each with its own cursor. Poll Times on 1 January only, so that only
 * activations poll until a test sets another schedule.
 */
export function pollingWorkflow(
	id = IDS.polling,
	events: Record<string, string> = {
		[POLLING_NODES.transactions]: 'treasury.transaction.created',
		[POLLING_NODES.vendors]: 'vendor.created',
	},
): WorkflowJson {
	const nodes: Node[] = [];
	const connections: Record<string, any> = {};
	Object.entries(events).forEach(([name, event], row) => {
		const polling = pollingNode(name, event);
		const keep = node(`Keep ${name.toLowerCase()}`, 'n8n-nodes-base.noOp');
		polling.position = [0, row * 200];
		keep.position = [220, row * 200];
		nodes.push(polling, keep);
		connections[name] = { main: [[{ node: keep.name, type: 'main', index: 0 }]] };
	});
	const name = `e2e: polling trigger (${Object.values(events).join(', ')})`;
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

/**
 * A polling node whose run reads the balance after it (a step a test can make fail), with an
 * Error Workflow that keeps what it is given.
 */
export function restartPollingWorkflows() {
	const id = 'bfE2ePollRestart';
	const errorWorkflow = 'bfE2eErrorWflow1';
	const polling = chain(id, 'e2e: polling, then a step that can fail', [
		pollingNode('Transactions (restart)', 'treasury.transaction.created'),
		step('Balance', 'treasury.getBalance'),
	]);
	polling.settings = { ...polling.settings, errorWorkflow };
	const errors = chain(errorWorkflow, 'e2e: error workflow', [
		node('Error Trigger', 'n8n-nodes-base.errorTrigger'),
		node('Keep the failure', 'n8n-nodes-base.noOp'),
	]);
	return { id, errorWorkflow, workflows: [polling, errors] };
}

/** The endpoint the trigger workflow points at n8n, as it is before and after (restored). */
export const TRIGGER_ENDPOINT_BEFORE = {
	url: 'http://127.0.0.1:9/receiver-before-n8n',
	description: 'receiver before n8n',
	filter_types: ['vendor.created'],
	disabled: true,
};

/**
 * What both suites import besides their own workflows, with the sandbox endpoints these use (one
 * the trigger points at n8n and must restore, one the action node edits).
 */
export async function sharedWorkflows(
	tag: string,
	copies: ReturnType<typeof exampleCopies>,
	createEndpoint: (fields: Record<string, unknown>) => Promise<string>,
) {
	const endpoints = {
		trigger: await createEndpoint(TRIGGER_ENDPOINT_BEFORE),
		edited: await createEndpoint({ url: 'http://127.0.0.1:9/other', filter_types: [] }),
	};
	const workflows = [
		receivablesWorkflow(tag),
		vendorsPayablesWorkflow(tag),
		treasuryWorkflow(),
		webhookEndpointWorkflow(endpoints.edited),
		triggerWorkflow(endpoints.trigger),
		triggerEarlyWorkflow(),
		...Object.values(copies),
		...loadExamples().map((e) => e.workflow),
	];
	return { endpoints, workflows };
}

/** 01b and 01c started by hand, Google Sheets off; 03 with Slack off, on its own webhook id. */
export function exampleCopies(prefix: string, example03WebhookId: string) {
	const sheets = { disable: 'n8n-nodes-base.googleSheets', manualStart: true };
	const example03 = exampleCopy('03-notify-when-receivable-paid.json', `${prefix}03Ns`, {
		disable: 'n8n-nodes-base.slack',
	});
	for (const n of example03.nodes) if (n.webhookId) n.webhookId = example03WebhookId;
	return {
		example01b: exampleCopy('01b-sync-vendors-to-google-sheets.json', `${prefix}01bN`, sheets),
		example01c: exampleCopy(
			'01c-sync-changed-vendors-to-google-sheets.json',
			`${prefix}01cN`,
			sheets,
		),
		example03,
	};
}

/**
 * A copy of an example that the suite can run: `disable` turns off the nodes of a third-party
 * type, `manualStart` puts a Manual Trigger (same name, so the connections hold) in place of a
 * Schedule Trigger, which only fires on its timer in an active workflow (docs/n8n-notes.md).
 */
export function exampleCopy(
	file: string,
	id: string,
	change: { disable?: string; manualStart?: boolean },
): WorkflowJson & { id: string } {
	const example = loadExamples().find((e) => e.file === file);
	if (!example) throw new Error(`examples/${file} is missing`);
	const copy = JSON.parse(JSON.stringify(example.workflow));
	copy.id = id;
	const what = [
		change.disable && `${change.disable.split('.')[1]} disabled`,
		change.manualStart && 'manual start',
	];
	copy.name = `${copy.name} (${what.filter(Boolean).join(', ')})`;
	for (const node of copy.nodes) {
		if (node.type === change.disable) node.disabled = true;
		if (change.manualStart && node.type === 'n8n-nodes-base.scheduleTrigger') {
			Object.assign(node, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
		}
	}
	return copy;
}

/** Example 03's claim (docs/trigger.md, "Exactly once, per setup"): Redis Increment, then a Filter. */
export const CLAIM = { count: 'Claim the event', gate: 'First delivery only' };

/** Copies of example 03's two claim nodes, for other workflows to put after their trigger. */
export function exampleClaimNodes(): Node[] {
	const example = exampleCopy('03-notify-when-receivable-paid.json', 'unused', {});
	return [nodeNamed(example, CLAIM.count), nodeNamed(example, CLAIM.gate)];
}

export function nodeNamed(workflow: WorkflowJson, name: string): Node {
	const node = workflow.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`${workflow.name} has no node "${name}"`);
	return node;
}
