/** Saved workflows depend on these public names (README, Operations) and node-level facts. */
import type { INodeProperties } from 'n8n-workflow';
import { BusinessFinance } from '../../nodes/BusinessFinance/BusinessFinance.node';
import { BusinessFinanceTrigger } from '../../nodes/BusinessFinance/BusinessFinanceTrigger.node';
import { BusinessFinancePollingTrigger } from '../../nodes/BusinessFinance/BusinessFinancePollingTrigger.node';
import { BusinessFinanceApi } from '../../credentials/BusinessFinanceApi.credentials';

const node = new BusinessFinance();
const d = node.description;
const { NodeHelpers } = jest.requireActual('n8n-workflow') as typeof import('n8n-workflow');
const displayed = (property: INodeProperties, parameters: object) =>
	NodeHelpers.displayParameter(
		parameters as never,
		property,
		{ typeVersion: 1 } as never,
		d,
		parameters as never,
	);

const words = (text: string) => text.split(/\s+/).filter(Boolean);
// The values the service's API document and contract give, written out here (not imported from
// the constants the node builds its options from, so that a slip in those fails).
const EVENT_TYPES = words(
	`receivable.created receivable.updated receivable.sent receivable.paid
	receivable.overdue receivable.cancelled payable.created payable.updated payable.ready payable.paid
	payable.failed vendor.created vendor.updated treasury.transaction.created
	treasury.transaction.completed treasury.transaction.failed`,
);
const PAYMENT_METHODS = ['ach', 'wire', 'crypto'];
/** Which payment methods each bank or wallet detail applies to (contract: Vendors). */
const DETAIL_METHODS: Record<string, string[]> = {
	bankName: ['ach', 'wire'],
	accountName: ['ach', 'wire'],
	accountNumber: ['ach', 'wire'],
	routingNumber: ['ach', 'wire'],
	swiftCode: ['wire'],
	iban: ['wire'],
	bankAddress: ['wire'],
	walletAddress: ['crypto'],
	walletChain: ['crypto'],
};
const PAYMENT_DETAILS = Object.keys(DETAIL_METHODS).join(' ');
// resource → operation → [top-level parameters, collection name, collection fields]
const INTERFACE: Record<string, Record<string, [string[], string?, string[]?]>> = {
	receivable: {
		create: [
			words('invoiceNumber amount'),
			'additionalFields',
			words('customerId customerName customerEmail dueDate notes sendImmediately'),
		],
		update: [['receivableId'], 'updateFields', words('status notes dueDate')],
		send: [['receivableId']],
	},
	payable: {
		create: [
			words('invoiceNumber amount vendorId'),
			'additionalFields',
			words(`vendorName vendorEmail dueDate notes paymentMethod ${PAYMENT_DETAILS}`),
		],
		update: [['payableId'], 'updateFields', words('status notes dueDate')],
	},
	vendor: {
		create: [words('name paymentMethod'), 'additionalFields', words(`email ${PAYMENT_DETAILS}`)],
		get: [words('vendorId simplify')],
		getAll: [words('returnAll limit simplify'), 'filters', ['search']],
		update: [['vendorId'], 'updateFields', words('name email paymentMethod')],
	},
	treasury: {
		getDepositInstructions: [[]],
		getTransactions: [words('returnAll limit simplify'), 'filters', words('from to type')],
		getBalance: [[]],
	},
	webhookEndpoint: {
		get: [['webhookEndpointId']],
		update: [['webhookEndpointId'], 'updateFields', words('url description filterTypes disabled')],
	},
};

/** The tool descriptions seen so far: each operation's differs from every other's. */
const toolDescriptions: string[] = [];

/**
 * The properties n8n shows for a resource/operation, on the action node or its `@tool` (whose
 * Output is `output`).
 */
function shown(
	resource: string,
	operation: string,
	asTool = false,
	output = 'simplified',
): INodeProperties[] {
	return d.properties.filter((p) => {
		const show = p.displayOptions?.show;
		if (!show) return true;
		if (show['@tool'] && !show['@tool'].includes(asTool)) return false;
		if (show.output && !show.output.includes(output)) return false;
		if (show.resource && !show.resource.includes(resource)) return false;
		if (show.operation && !show.operation.includes(operation)) return false;
		return true;
	});
}

