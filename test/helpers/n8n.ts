/**
 * In-process n8n harness: runs a real node through n8n-core's `WorkflowExecute`, the engine
 * n8n itself uses, with real credentials resolution and real HTTP (n8n-core's axios path behind
 * `this.helpers.httpRequestWithAuthentication`). Nothing of the node under test is stubbed.
 *
 * What is provided instead of n8n's server (packages/cli):
 * - `nodeTypes`: a small registry holding the node(s) under test plus the harness's own start
 *   node `harness.items`, which emits the given input items (like a Manual Trigger followed by
 *   a Code node that returns them).
 * - `credentialsHelper`: returns the test credential data for a credential type, and implements
 *   `authenticate` exactly as n8n's CredentialsHelper does: a function `authenticate` is called,
 *   a generic one (`{type:'generic', properties:{headers|qs|body|auth: {...}}}`) has its
 *   `={{$credentials.x}}` expressions resolved through the workflow's expression engine and
 *   merged into the request options.
 * - `additionalData`: the fields WorkflowExecute reads, with lifecycle hooks that collect the run.
 *
 * Usage (the common case, one node after N input items):
 * ```ts
 * const res = await runNode({
 *   nodeType: new BusinessFinance(),
 *   parameters: { resource: 'vendor', operation: 'getAll', returnAll: true },
 *   items: [{ a: 1 }, { a: 2 }],
 *   credentials: { businessFinanceApi: { apiKey: sb.apiKey, baseUrl: sb.baseUrl } },
 *   credentialTypes: [new BusinessFinanceApi()],
 *   continueOnFail: false,
 * });
 * res.items;       // INodeExecutionData[] of the node's first output (json + pairedItem)
 * res.error;       // the node's error when it failed (NodeOperationError / NodeApiError), or the
 *                  // WorkflowHasIssuesError n8n throws before running (then res.run is undefined)
 * res.run;         // the full IRun (runData of every node)
 * res.serialised;  // JSON.stringify(res.run): assert that secrets never appear in it
 * ```
 * Other entry points:
 * - `runWorkflow({ nodes, connections, nodeTypes, credentials, credentialTypes })`: any workflow
 *   shape (start node = the first node unless `startNode` is given).
 * - `runListSearch({ nodeType, method, filter, paginationToken, credentials, credentialTypes })`:
 *   a resource-locator list search, called through n8n-core's LoadOptionsContext like the editor.
 * - `makeAdditionalData(credentialsHelper, hooks?)` and `TestCredentialsHelper`: to build other
 *   n8n-core contexts (WebhookContext, HookContext, CredentialTestContext...) with the same
 *   credential handling.
 * - `applyAuthenticate(credentialType, data, requestOptions)`: what a credential adds to a request.
 *
 * Notes:
 * - n8n checks parameters before running (required values, resource-locator regexes); a workflow
 *   refused that way has no `run` and reports the WorkflowHasIssuesError as `error`/`workflowError`.
 * - Errors in the run data are serialised objects: compare `error.name`, not `instanceof`.
 * - The transport keeps rate-limit state per API key for the whole process (per jest file): use a
 *   distinct key for tests that change the sandbox's rate limit.
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
	type IRequestOptionsSimplified,
	type IRun,
	type IConnections,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

/**
 * The logger n8n-core's contexts hand a node as `this.logger` (spy on it to see what a node
 * logs). n8n-core has its own copies of @n8n/di and @n8n/backend-common: resolved from there.
 */
export function n8nLogger(): { warn(message: string): void } {
	const fromCore = (name: string) => require(require.resolve(name, { paths: [coreDir] }));
	const { Container } = fromCore('@n8n/di');
	return Container.get(fromCore('@n8n/backend-common').Logger);
}
const coreDir = require('path').dirname(require.resolve('n8n-core'));

/** Name of the harness's start node type. */
export const ITEMS_NODE_TYPE = 'harness.items';

/**
 * A start node that emits the items found in its `items` parameter (an array of JSON objects),
 * each with its own `pairedItem`. Plays the role of Manual Trigger + Code node.
 */
export class HarnessItemsNode implements INodeType {
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
		const raw = this.getNode().parameters.items;
		const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [list.map((json, i) => ({ json, pairedItem: { item: i } }))];
	}
}

/** A node-type registry for the given node types, keyed by `description.name`. */
export function makeNodeTypes(types: Record<string, INodeType | IVersionedNodeType>): INodeTypes {
	return {
		getByName: (name) => {
			const t = types[name];
			if (!t) throw new Error(`harness: unknown node type ${name}`);
			return t;
		},
		getByNameAndVersion: (name, version) => {
			const t = types[name];
			if (!t) throw new Error(`harness: unknown node type ${name}`);
			if ('nodeVersions' in t) return t.getNodeType(version);
			return t;
		},
		getKnownTypes: () => ({}),
	};
}

