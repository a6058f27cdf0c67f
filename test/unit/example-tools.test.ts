import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { defaultToolDescription } from '../helpers/scripted-model';

const EXAMPLES = join(__dirname, '..', '..', 'examples');

interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, any>;
}
interface Example {
	nodes: ExampleNode[];
	connections: Record<string, Record<string, unknown>>;
}

/** The description n8n gives the model: the node's own, or the operation's default. */
function descriptionOf({ type, parameters }: ExampleNode): string {
	const own = parameters.toolDescription ?? parameters.description;
	if (typeof own === 'string' && own.trim() !== '') return own;
	if (type.endsWith('.businessFinanceTool')) {
		return defaultToolDescription(parameters.resource, parameters.operation);
	}
	return '';
}

/** The keys of the description's "Inputs:" list: the first word of each entry. */
function describedInputs(description: string): string[] {
	const start = description.indexOf('Inputs: ');
	if (start < 0) return [];
	const entries: string[] = [];
	let depth = 0;
	let entry = '';
	for (const char of description.slice(start + 'Inputs: '.length)) {
		if (char === '(') depth++;
		if (char === ')') depth--;
		if (depth === 0 && (char === ',' || char === '.')) {
			entries.push(entry);
			entry = '';
			if (char === '.') break;
		} else entry += char;
	}
	return entries.map((e) => /^\s*([\w-]+)/.exec(e)?.[1] ?? e.trim());
}

function fromAiKeys(parameters: unknown): string[] {
	const text = JSON.stringify(parameters);
	const keys = [...text.matchAll(/\$fromAI\(\s*\\?['"`]([^'"`\\]*)/gi)].map((m) => m[1]);
	return [...new Set(keys)];
}

/** [file, tool node] for every node connected to an agent or MCP trigger as a tool. */
function exampleTools(): Array<[string, ExampleNode]> {
	const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
	return files.flatMap((file) => {
		const example = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Example;
		const tools = new Set(
			Object.entries(example.connections)
				.filter(([, outputs]) => 'ai_tool' in outputs)
				.map(([name]) => name),
		);
		return example.nodes
			.filter((n) => tools.has(n.name))
			.map((n): [string, ExampleNode] => [file, n]);
	});
}

describe('the examples’ tools', () => {
	const tools = exampleTools();

	it('are found (examples 06 and 07 offer tools)', () => {
		const files = new Set(tools.map(([file]) => file));
		expect(files).toEqual(new Set(['06-finance-tools-over-mcp.json', '07-finance-agent.json']));
	});

	it.each(tools.map(([file, node]) => [file, node.name, node]))(
		'%s, %s: the inputs its description names are its $fromAI keys',
		(_file, _name, node) => {
			const described = describedInputs(descriptionOf(node as ExampleNode)).sort();
			const filled = fromAiKeys((node as ExampleNode).parameters).sort();
			expect(described).toEqual(filled);
		},
	);

	it('get_transactions lets the model pick a window and a type (last week’s deposits)', () => {
		const found = tools.filter(([, n]) => n.name === 'get_transactions');
		expect(found).toHaveLength(2); // examples 06 and 07
		for (const [, node] of found) {
			expect(Object.keys(node.parameters.filters).sort()).toEqual(['from', 'to', 'type']);
			expect(fromAiKeys(node.parameters.filters).sort()).toEqual(['from', 'to', 'type']);
		}
	});
});

describe('the check itself', () => {
	it('finds each $fromAI key once, whatever its quotes', () => {
		const parameters = {
			a: "={{ $fromAI('limit', `How many`, 'number', 50) }}",
			b: { c: '={{ $fromAI("search") }} {{ $fromAI(`limit`) }}' },
		};
		expect(fromAiKeys(parameters).sort()).toEqual(['limit', 'search']);
	});
});

it('06 says on its canvas, beside propose_payable, to pick 06b again after importing', () => {
	const example = JSON.parse(
		readFileSync(join(EXAMPLES, '06-finance-tools-over-mcp.json'), 'utf8'),
	) as { nodes: Array<ExampleNode & { position: [number, number] }> };
	const tool = example.nodes.find((n) => n.name === 'propose_payable')!;
	const notes = example.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote');
	const beside = notes.filter(({ position: [x, y], parameters: p }) => {
		const [tx, ty] = tool.position;
		// a node is about 100 px wide: the note starts within reach of it, on either side
		return x <= tx + 200 && x + p.width >= tx - 100 && Math.abs(y - ty) <= 300;
	});
	expect(beside).toHaveLength(1);
	expect(beside[0].parameters.content).toMatch(/propose_payable[\s\S]*06b[\s\S]*From list/);
});
