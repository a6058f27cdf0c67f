// n8n's internal REST API for data tables, as the editor uses it; same routes in 2.40.7 and 1.123.81.
import type { N8nServer } from './server';

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

async function personalProjectId(n8n: N8nServer): Promise<string> {
	return (await n8n.rest('GET', '/projects/personal')).id;
}

/** The owner's table named exactly `name` (n8n's own name filter matches parts of names). */
export async function findDataTable(n8n: N8nServer, name: string): Promise<DataTable | undefined> {
	const project = await personalProjectId(n8n);
	const filter = encodeURIComponent(JSON.stringify({ name }));
	const page = await n8n.rest('GET', `/projects/${project}/data-tables?filter=${filter}&take=50`);
	const table = (page.data as DataTable[]).find((t) => t.name === name);
	return table && { ...table, projectId: project };
}

export async function createDataTable(
	n8n: N8nServer,
	name: string,
	columns: Array<{ name: string; type: DataTableColumnType }>,
): Promise<DataTable> {
	const project = await personalProjectId(n8n);
	const created = await n8n.rest('POST', `/projects/${project}/data-tables`, { name, columns });
	return { ...created, projectId: project };
}

export async function dataTableRows(n8n: N8nServer, table: DataTable): Promise<DataTableRow[]> {
	const rows: DataTableRow[] = [];
	for (;;) {
		const query = `skip=${rows.length}&take=${ROWS_PER_PAGE}&sortBy=id:asc`;
		const urlPath = `/projects/${table.projectId}/data-tables/${table.id}/rows?${query}`;
		const page: { count: number; data: DataTableRow[] } = await n8n.rest('GET', urlPath);
		rows.push(...page.data);
		if (page.data.length === 0 || rows.length >= page.count) return rows;
	}
}