/**
 * Applies a credential type's `authenticate` the way n8n's CredentialsHelper does.
 * Exported so that other tests (e.g. the credential's own) can check what it adds.
 */
export async function applyAuthenticate(
	credentialType: ICredentialType,
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	workflow?: Workflow,
	node?: INode,
): Promise<IHttpRequestOptions> {
	const authenticate = credentialType.authenticate;
	if (typeof authenticate === 'function') {
		return await authenticate(credentials, requestOptions);
	}
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

/** Credentials helper over a fixed map `credential type name → decrypted data`. */
export class TestCredentialsHelper implements ICredentialsHelper {
	/** Every credential type requested through getDecrypted, in order (for assertions). */
	readonly requested: string[] = [];

	constructor(
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
		private readonly types: Record<string, ICredentialType>,
	) {}

	getParentTypes(name: string): string[] {
		const ext = this.types[name]?.extends ?? [];
		return [...ext, ...ext.flatMap((n) => this.getParentTypes(n))];
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
		this.requested.push(type);
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

/**
 * The `additionalData` WorkflowExecute and the node contexts read: the credentials helper, the
 * lifecycle hooks, and placeholder URLs. Anything n8n's server would do beyond that throws.
 */
export function makeAdditionalData(
	credentialsHelper: ICredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks: hooks ?? new ExecutionLifecycleHooks('manual', 'harness-execution', {} as never),
		executionId: 'harness-execution',
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formBaseUrl: 'http://127.0.0.1/form',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1/form-test',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1/mcp-test',
		variables: {},
		executeWorkflow: async () => {
			throw new Error('harness: sub-workflows are not supported');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('harness: task runners are not supported');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface RunWorkflowOptions {
	nodes: INode[];
	connections: IConnections;
	/** Node types by `description.name`; the harness's items node is added automatically. */
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	/** Decrypted credential data by credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	credentialTypes?: ICredentialType[];
	/** Name of the node to start from (default: the first node). */
	startNode?: string;
	mode?: WorkflowExecuteMode;
}

export interface RunWorkflowResult {
	/** The full run; undefined when the workflow was refused before it started (see workflowError). */
	run?: IRun;
	/** An error thrown before any node ran (n8n's WorkflowHasIssuesError and the like). */
	workflowError?: ExecutionBaseError;
	/** Names of the nodes in the order they finished. */
	executionOrder: string[];
	credentialsHelper: TestCredentialsHelper;
	serialised: string;
}

/** Runs a workflow in-process with WorkflowExecute and resolves with the full run. */
export async function runWorkflow(opts: RunWorkflowOptions): Promise<RunWorkflowResult> {
	const mode = opts.mode ?? 'manual';
	const nodeTypes = makeNodeTypes({ [ITEMS_NODE_TYPE]: new HarnessItemsNode(), ...opts.nodeTypes });
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness',
		nodes: opts.nodes,
		connections: opts.connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const credentialTypes: Record<string, ICredentialType> = {};
	for (const t of opts.credentialTypes ?? []) credentialTypes[t.name] = t;
	const credentialsHelper = new TestCredentialsHelper(opts.credentials ?? {}, credentialTypes);

	let resolveRun: (run: IRun) => void = () => {};
	const done = new Promise<IRun>((resolve) => (resolveRun = resolve));
	const executionOrder: string[] = [];
	const hooks = new ExecutionLifecycleHooks(mode, 'harness-execution', {
		id: 'harness-workflow',
		name: 'Harness',
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes: opts.nodes,
		connections: opts.connections,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveRun(fullRunData));

	const additionalData = makeAdditionalData(credentialsHelper, hooks);

	const startName = opts.startNode ?? opts.nodes[0].name;
	const startNode = workflow.getNode(startName);
	if (!startNode) throw new Error(`harness: no node named ${startName}`);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	let returned: IRun;
	try {
		returned = await workflowExecute.processRunExecutionData(workflow);
	} catch (error) {
		// Thrown before any node runs, e.g. WorkflowHasIssuesError: n8n's own parameter checks
		// (a required parameter left empty, a resource-locator value failing its mode's regex).
		const workflowError = error as ExecutionBaseError;
		return {
			executionOrder,
			credentialsHelper,
			workflowError,
			serialised: JSON.stringify({
				message: workflowError.message,
				description: workflowError.description,
			}),
		};
	}
	const run = (await done) ?? returned;
	return { run, executionOrder, credentialsHelper, serialised: JSON.stringify(run) };
}

export interface RunNodeOptions {
	/** The node under test. */
	nodeType: INodeType | IVersionedNodeType;
	/** Its parameters exactly as a saved workflow holds them. */
	parameters: INodeParameters;
	/** JSON of the input items (default: one empty item). */
	items?: IDataObject[];
	/** Decrypted credential data by credential type name; attached to the node as well. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	credentialTypes?: ICredentialType[];
	/** The node setting "On Error: Continue" (n8n's `continueOnFail`). */
	continueOnFail?: boolean;
	/** The node's "On Error" setting; overrides `continueOnFail` (e.g. 'continueErrorOutput'). */
	onError?: INode['onError'];
	typeVersion?: number;
	/** Display name of the node in the workflow (default 'Node'). */
	nodeName?: string;
}

export interface RunNodeResult extends RunWorkflowResult {
	/** The node's first output. */
	items: INodeExecutionData[];
	/** All outputs of the node. */
	outputs: INodeExecutionData[][];
	/** The error the node failed with, if it did. */
	error?: ExecutionBaseError;
}

function latestVersion(nodeType: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const v = nodeType.description.version;
	return Array.isArray(v) ? Math.max(...v) : v;
}

/** Runs `items → node` and returns the node's output items or its error. */
export async function runNode(opts: RunNodeOptions): Promise<RunNodeResult> {
	const nodeName = opts.nodeName ?? 'Node';
	const desc = opts.nodeType.description;
	const typeName = desc.name;
	const version = opts.typeVersion ?? latestVersion(opts.nodeType);
	const credentials: INode['credentials'] = {};
	for (const name of Object.keys(opts.credentials ?? {})) {
		credentials[name] = { id: `cred-${name}`, name: `Test ${name}` };
	}
	const nodes: INode[] = [
		{
			id: 'items',
			name: 'Items',
			type: ITEMS_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(opts.items ?? [{}]) },
		},
		{
			id: 'node',
			name: nodeName,
			type: typeName,
			typeVersion: version,
			position: [200, 0],
			parameters: opts.parameters,
			credentials,
			...(opts.onError
				? { onError: opts.onError }
				: opts.continueOnFail
					? { onError: 'continueRegularOutput' as const }
					: {}),
		},
	];
	const connections: IConnections = {
		Items: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
	};
	const result = await runWorkflow({
		nodes,
		connections,
		nodeTypes: { [typeName]: opts.nodeType },
		credentials: opts.credentials,
		credentialTypes: opts.credentialTypes,
	});
	const task = result.run?.data.resultData.runData[nodeName]?.[0];
	const outputs = (task?.data?.main ?? []).map((o) => o ?? []);
	const error = task?.error ?? result.run?.data.resultData.error ?? result.workflowError;
	return { ...result, outputs, items: outputs[0] ?? [], error };
}

export interface RunListSearchOptions {
	nodeType: INodeType;
	/** Name of the method under `methods.listSearch`. */
	method: string;
	filter?: string;
	paginationToken?: string;
	/** The node's current parameters (as the editor would send them). */
	parameters?: INodeParameters;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	credentialTypes?: ICredentialType[];
	/** Path of the parameter being edited (default `parameters.vendorId`). */
	path?: string;
}

/**
 * Calls a resource-locator list-search method the way the editor does (n8n's
 * DynamicNodeParametersService): through n8n-core's `LoadOptionsContext`, so
 * `this.getCredentials` and `this.helpers.httpRequestWithAuthentication` are the real ones.
 */
export async function runListSearch(opts: RunListSearchOptions): Promise<INodeListSearchResult> {
	const desc = opts.nodeType.description;
	const method = opts.nodeType.methods?.listSearch?.[opts.method];
	if (!method) throw new Error(`harness: ${desc.name} has no listSearch method ${opts.method}`);
	const credentials: INode['credentials'] = {};
	for (const name of Object.keys(opts.credentials ?? {})) {
		credentials[name] = { id: `cred-${name}`, name: `Test ${name}` };
	}
	const node: INode = {
		id: 'node',
		name: 'Node',
		type: desc.name,
		typeVersion: latestVersion(opts.nodeType),
		position: [0, 0],
		parameters: opts.parameters ?? {},
		credentials,
	};
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: makeNodeTypes({ [desc.name]: opts.nodeType }),
		settings: { executionOrder: 'v1' },
	});
	const credentialTypes: Record<string, ICredentialType> = {};
	for (const t of opts.credentialTypes ?? []) credentialTypes[t.name] = t;
	const helper = new TestCredentialsHelper(opts.credentials ?? {}, credentialTypes);
	const additionalData = makeAdditionalData(helper);
	additionalData.currentNodeParameters = node.parameters;
	const context = new LoadOptionsContext(
		workflow,
		node,
		additionalData,
		opts.path ?? 'parameters.vendorId',
	);
	return await method.call(context, opts.filter, opts.paginationToken);
}
