/**
 * Example 01d end to end; the rows are read back through n8n's REST API, never from the node's
 * output. The Data Table node needs n8n's data-table module, which `n8n execute` (a CLI process)
 * does not load: the workflows run in the server. 1.x: see importWithTableMadeByHand.
 */
import { DOCUMENTED_FIELDS } from '../helpers/documented-fields';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import {
	dataTableRows,
	findDataTable,
	type DataTable,
	type DataTableRow,
	type N8nServer,
} from '../../scripts/n8n';
import {
	TABLE_NODE,
	importWithTableMadeByHand,
	startN8nWithPackage,
	type PackageInN8n,
} from './environment';
import { exampleCopy, nodeNamed } from './workflows';
import { addCryptoVendor, allVendors, output, runManually, sandboxApi } from './service';

const SYNC = '01d-sync-vendors-to-data-table.json';
const NODES = {
	rows: 'Rows in the table',
	insert: 'Insert new vendors',
	update: 'Update changed rows',
	gone: 'Vendors no longer listed',
	delete: 'Delete their rows',
};

const EXAMPLE = exampleCopy(SYNC, 'bfE2eExample01dM', { manualStart: true });
/** The same with its optional "Delete their rows" enabled, as a user who wants that turns it on. */
const DELETING = exampleCopy(SYNC, 'bfE2eExample01dD', { manualStart: true });
DELETING.name += ', deleting rows';
delete nodeNamed(DELETING, NODES.delete).disabled;
const TABLE_NAME: string = nodeNamed(EXAMPLE, TABLE_NODE).parameters.tableName;
const TABLE_COLUMNS: Array<{ name: string; type: 'string' | 'date' }> = nodeNamed(
	EXAMPLE,
	TABLE_NODE,
).parameters.columns.column;

/** The vendor field each column holds: n8n keeps `id` for its own row number. */
const fieldOf = (column: string) => (column === 'vendor_id' ? 'id' : column);

type Vendor = Record<string, string | null>;

let sandbox: RunningSandbox;
let environment: PackageInN8n;
let n8n: N8nServer;
/** The workflow this n8n line runs: the example on 2.x, its hand-made-table form on 1.x. */
let sync = EXAMPLE.id;
let deleting = DELETING.id;

const v1 = (method: string, urlPath: string, body?: unknown) =>
	sandboxApi(sandbox)(method, urlPath, body);

async function run(workflowId: string): Promise<any> {
	const execution = await runManually(n8n, workflowId);
	const error = execution.data?.resultData?.error;
	if (error) throw new Error(`${workflowId} failed in ${error.node?.name}: ${error.message}`);
	return execution;
}

async function table(): Promise<DataTable> {
	const found = await findDataTable(n8n, TABLE_NAME);
	if (!found) throw new Error(`no data table "${TABLE_NAME}"`);
	return found;
}

/** The table's rows by vendor id (each vendor must have exactly one). */
async function rowsByVendor(): Promise<Map<string, DataTableRow>> {
	const rows = await dataTableRows(n8n, await table());
	const byVendor = new Map(rows.map((row) => [String(row.vendor_id), row]));
	expect(byVendor.size).toBe(rows.length);
	return byVendor;
}

/** A row's own columns (without n8n's id, createdAt, updatedAt), dates as instants. */
function cells(row: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(
		TABLE_COLUMNS.map(({ name, type }) => {
			const value = row[name] ?? null;
			const instant = type === 'date' && value !== null;
			return [name, instant ? new Date(String(value)).toISOString() : value];
		}),
	);
}

/** What a vendor's row must hold: each column the vendor's field, null kept as null. */
const expectedCells = (vendor: Vendor) =>
	cells(Object.fromEntries(TABLE_COLUMNS.map(({ name }) => [name, vendor[fieldOf(name)]])));

async function expectTableToMirrorService(): Promise<Map<string, DataTableRow>> {
	const rows = await rowsByVendor();
	const vendors = await allVendors(v1);
	expect([...rows.keys()].sort()).toEqual(vendors.map((v) => v.id).sort());
	for (const vendor of vendors) expect(cells(rows.get(vendor.id!)!)).toEqual(expectedCells(vendor));
	return rows;
}

async function changeTwoAddThree(tag: string): Promise<{ changed: string[]; added: string[] }> {
	const [first, second] = (await allVendors(v1)).slice(-2);
	const patched = [
		await v1('PATCH', `/vendors/${first.id}`, { name: `${first.name} (${tag})` }),
		await v1('PATCH', `/vendors/${second.id}`, { email: `ap-${tag}@vendor.example` }),
	];
	expect(patched.map((answer) => answer.status)).toEqual([200, 200]);
	const added: string[] = [];
	for (const n of [1, 2, 3])
		added.push((await addCryptoVendor(v1, `Data table vendor ${tag} ${n}`)).id);
	return { changed: [first.id!, second.id!], added };
}

