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