it('node facts n8n and saved workflows rely on', () => {
	expect(d.name).toBe('businessFinance');
	expect(d.displayName).toBe('Business Finance');
	expect(d.version).toBe(1);
	expect(d.usableAsTool).toBe(true);
	expect(d.subtitle).toBe('={{$parameter["operation"] + ": " + $parameter["resource"]}}');
	expect(d.credentials).toEqual([
		{ name: 'businessFinanceApi', required: true, testedBy: 'businessFinanceApiTest' },
	]);
	expect(typeof node.methods.credentialTest.businessFinanceApiTest).toBe('function');
	const resource = d.properties.find((p) => p.name === 'resource')!;
	expect(resource.options!.map((o) => (o as { value: string }).value).sort()).toEqual(
		Object.keys(INTERFACE).sort(),
	);
});

describe.each(
	Object.entries(INTERFACE).flatMap(([r, ops]) =>
		Object.entries(ops).map(([o, spec]) => [r, o, spec] as const),
	),
)('%s / %s', (resource, operation, [params, collection, fields]) => {
	const props = shown(resource, operation);
	const names = props.map((p) => p.name);

	it('is an operation of its resource, with an action name, showing exactly the interface parameters (plus the node options and notices)', () => {
		const op = props.find((p) => p.name === 'operation')!;
		const option = op.options!.find((o) => (o as { value: string }).value === operation);
		// n8n's UX guideline: "Update row in sheet", no articles (the nodes panel lists these)
		expect((option as { action?: string } | undefined)?.action).toMatch(/^[A-Z]/);
		expect((option as { action: string }).action).not.toMatch(/\b(a|an|the)\b/i);
		const expected = [
			'resource',
			'operation',
			...params,
			...(collection ? [collection] : []),
			'options',
		];
		const actual = props.filter((p) => p.type !== 'notice').map((p) => p.name);
		expect(actual.sort()).toEqual(expected.sort());
		for (const name of names) expect(names.filter((n) => n === name)).toHaveLength(1);
	});

	it('as a tool, also one Tool Description, the operation’s own, and the Output choice (Fields with Selected Fields)', () => {
		const asTool = shown(resource, operation, true).filter((p) => p.type !== 'notice');
		const added = asTool.filter((p) => !props.includes(p));
		expect(added.map((p) => p.name)).toEqual(['toolDescription', 'output']);
		expect(toolDescriptions).not.toContain(added[0].default);
		toolDescriptions.push(added[0].default as string);
		expect(added[1].default).toBe('simplified');
		const options = added[1].options!.map((o) => (o as { value: string }).value);
		expect(options).toEqual(['raw', 'selected', 'simplified']);
		const selected = shown(resource, operation, true, 'selected').filter(
			(p) => p.type !== 'notice' && !asTool.includes(p),
		);
		expect(selected.map((p) => p.name)).toEqual(['outputFields']);
	});

	if (collection) {
		it(`${collection} holds exactly the interface fields`, () => {
			const coll = props.find((p) => p.name === collection)!;
			expect(coll.type).toBe('collection');
			const inner = (coll.options as INodeProperties[]).map((o) => o.name);
			expect(inner.sort()).toEqual([...fields!].sort());
		});
	}
});

it('option values are the API’s', () => {
	const all = (props: INodeProperties[]): INodeProperties[] =>
		props.flatMap((p) => [
			p,
			...(p.type === 'collection' ? all(p.options as INodeProperties[]) : []),
		]);
	const values = (name: string) =>
		[
			...new Set(
				all(d.properties)
					.filter((p) => p.name === name)
					.flatMap((p) => (p.options as Array<{ value: string }>).map((o) => o.value)),
			),
		].sort();
	expect(values('paymentMethod')).toEqual(['ach', 'crypto', 'wire']);
	expect(values('walletChain')).toEqual(
		words('arbitrum base bitcoin ethereum optimism polygon solana tron'),
	);
	expect(values('type')).toEqual(['conversion', 'deposit', 'withdrawal']);
	expect(values('filterTypes')).toEqual([...EVENT_TYPES].sort());
	expect(values('status')).toEqual(['cancelled', 'draft', 'pending_review', 'ready']);
});

