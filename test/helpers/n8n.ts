/**
 * Runs a real node through n8n-core's `WorkflowExecute` with real credential resolution and real
 * HTTP; only n8n's server is replaced. Errors in the run data are serialised objects: compare
 * `error.name`, not `instanceof`. The transport keeps rate-limit state per API key for the whole
 * jest file: use a distinct key for tests that change the sandbox's rate limit.
 */
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	Workflow,
	type ExecutionBaseError,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialsHelper,
	type ICredentialType,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type INodeListSearchResult,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type NodeExecutionHint,
	type IRequestOptionsSimplified,
	type IRun,
	type IConnections,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { BusinessFinanceApi } from '../../credentials/BusinessFinanceApi.credentials';

/** The node's `this.logger`; n8n-core has its own copies of @n8n/di and @n8n/backend-common. */
export function n8nLogger(): { warn(message: string): void; info(message: string): void } {
	const fromCore = (name: string) => require(require.resolve(name, { paths: [coreDir] }));
	const { Container } = fromCore('@n8n/di');
	return Container.get(fromCore('@n8n/backend-common').Logger);
}
const coreDir = require('path').dirname(require.resolve('n8n-core'));

const ITEMS_NODE_TYPE = 'harness.items';

/** Plays Manual Trigger + Code node: emits its `items` parameter, each with its `pairedItem`. */
class HarnessItemsNode implements INodeType {
	description = {
		displayName: 'Harness Items',
		name: ITEMS_NODE_TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Emits the given items',
		defaults: { name: 'Items' },
		inputs: [],
		outputs: ['main'],
		properties: [
			{ displayName: 'Items', name: 'items', type: 'json', default: '[{}]' } as INodeProperties,
		],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const list = JSON.parse(this.getNode().parameters.items as string) as IDataObject[];
		return [list.map((json, i) => ({ json, pairedItem: { item: i } }))];
	}
}

/** The node types a workflow can hold; every one of this package's is unversioned. */
export function makeNodeTypes(types: Record<string, INodeType>): INodeTypes {
	const byName = (name: string) => {
		const t = types[name];
		if (!t) throw new Error(`harness: unknown node type ${name}`);
		return t;
	};
	return { getByName: byName, getByNameAndVersion: byName, getKnownTypes: () => ({}) };
}

/** Applies a credential type's `authenticate` the way n8n's CredentialsHelper does. */
async function applyAuthenticate(
	credentialType: ICredentialType,
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	workflow?: Workflow,
	node?: INode,
): Promise<IHttpRequestOptions> {
	const authenticate = credentialType.authenticate;
	// Only the generic form: the one this package's credential uses.
	if (typeof authenticate !== 'object' || authenticate.type !== 'generic') return requestOptions;
	const resolve = (value: string): string => {
		if (typeof value !== 'string' || value.charAt(0) !== '=') return value;
		if (!workflow || !node) throw new Error('harness: expression in authenticate needs a workflow');
		return String(
			workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials } as never,
				undefined,
				'',
			),
		);
	};
	const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
	for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
		if (!target[outerKey]) target[outerKey] = {};
		for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
			target[outerKey][resolve(key)] = resolve(value);
		}
	}
	return requestOptions;
}

/** n8n's credential resolution for this package's one credential type (it extends none). */
export class TestCredentialsHelper implements ICredentialsHelper {
	private readonly types: Record<string, ICredentialType> = {
		businessFinanceApi: new BusinessFinanceApi(),
	};

	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {}

