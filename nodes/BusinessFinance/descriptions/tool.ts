import type { INodeProperties } from 'n8n-workflow';

/**
 * One `toolDescription` per operation, shown only when the node is a tool: what a model reads
 * about it (what it does, its inputs, what it changes), each operation's own `toolDescription`.
 */
export function toolDescriptionFields(
	operations: Array<{ resource: string; operation: string; op: { toolDescription: string } }>,
): INodeProperties[] {
	return operations.map(({ resource, operation, op }) => ({
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string' as const,
		typeOptions: { rows: 3 },
		default: op.toolDescription,
		description:
			'What the model reads about this tool: what it does, the inputs it needs and their formats, and what it changes',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	}));
}

export type ToolOutput = 'raw' | 'selected' | 'simplified';

/**
 * What a tool answers with each record (n8n's guideline for nodes used as tools); Simplified,
 * the default, is the answer the node gave before the choice existed (docs/node-reference.md).
 */
export const toolOutputFields: INodeProperties[] = [
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		noDataExpression: true,
		default: 'simplified',
		description: 'Which fields of each record the model gets',
		options: [
			{
				name: 'Raw',
				value: 'raw',
				description: 'The node’s normal output: every field, empty ones as null',
			},
			{
				name: 'Selected Fields',
				value: 'selected',
				description: 'The ID and the fields you name, without empty ones',
			},
			{
				name: 'Simplified',
				value: 'simplified',
				description:
					'The fields a model acts on, without empty ones; vendors without their bank details',
			},
		],
		displayOptions: { show: { '@tool': [true] } },
	},
	{
		displayName: 'Fields',
		name: 'outputFields',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. name, email, status',
		description:
			'The fields the model gets besides the ID, as the service names them, separated by commas',
		displayOptions: { show: { '@tool': [true], output: ['selected'] } },
	},
];