it('vendorId is a resource locator with list (searchVendors) and id modes; Simplify is off by default', () => {
	const locators = d.properties.filter((p) => p.name === 'vendorId');
	expect(locators).toHaveLength(3);
	for (const l of locators) {
		expect(l.type).toBe('resourceLocator');
		expect(l.modes!.map((m) => m.name)).toEqual(['list', 'id']);
		expect(l.modes![0].typeOptions?.searchListMethod).toBe('searchVendors');
	}
	const simplify = d.properties.filter((p) => p.name === 'simplify');
	expect(simplify.map((p) => p.default)).toEqual([false, false, false]);
});

it('limit: 50 by default, at least 1, no maximum (it may exceed the page size); Max Wait: 300 s, at most one day', () => {
	const limits = d.properties.filter((p) => p.name === 'limit');
	const expected = [50, 1, undefined];
	expect(limits.map((l) => [l.default, l.typeOptions?.minValue, l.typeOptions?.maxValue])).toEqual(
		[expected, expected], // vendor → getAll, treasury → getTransactions
	);
	const options = d.properties.find((p) => p.name === 'options')!.options as INodeProperties[];
	const wait = options.find((o) => o.name === 'rateLimitWaitSeconds')!;
	// A longer wait would pass Node's timer limit (about 24.8 days).
	expect([wait.default, wait.typeOptions?.maxValue]).toEqual([300, 86_400]);
});

it.each([
	['sendNotice', 'send', {}, true],
	['sendNotice', 'create', {}, false],
	['sendImmediatelyNotice', 'create', { sendImmediately: true }, true],
	['sendImmediatelyNotice', 'create', { sendImmediately: false }, false],
	['sendImmediatelyNotice', 'create', {}, false],
])(
	'the customer-is-emailed notice %s on receivable %s with %j: shown %s',
	(name, operation, additionalFields, shown) => {
		const notice = d.properties.find((p) => p.name === name)!;
		expect(notice.type).toBe('notice');
		const parameters = { resource: 'receivable', operation, additionalFields };
		expect(displayed(notice, parameters)).toBe(shown);
	},
);

describe('bank and wallet details are shown only for the payment methods they apply to (contract: Vendors)', () => {
	const collection = (resource: string) =>
		shown(resource, 'create').find((p) => p.name === 'additionalFields')!
			.options as INodeProperties[];
	const visible = (resource: string, field: string, parameters: Record<string, unknown>) =>
		NodeHelpers.displayParameterPath(
			{ parameters } as never,
			collection(resource).find((o) => o.name === field)!,
			'parameters.additionalFields',
			null,
			d,
		);

	// vendor create: the method is a top-level parameter; payable create: a sibling in the collection.
	const vendor = (paymentMethod: string) => ({
		resource: 'vendor',
		operation: 'create',
		paymentMethod,
		additionalFields: {},
	});
	const payable = (additionalFields: object) => ({
		resource: 'payable',
		operation: 'create',
		additionalFields,
	});

	it.each(
		Object.entries(DETAIL_METHODS).flatMap(([field, methods]) =>
			PAYMENT_METHODS.map((method) => [field, method, methods.includes(method)] as const),
		),
	)('%s with %s: shown %s', (field, method, applies) => {
		expect(visible('vendor', field, vendor(method))).toBe(applies);
		expect(visible('payable', field, payable({ paymentMethod: method }))).toBe(applies);
	});

	it.each(Object.keys(DETAIL_METHODS))(
		'%s is shown while no method is chosen (payable), or the method is an expression',
		(field) => {
			expect(visible('payable', field, payable({}))).toBe(true);
			expect(visible('vendor', field, vendor('={{ $json.method }}'))).toBe(true);
		},
	);
});