	getParentTypes(): string[] {
		return [];
	}
	isCredentialUsableByNode(): boolean {
		return true;
	}
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.types[typeName];
		if (!type) throw new Error(`harness: unknown credential type ${typeName}`);
		return await applyAuthenticate(
			type,
			credentials,
			requestOptions as IHttpRequestOptions,
			workflow,
			node,
		);
	}
	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}
	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}
	async getCredentials(): Promise<ICredentials> {
		throw new Error('harness: getCredentials is not supported (use getDecrypted)');
	}
	async getDecrypted(
		...args: [IWorkflowExecuteAdditionalData, INodeCredentialsDetails, string]
	): Promise<ICredentialDataDecryptedObject> {
		const type = args[2];
		const found = this.data[type];
		if (!found) throw new Error(`harness: no test credential for ${type}`);
		// Like n8n: fill in the credential's defaults for fields the test did not set.
		const defaults: ICredentialDataDecryptedObject = {};
		for (const p of this.types[type]?.properties ?? []) {
			if (p.default !== undefined) defaults[p.name] = p.default as never;
		}
		return { ...defaults, ...found };
	}
	async updateCredentials(): Promise<void> {}
	async updateCredentialsOauthTokenData(): Promise<void> {}
	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}

/** n8n's URLs under `baseUrl`; what n8n's server does beyond them throws. */
export function makeAdditionalData(
	credentialsHelper: ICredentialsHelper,
	baseUrl = 'http://127.0.0.1',
	hooks = new ExecutionLifecycleHooks('manual', 'harness-execution', {} as never),
): IWorkflowExecuteAdditionalData {
	const url = (path: string) => `${baseUrl}/${path}`;
	const unsupported = (what: string) => async () => {
		throw new Error(`harness: ${what} are not supported`);
	};
	return {
		credentialsHelper,
		hooks,
		executionId: 'harness-execution',
		currentNodeExecutionIndex: 0,
		restApiUrl: url('rest'),
		instanceBaseUrl: url(''),
		formBaseUrl: url('form'),
		formWaitingBaseUrl: url('form-waiting'),
		formTestBaseUrl: url('form-test'),
		webhookBaseUrl: url('webhook'),
		webhookWaitingBaseUrl: url('webhook-waiting'),
		webhookTestBaseUrl: url('webhook-test'),
		mcpBaseUrl: url('mcp'),
		mcpTestBaseUrl: url('mcp-test'),
		variables: {},
		executeWorkflow: unsupported('sub-workflows'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: unsupported('task runners'),
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** A trigger alone in an active workflow; `load` builds a run's Workflow on saved static data. */
export function activeTrigger(
	nodeType: INodeType,
	node: Pick<INode, 'id' | 'name' | 'parameters'> & Partial<INode>,
	credentials: ICredentialDataDecryptedObject,
) {
	const type = `n8n-nodes-business-finance.${nodeType.description.name}`;
	const account = { id: 'cred-1', name: 'Business Finance account' };
	const full: INode = { type, typeVersion: 1, position: [0, 0], ...node };
	full.credentials = { businessFinanceApi: account };
	const credentialsHelper = new TestCredentialsHelper({ businessFinanceApi: credentials });
	const load = (id: string, staticData: IDataObject, current = nodeType) =>
		new Workflow({
			id,
			name: `Test ${id}`,
			nodes: [full],
			connections: {},
			active: true,
			nodeTypes: makeNodeTypes({ [type]: current }),
			staticData: JSON.parse(JSON.stringify(staticData)),
			settings: { executionOrder: 'v1' },
		});
	return { node: full, credentialsHelper, load };
}

interface HarnessOptions {
	nodeType: INodeType;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
}

function harness(opts: HarnessOptions, node: Partial<INode>, items?: IDataObject[]) {
	const desc = opts.nodeType.description;
	const credentials: INode['credentials'] = {};
	for (const name of Object.keys(opts.credentials ?? {})) {
		credentials[name] = { id: `cred-${name}`, name: `Test ${name}` };
	}
	const nodeUnderTest = {
		id: 'node',
		name: 'Node',
		type: desc.name,
		typeVersion: Math.max(...[desc.version].flat()),
		position: [200, 0],
		parameters: {},
		credentials,
		...node,
	} as INode;
	const start: INode = {
		id: 'items',
		name: 'Items',
		type: ITEMS_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(items ?? [{}]) },
	};
	const nodes = items ? [start, nodeUnderTest] : [nodeUnderTest];
	const connections: IConnections = items
		? { Items: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } }
		: {};
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness',
		nodes,
		connections,
		active: false,
		nodeTypes: makeNodeTypes({
			[ITEMS_NODE_TYPE]: new HarnessItemsNode(),
			[desc.name]: opts.nodeType,
		}),
		settings: { executionOrder: 'v1' },
	});
	const credentialsHelper = new TestCredentialsHelper(opts.credentials ?? {});
	return { workflow, nodes, connections, node: nodeUnderTest, credentialsHelper };
}

