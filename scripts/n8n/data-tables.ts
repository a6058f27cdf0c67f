/**
 * n8n's data tables through its internal REST API, as the editor's Data tables view uses it:
 * tables belong to a project (the owner's personal one here) and live in n8n's database. Same
 * routes in 2.40.7 and 1.123.81 (`/rest/projects/<projectId>/data-tables/...`).
 */
import type { N8nServer } from './server';

export type DataTableColumnType = 'string' | 'number' | 'boolean' | 'date';

export interface DataTable {
	id: string;
	name: string;
	projectId: string;
	columns: Array<{ name: string; type: DataTableColumnType; index: number }>;
}

/** A row as n8n returns it: the table's columns plus n8n's own `id`, `createdAt`, `updatedAt`. */
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

/** Creates a table in the owner's project with the columns in the order given. */
export async function createDataTable(
	n8n: N8nServer,
	name: string,
	columns: Array<{ name: string; type: DataTableColumnType }>,
): Promise<DataTable> {
	const project = await personalProjectId(n8n);
	const created = await n8n.rest('POST', `/projects/${project}/data-tables`, { name, columns });
	return { ...created, projectId: project };
}

/** Every row of a table, by n8n's row `id`, read page by page. */
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