it('Event Types on a webhook endpoint update show the trigger’s labels, from one definition', () => {
	const update = shown('webhookEndpoint', 'update').find((p) => p.name === 'updateFields')!;
	const filterTypes = (update.options as INodeProperties[]).find((o) => o.name === 'filterTypes')!;
	const trigger = new BusinessFinanceTrigger().description.properties.find(
		(p) => p.name === 'events',
	)!;
	const label = (options: INodeProperties['options'], value: string) =>
		(options as Array<{ name: string; value: string }>).find((o) => o.value === value)?.name;
	for (const type of EVENT_TYPES) {
		expect(label(filterTypes.options, type)).toBe(label(trigger.options, type));
		expect(label(filterTypes.options, type)).not.toContain('.');
	}
	expect(label(filterTypes.options, 'receivable.created')).toBe('Receivable Created');
});

describe('optional fields and list options are sorted A–Z (both nodes)', () => {
	const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
	const sorted = (names: string[]) => [...names].sort((a, b) => collator.compare(a, b));
	function lists(props: INodeProperties[], path: string): Array<[string, string[]]> {
		return props.flatMap((p): Array<[string, string[]]> => {
			const here = `${path}${p.name}`;
			const options = (p.options ?? []) as INodeProperties[];
			if (p.type === 'collection')
				return [[here, options.map((f) => f.displayName)], ...lists(options, `${here}.`)];
			if (p.type === 'options' || p.type === 'multiOptions')
				return [[here, options.map((o) => o.name)]];
			return [];
		});
	}
	const all = [
		...lists(d.properties, ''),
		...lists(new BusinessFinanceTrigger().description.properties, 'trigger.'),
	];

	it('finds the lists it checks', () => {
		const some = `additionalFields paymentMethod additionalFields.walletChain updateFields.filterTypes
			trigger.events trigger.options.output`;
		expect(all.map(([name]) => name)).toEqual(expect.arrayContaining(words(some)));
	});

	it.each(all)('%s', (_name, names) => {
		expect(names).toEqual(sorted(names));
	});
});

it.each(['BusinessFinance', 'BusinessFinanceTrigger'])(
	'%s.node.json has aliases for the words finance users search for',
	(file) => {
		const codex = require(`../../nodes/BusinessFinance/${file}.node.json`) as {
			node: string;
			alias?: string[];
		};
		expect(codex.node).toBe(
			`n8n-nodes-business-finance.${file.charAt(0).toLowerCase()}${file.slice(1)}`,
		);
		const aliases = (codex.alias ?? []).map((a) => a.toLowerCase());
		const terms = words('invoice bill ap ar payee supplier vendor payment');
		for (const word of [...terms, 'accounts payable', 'accounts receivable']) {
			expect(aliases).toContain(word);
		}
	},
);

it('Validate All Before Sending is offered on receivable create and send, payable create and vendor create only', () => {
	const options = d.properties.find((p) => p.name === 'options')!;
	const option = (options.options as INodeProperties[]).find(
		(o) => o.name === 'validateAllBeforeSending',
	)!;
	expect(option.default).toBe(false);
	expect(option.description).toMatch(/send nothing if any item is invalid/);
	const offered = Object.entries(INTERFACE)
		.flatMap(([resource, ops]) => Object.keys(ops).map((operation) => ({ resource, operation })))
		.filter((root) => displayed(option, root))
		.map(({ resource, operation }) => `${resource}.${operation}`);
	expect(offered.sort()).toEqual([
		'payable.create',
		'receivable.create',
		'receivable.send',
		'vendor.create',
	]);
});

/**
 * n8n's next lint rule `require-continue-on-fail` (in n8n's repository, not yet in the published
 * plugin) reads `this.continueOnFail()` in the body of each node class's execute(): read the
 * source the same way here, so the call cannot move back into the router unnoticed.
 */