interface RunNodeOptions extends HarnessOptions {
	parameters: INodeParameters;
	items?: IDataObject[];
	continueOnFail?: boolean;
	onError?: INode['onError']; // overrides continueOnFail
	/** The node's Settings: n8n's own Retry On Fail. */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;
}

export interface RunNodeResult {
	serialised: string; // the whole run: assert that secrets never appear in it
	items: INodeExecutionData[]; // the first output
	outputs: INodeExecutionData[][];
	error?: ExecutionBaseError; // the node's, or the one n8n threw before any node ran
	hints: NodeExecutionHint[]; // what n8n shows in the output pane
}

export async function runNode(opts: RunNodeOptions): Promise<RunNodeResult> {
	const onError = opts.onError ?? (opts.continueOnFail ? 'continueRegularOutput' : undefined);
	const { workflow, nodes, connections, credentialsHelper } = harness(
		opts,
		{ parameters: opts.parameters, ...(onError ? { onError } : {}), ...opts.settings },
		opts.items ?? [{}],
	);
	let resolveRun: (run: IRun) => void = () => {};
	const done = new Promise<IRun>((resolve) => (resolveRun = resolve));
	const hooks = new ExecutionLifecycleHooks('manual', 'harness-execution', {
		...{ id: 'harness-workflow', name: 'Harness', active: false, activeVersionId: null },
		...{ isArchived: false, nodes, connections, createdAt: new Date(), updatedAt: new Date() },
	} as never);
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveRun(fullRunData));
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	const additionalData = makeAdditionalData(credentialsHelper, undefined, hooks);
	const engine = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	let run: IRun;
	try {
		const returned = await engine.processRunExecutionData(workflow);
		run = (await done) ?? returned;
	} catch (error) {
		// Thrown before any node runs: n8n's own parameter checks (a required parameter left
		// empty, a resource-locator value failing its mode's regex).
		const { message, description } = error as ExecutionBaseError;
		const serialised = JSON.stringify({ message, description });
		return { error: error as ExecutionBaseError, serialised, items: [], outputs: [], hints: [] };
	}
	const task = run.data.resultData.runData.Node?.[0];
	const outputs = (task?.data?.main ?? []).map((o) => o ?? []);
	const error = task?.error ?? run.data.resultData.error;
	const hints = task?.hints ?? [];
	return { serialised: JSON.stringify(run), outputs, items: outputs[0] ?? [], error, hints };
}

interface RunListSearchOptions extends HarnessOptions {
	method: string; // under methods.listSearch
	filter?: string;
	paginationToken?: string;
}

/** As the editor calls it (n8n's DynamicNodeParametersService): through LoadOptionsContext. */
export async function runListSearch(opts: RunListSearchOptions): Promise<INodeListSearchResult> {
	const method = opts.nodeType.methods?.listSearch?.[opts.method];
	if (!method) throw new Error(`harness: no listSearch method ${opts.method}`);
	const { workflow, node, credentialsHelper } = harness(opts, {});
	const additionalData = makeAdditionalData(credentialsHelper);
	additionalData.currentNodeParameters = node.parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters.vendorId');
	return await method.call(context, opts.filter, opts.paginationToken);
}