/** The vendors whose row a run wrote: n8n stamps a row's updatedAt when it writes it. */
const written = (before: Map<string, DataTableRow>, after: Map<string, DataTableRow>) =>
	[...after]
		.filter(([vendor, row]) => before.get(vendor)?.updatedAt !== row.updatedAt)
		.map(([vendor]) => vendor)
		.sort();

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo', rateLimit: 20, rateWindowSeconds: 2 });
	environment = await startN8nWithPackage({
		credentials: [{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl }],
		workflows: [EXAMPLE, DELETING],
	});
	n8n = environment.n8n;
}, 600000);

afterAll(async () => {
	await environment?.stop();
	await sandbox?.close();
});

describe('vendors into an n8n data table', () => {
	it('2.x: the first run creates the table, typed, and inserts every vendor at once; 1.x: the example stops at its table node, so the table is made by hand', async () => {
		expect(await findDataTable(n8n, TABLE_NAME)).toBeUndefined();
		if (n8n.runtime.major < 2) {
			const refused = await runManually(n8n, sync);
			// 1.x's node has no table resource, so it cannot read the operation of 'create'.
			const { error, lastNodeExecuted } = refused.data.resultData;
			expect([lastNodeExecuted, error?.message]).toEqual([TABLE_NODE, 'Could not get parameter']);
			expect(await findDataTable(n8n, TABLE_NAME)).toBeUndefined();
			[{ id: sync }, { id: deleting }] = await importWithTableMadeByHand(environment, [
				[EXAMPLE, 'bfE2eExample01d1'],
				[DELETING, 'bfE2eExample01dD1'],
			]);
		}
		const first = await run(sync);
		// One output item for all the rows: the bulk path, on both lines.
		expect(output(first, NODES.insert)).toHaveLength(1);
		expect(output(first, NODES.update)).toEqual([]);
		const made = await table();
		const columns = [...made.columns].sort((a, b) => a.index - b.index);
		// One column per vendor field: the API's date-times are dates, every other field is text.
		expect(columns.map(({ name, type }) => ({ name: fieldOf(name), type }))).toEqual(
			DOCUMENTED_FIELDS.vendor.map((name) => ({
				name,
				type: name.endsWith('_at') ? 'date' : 'string',
			})),
		);
		// n8n's Data table node takes its bulk path only for a table chosen without an expression.
		const byName = { __rl: true, mode: 'name', value: TABLE_NAME };
		for (const name of [NODES.rows, NODES.insert, NODES.update, NODES.delete]) {
			expect(nodeNamed(EXAMPLE, name).parameters.dataTableId).toEqual(byName);
		}
	});

	it('a second run finds one row per vendor, with the vendor’s values, and writes nothing', async () => {
		const first = await expectTableToMirrorService();
		const again = await run(sync);
		for (const node of [NODES.insert, NODES.update, NODES.gone]) {
			expect(output(again, node)).toEqual([]);
		}
		expect(await expectTableToMirrorService()).toEqual(first);
	});

	it('two vendors changed and three added between runs: the next run updates those two rows and adds three, every other row as it was', async () => {
		const before = await rowsByVendor();
		const { changed, added } = await changeTwoAddThree(`sync-${Date.now().toString(36)}`);
		const execution = await run(sync);
		expect(output(execution, NODES.insert)).toHaveLength(1);
		expect(output(execution, NODES.update)).toHaveLength(2);
		const after = await expectTableToMirrorService();
		expect(after.size).toBe(before.size + 3);
		expect(written(before, after)).toEqual([...changed, ...added].sort());
		for (const [vendor, row] of before) {
			expect(after.get(vendor)!.id).toBe(row.id);
			if (!changed.includes(vendor)) expect(after.get(vendor)).toEqual(row);
		}
		// The new vendors have no email and no bank: those cells are empty (null), not text.
		for (const vendor of added) {
			expect(cells(after.get(vendor)!)).toMatchObject({ email: null, bank_name: null });
		}
		// The rows written again are those the run wrote: once more, nothing.
		const quiet = await run(sync);
		expect(output(quiet, NODES.update)).toEqual([]);
		expect(await rowsByVendor()).toEqual(after);
	});

	it('with "Delete their rows" enabled (disabled as shipped): the rows of two vendors the service no longer lists go, every other row as it was', async () => {
		// Deleting rows is the user's choice (examples/README.md).
		expect(nodeNamed(EXAMPLE, NODES.delete).disabled).toBe(true);
		const before = await rowsByVendor();
		const gone = [...before.keys()].slice(0, 2).sort();
		for (const vendor of gone) await sandbox.admin.removeVendor(vendor);
		const execution = await run(deleting);
		const found = output(execution, NODES.gone).map((row) => row.vendor_id);
		expect(found.sort()).toEqual(gone);
		const after = await expectTableToMirrorService();
		expect(after).toEqual(new Map([...before].filter(([vendor]) => !gone.includes(vendor))));
	});
});