describe('execute() reads Continue On Fail itself', () => {
	const ts = jest.requireActual('typescript') as typeof import('typescript');
	const file = require('path').join(
		__dirname,
		'../../nodes/BusinessFinance/BusinessFinance.node.ts',
	);
	const source = ts.createSourceFile(
		file,
		require('fs').readFileSync(file, 'utf8'),
		ts.ScriptTarget.Latest,
		true,
	);
	const calls = (node: import('typescript').Node): boolean =>
		(ts.isCallExpression(node) &&
			ts.isPropertyAccessExpression(node.expression) &&
			node.expression.expression.kind === ts.SyntaxKind.ThisKeyword &&
			node.expression.name.text === 'continueOnFail') ||
		(ts.forEachChild(node, (child) => calls(child) || undefined) ?? false);

	it('BusinessFinance.execute() calls this.continueOnFail()', () => {
		const executes: import('typescript').MethodDeclaration[] = [];
		const visit = (node: import('typescript').Node): void => {
			if (ts.isMethodDeclaration(node) && node.name.getText(source) === 'execute')
				executes.push(node);
			ts.forEachChild(node, visit);
		};
		visit(source);
		expect(executes).toHaveLength(1);
		expect(calls(executes[0].body!)).toBe(true);
	});
});

/** n8n's AI workflow builder reads `builderHint` (n8n-workflow's IBuilderHint), as n8n's own nodes give it. */
it('every hint, on the three nodes and the credential, is within n8n’s 120 characters', () => {
	const nodes = [
		d,
		new BusinessFinanceTrigger().description,
		new BusinessFinancePollingTrigger().description,
	];
	const hints: string[] = [];
	const collect = (properties: unknown[]): void => {
		for (const p of properties as Array<INodeProperties & { values?: unknown[] }>) {
			if (p.hint) hints.push(p.hint);
			for (const child of p.options ?? []) if (typeof child === 'object') collect([child]);
			if (p.values) collect(p.values);
		}
	};
	for (const description of nodes) collect(description.properties);
	collect(new BusinessFinanceApi().properties);
	expect(hints.length).toBeGreaterThan(5);
	expect(hints.filter((hint) => hint.length > 120)).toEqual([]);
});

describe('builder hints', () => {
	const { BusinessFinancePollingTrigger } =
		require('../../nodes/BusinessFinance/BusinessFinancePollingTrigger.node') as typeof import('../../nodes/BusinessFinance/BusinessFinancePollingTrigger.node');
	const PACKAGE = require('../../package.json').name as string;
	const nodes = [
		new BusinessFinance(),
		new BusinessFinanceTrigger(),
		new BusinessFinancePollingTrigger(),
	];
	const types = nodes.map((n) => `${PACKAGE}.${n.description.name}`);

	it.each(nodes.map((n) => [n.description.name, n] as const))(
		'%s names only nodes that exist: this package’s other two (and n8n’s Redis, for the claim)',
		(name, n) => {
			const hint = n.description.builderHint!;
			expect(hint.searchHint!.length).toBeGreaterThan(80);
			const related = hint.relatedNodes!.map((r) => r.nodeType);
			const others = types.filter((t) => t !== `${PACKAGE}.${name}`);
			expect(related.filter((t) => t.startsWith(`${PACKAGE}.`)).sort()).toEqual(others.sort());
			expect(related.filter((t) => !t.startsWith(`${PACKAGE}.`))).toEqual(
				name === 'businessFinanceTrigger' ? ['n8n-nodes-base.redis'] : [],
			);
		},
	);

	it('the webhook trigger tells a builder to de-duplicate on the event id; the event choices have hints', () => {
		const [, trigger, polling] = nodes;
		expect(trigger.description.builderHint!.searchHint).toMatch(
			/Redis node \(operation Increment, key bf-event:\{\{ \$json\.id \}\}, Expire on.*count is 1/,
		);
		const events = trigger.description.properties.find((p) => p.name === 'events')!;
		const event = polling.description.properties.find((p) => p.name === 'event')!;
		for (const p of [events, event])
			expect(p.builderHint?.propertyHint?.length).toBeGreaterThan(60);
	});
});
