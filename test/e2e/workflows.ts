/**
 * Workflows the e2e suite imports into the real n8n: one chain per resource so that every
 * operation runs through `n8n execute --id`, plus the trigger workflows. Parameters use exactly
 * the nodes' public names, as a user's saved workflow would.
 */
import {
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	loadExamples,
	type WorkflowJson,
} from '../../scripts/n8n';

export const ACTION = 'n8n-nodes-business-finance.businessFinance';
export const TRIGGER = 'n8n-nodes-business-finance.businessFinanceTrigger';
export const BAD_KEY_CREDENTIAL_ID = 'bfExpiredKeyCred';

const credentials = (id = SANDBOX_CREDENTIAL_ID, name = SANDBOX_CREDENTIAL_NAME) => ({
	businessFinanceApi: { id, name },
});

let uuidCounter = 0;
const nodeId = () => `00000000-0000-4000-8000-${String(++uuidCounter).padStart(12, '0')}`;

type Node = Record<string, any>;

export function manual(): Node {
	return {
		id: nodeId(),
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

export function action(name: string, parameters: Record<string, unknown>, extra: Node = {}): Node {
	return {
		id: nodeId(),
		name,
		type: ACTION,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: credentials(),
		...extra,
	};
}

/** A workflow whose nodes run one after the other. */
export function chain(id: string, name: string, nodes: Node[]): WorkflowJson {
	const connections: Record<string, any> = {};
	nodes.forEach((node, index) => {
		node.position = [index * 220, 0];
		const next = nodes[index + 1];
		if (next) connections[node.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
	});
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

const rl = (value: string) => ({ __rl: true, mode: 'id', value });

export const IDS = {
	receivables: 'bfE2eReceivable1',
	vendorsPayables: 'bfE2eVendorPay01',
	treasury: 'bfE2eTreasury001',
	webhookEndpoint: 'bfE2eWebhookEp01',
	badInput: 'bfE2eBadInput001',
	expiredCredentialCheck: 'bfE2eExpiredKey1',
	triggerExisting: 'bfE2eTriggerExst',
	triggerEarly: 'bfE2eTriggerErly',
};

export function receivablesWorkflow(tag: string): WorkflowJson {
	return chain(IDS.receivables, 'e2e: receivables', [
		manual(),
		action('Create receivable', {
			resource: 'receivable',
			operation: 'create',
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
		action('Update receivable', {
			resource: 'receivable',
			operation: 'update',
			receivableId: "={{ $('Create receivable').item.json.id }}",
			updateFields: { notes: 'updated by the e2e suite', dueDate: '2031-04-01' },
		}),
		action('Send receivable', {
			resource: 'receivable',
			operation: 'send',
			receivableId: "={{ $('Create receivable').item.json.id }}",
		}),
	]);
}

export function vendorsPayablesWorkflow(tag: string): WorkflowJson {
	return chain(IDS.vendorsPayables, 'e2e: vendors and payables', [
		manual(),
		action('Create vendor', {
			resource: 'vendor',
			operation: 'create',
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
		action('Update vendor', {
			resource: 'vendor',
			operation: 'update',
			vendorId: { __rl: true, mode: 'id', value: "={{ $('Create vendor').item.json.id }}" },
			updateFields: { name: `E2E Vendor ${tag} Renamed` },
		}),
		action('Get vendor', {
			resource: 'vendor',
			operation: 'get',
			vendorId: { __rl: true, mode: 'id', value: "={{ $('Create vendor').item.json.id }}" },
			simplify: true,
		}),
		action('Find vendor', {
			resource: 'vendor',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: { search: `E2E Vendor ${tag}` },
		}),
		action('Create payable', {
			resource: 'payable',
			operation: 'create',
			invoiceNumber: `E2E-${tag}-P1`,
			amount: 410.25,
			vendorId: { __rl: true, mode: 'id', value: "={{ $('Create vendor').item.json.id }}" },
			additionalFields: { dueDate: '2031-05-01', notes: 'e2e bill', paymentMethod: 'ach' },
		}),
		action('Update payable', {
			resource: 'payable',
			operation: 'update',
			payableId: "={{ $('Create payable').item.json.id }}",
			updateFields: { status: 'ready' },
		}),
		action(
			'All vendors',
			{
				resource: 'vendor',
				operation: 'getAll',
				returnAll: true,
				filters: {},
			},
			{ executeOnce: true },
		),
	]);
}

export function treasuryWorkflow(): WorkflowJson {
	return chain(IDS.treasury, 'e2e: treasury', [
		manual(),
		action('Deposit instructions', { resource: 'treasury', operation: 'getDepositInstructions' }),
		action('Balance', { resource: 'treasury', operation: 'getBalance' }),
		action('Deposits', {
			resource: 'treasury',
			operation: 'getTransactions',
			returnAll: true,
			filters: { type: 'deposit', from: '2000-01-01', to: '2100-12-31' },
		}),
		action(
			'First 120 transactions',
			{
				resource: 'treasury',
				operation: 'getTransactions',
				returnAll: false,
				limit: 120,
				filters: {},
			},
			{ executeOnce: true },
		),
	]);
}

export function webhookEndpointWorkflow(endpointId: string): WorkflowJson {
	return chain(IDS.webhookEndpoint, 'e2e: webhook endpoint', [
		manual(),
		action('Get endpoint', {
			resource: 'webhookEndpoint',
			operation: 'get',
			webhookEndpointId: endpointId,
		}),
		action('Update endpoint', {
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: endpointId,
			updateFields: {
				description: 'changed by the e2e suite',
				filterTypes: ['payable.paid', 'payable.failed'],
				disabled: true,
			},
		}),
	]);
}

/** Invalid input: must fail before any request is sent. */
export function badInputWorkflow(): WorkflowJson {
	return chain(IDS.badInput, 'e2e: bad input', [
		manual(),
		action('Create receivable', {
			resource: 'receivable',
			operation: 'create',
			invoiceNumber: 'E2E-BAD-1',
			amount: 0,
			additionalFields: { customerEmail: 'ap@globex.example' },
		}),
	]);
}

export function expiredKeyWorkflow(): WorkflowJson {
	const node = action('Balance', { resource: 'treasury', operation: 'getBalance' });
	node.credentials = credentials(BAD_KEY_CREDENTIAL_ID, 'Business Finance expired key');
	return chain(IDS.expiredCredentialCheck, 'e2e: expired key', [manual(), node]);
}

export const TRIGGER_WEBHOOK_ID = '6a0f8c52-1111-4c1a-9e01-00000000e2e1';

/** At typeVersion 2, as a new workflow has it (the early one stays at 1, as saved workflows). */
export function triggerWorkflow(endpointId: string): WorkflowJson {
	return triggerThenKeep(
		2,
		IDS.triggerExisting,
		'e2e: trigger on an existing endpoint',
		'On receivable paid',
		TRIGGER_WEBHOOK_ID,
		{
			webhookEndpointId: endpointId,
			events: ['receivable.paid', 'receivable.overdue'],
			options: {},
		},
	);
}

export const TRIGGER_EARLY_WEBHOOK_ID = '6a0f8c52-2222-4c1a-9e01-00000000e2e2';

/** A trigger that creates its endpoint, for vendor.created (no other e2e trigger listens to it). */
export function triggerEarlyWorkflow(): WorkflowJson {
	return triggerThenKeep(
		1,
		IDS.triggerEarly,
		'e2e: trigger that creates its endpoint',
		'On vendor created',
		TRIGGER_EARLY_WEBHOOK_ID,
		{
			webhookEndpointId: '',
			events: ['vendor.created'],
			options: {},
		},
	);
}

function triggerThenKeep(
	typeVersion: 1 | 2,
	id: string,
	name: string,
	triggerName: string,
	webhookId: string,
	parameters: Record<string, unknown>,
): WorkflowJson {
	return {
		id,
		name,
		nodes: [
			{
				id: nodeId(),
				name: triggerName,
				type: TRIGGER,
				typeVersion,
				position: [0, 0],
				webhookId,
				parameters,
				credentials: credentials(),
			},
			{
				id: nodeId(),
				name: 'Keep',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [triggerName]: { main: [[{ node: 'Keep', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

export { rl };

/** An example as imported by a user who has no account for a third-party node yet. */
export function exampleWithDisabled(
	file: string,
	id: string,
	type: string,
): WorkflowJson & { id: string } {
	return exampleCopy(file, id, { disable: type });
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

/** The node of a workflow that has `name`. */
export function nodeNamed(workflow: WorkflowJson, name: string): Node {
	const node = workflow.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`${workflow.name} has no node "${name}"`);
	return node;
}

/**
 * Examples 01d/01e as a user of n8n 1.x sets them up (examples/README.md): the Data Table node
 * of 1.x has no table operations, so the table is created by hand and the node that creates it
 * is deleted (its input goes straight to the next node); the upsert names the table by its id.
 */
export function withTableCreatedByHand(
	workflow: WorkflowJson & { id: string },
	id: string,
	tableNode: string,
	tableId: string,
): WorkflowJson & { id: string } {
	const copy = JSON.parse(JSON.stringify(workflow));
	copy.id = id;
	copy.name = `${copy.name} (n8n 1.x: table created by hand)`;
	const next = copy.connections[tableNode].main[0][0].node;
	copy.nodes = copy.nodes.filter((n: Node) => n.name !== tableNode);
	delete copy.connections[tableNode];
	for (const from of Object.values(copy.connections) as any[]) {
		for (const link of from.main[0]) if (link.node === tableNode) link.node = next;
	}
	for (const node of copy.nodes) {
		if (node.parameters.dataTableId) node.parameters.dataTableId = rl(tableId);
	}
	return copy;
}
