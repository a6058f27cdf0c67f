// n8n's internal REST API for data tables, as the editor uses it; same routes in 2.40.7, 2.41.1 and 1.123.81.
import type { N8nApi } from './http';

export type DataTableColumnType = 'string' | 'number' | 'boolean' | 'date';

export interface DataTable {
	id: string;
	name: string;
	projectId: string;
	columns: Array<{ name: string; type: DataTableColumnType; index: number }>;
}

export type DataTableRow = Record<string, unknown> & {
	id: number;
	createdAt: string;
	updatedAt: string;
};

/** n8n answers at most 250 rows per request. */
const ROWS_PER_PAGE = 250;

async function personalProjectId(n8n: N8nApi): Promise<string> {
	return (await n8n.rest('GET', '/projects/personal')).id;
}

/** The owner's table named exactly `name` (n8n's own name filter matches parts of names). */
export async function findDataTable(n8n: N8nApi, name: string): Promise<DataTable | undefined> {
	const project = await personalProjectId(n8n);
	const filter = encodeURIComponent(JSON.stringify({ name }));
	const page = await n8n.rest('GET', `/projects/${project}/data-tables?filter=${filter}&take=50`);
	const table = (page.data as DataTable[]).find((t) => t.name === name);
	return table && { ...table, projectId: project };
}

export async function createDataTable(
	n8n: N8nApi,
	name: string,
	columns: Array<{ name: string; type: DataTableColumnType }>,
): Promise<DataTable> {
	const project = await personalProjectId(n8n);
	const created = await n8n.rest('POST', `/projects/${project}/data-tables`, { name, columns });
	return { ...created, projectId: project };
}

export async function dataTableRows(n8n: N8nApi, table: DataTable): Promise<DataTableRow[]> {
	const rows: DataTableRow[] = [];
	for (;;) {
		const query = `skip=${rows.length}&take=${ROWS_PER_PAGE}&sortBy=id:asc`;
		const urlPath = `/projects/${table.projectId}/data-tables/${table.id}/rows?${query}`;
		const page: { count: number; data: DataTableRow[] } = await n8n.rest('GET', urlPath);
		rows.push(...page.data);
		if (page.data.length === 0 || rows.length >= page.count) return rows;
	}
}

type WorkflowNode = { name: string; parameters: Record<string, any> };

/**
 * The table a saved workflow's Data table nodes name but do not point at (an example as shipped:
 * `value: ""` with `cachedResultName`), found by that name or created with the columns those
 * nodes write, then picked in each of them, as a user does From list. Undefined when none is
 * unset, so a table the user picked is left alone.
 */
export async function connectNamedTable(
	n8n: N8nApi,
	workflowId: string,
): Promise<DataTable | undefined> {
	const workflow = await n8n.api('GET', `/workflows/${workflowId}`);
	const nodes: WorkflowNode[] = workflow.nodes;
	const unset = nodes.filter((n) => {
		const table = n.parameters.dataTableId;
		return table?.value === '' && table.cachedResultName;
	});
	if (!unset.length) return undefined;
	const name: string = unset[0].parameters.dataTableId.cachedResultName;
	const table =
		(await findDataTable(n8n, name)) ?? (await createDataTable(n8n, name, columnsOf(nodes)));
	for (const node of unset)
		node.parameters.dataTableId = { __rl: true, mode: 'id', value: table.id };
	const executionOrder = workflow.settings?.executionOrder ?? 'v1';
	const { connections, staticData } = workflow;
	const body = {
		name: workflow.name,
		nodes,
		connections,
		settings: { executionOrder },
		staticData,
	};
	await n8n.api('PUT', `/workflows/${workflowId}`, body);
	return table;
}

/** The columns the row nodes write, as their mapping schemas list them (text unless typed). */
function columnsOf(nodes: WorkflowNode[]): Array<{ name: string; type: DataTableColumnType }> {
	const types = new Map<string, DataTableColumnType>();
	for (const node of nodes) {
		for (const column of node.parameters.columns?.schema ?? []) {
			const known = ['string', 'number', 'boolean', 'date'].includes(column.type);
			types.set(column.id, known ? column.type : 'string');
		}
	}
	return [...types].map(([name, type]) => ({ name, type }));
}
