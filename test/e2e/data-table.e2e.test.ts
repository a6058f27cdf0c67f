/**
 * Examples 01d and 01e end to end: vendors from the sandbox into a table that n8n itself keeps (a
 * data table), in a real n8n (2.40.7, or 1.123.81 with BF_N8N_VERSION=1.123.81). The rows are
 * read back through n8n's REST API, as its Data tables view reads them, never from the node's
 * output.
 *
 * The Data Table node needs n8n's data-table module, which `n8n execute` (a CLI process) does not
 * load: the workflows run in the server, as the editor's "Execute workflow" runs them. n8n 1.x has
 * no table operations: there the table is created by hand (through the same REST API as the
 * editor) and the examples run without their first Data Table node (examples/README.md).
 *
 * The sandbox allows 20 requests per 2 s window, so the 10,000-vendor listing (100 pages) has to
 * wait for windows; its time is printed, not asserted.
 */
import { setTimeout as sleep } from 'timers/promises';
import { RESOURCE_FIELDS } from '../../nodes/BusinessFinance/helpers/resourceFields';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import {
	dataTableRows,
	findDataTable,
	loadExamples,
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
import { output, runManually, sandboxApi } from './service';

const FULL = '01d-sync-vendors-to-data-table.json';
const CHANGED_ONLY = '01e-sync-changed-vendors-to-data-table.json';
const UPSERT_NODE = 'Upsert vendor rows';
const DEDUPE_NODE = 'Only new or changed vendors';
/** Short windows so that 10,000 vendors (100 pages) meet the limit five times. */
const RATE = { limit: 20, windowSeconds: 2 };
const PAGE_SIZE = 100;
const BIG = 10_000;

/** The examples with a Manual Trigger (same name) in place of their Schedule Trigger. */
const EXAMPLE = {
	full: exampleCopy(FULL, 'bfE2eExample01dM', { manualStart: true }),
	changedOnly: exampleCopy(CHANGED_ONLY, 'bfE2eExample01eM', { manualStart: true }),
};
const TABLE_NAME: string = nodeNamed(EXAMPLE.full, TABLE_NODE).parameters.tableName;
const TABLE_COLUMNS: Array<{ name: string; type: 'string' | 'date' }> = nodeNamed(
	EXAMPLE.full,
	TABLE_NODE,
).parameters.columns.column;

/** The vendor field each column holds: n8n keeps `id` for its own row number. */
const fieldOf = (column: string) => (column === 'vendor_id' ? 'id' : column);

type Vendor = Record<string, string | null>;

let sandbox: RunningSandbox;
let environment: PackageInN8n;
let n8n: N8nServer;
/** The workflows this n8n line runs: the examples on 2.x, their hand-made-table form on 1.x. */
const sync = { full: EXAMPLE.full.id, changedOnly: EXAMPLE.changedOnly.id };

async function v1(method: string, urlPath: string, body?: unknown): Promise<any> {
	const res = await sandboxApi(sandbox)(method, urlPath, body);
	if (res.status >= 300) throw new Error(`${method} ${urlPath} -> ${res.status}`);
	return res.body;
}

/** Every vendor, as the service lists them. */
async function allVendors(): Promise<Vendor[]> {
	const vendors: Vendor[] = [];
	for (let page = 1; ; page++) {
		const answer = await v1('GET', `/vendors?limit=${PAGE_SIZE}&page=${page}`);
		vendors.push(...answer.data);
		if (answer.data.length < PAGE_SIZE || vendors.length >= answer.meta.total) return vendors;
	}
}

/** Runs a sync in the server and returns its execution, failing on a failed run. */
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

/** The table holds one row per vendor of the service, each with the vendor's values. */
async function expectTableToMirrorService(): Promise<Map<string, DataTableRow>> {
	const rows = await rowsByVendor();
	const vendors = await allVendors();
	expect([...rows.keys()].sort()).toEqual(vendors.map((v) => v.id).sort());
	for (const vendor of vendors) expect(cells(rows.get(vendor.id!)!)).toEqual(expectedCells(vendor));
	return rows;
}

/** Renames one vendor, gives another a new email, adds a crypto vendor (no email, no bank). */
async function changeTwoAddOne(tag: string): Promise<{ changed: string[]; added: string }> {
	const [first, second] = (await allVendors()).slice(-2);
	await v1('PATCH', `/vendors/${first.id}`, { name: `${first.name} (${tag})` });
	await v1('PATCH', `/vendors/${second.id}`, { email: `ap-${tag}@vendor.example` });
	const added = await v1('POST', '/vendors', {
		name: `Data table vendor ${tag}`,
		payment_method: 'crypto',
		wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
		wallet_chain: 'base',
	});
	return { changed: [first.id!, second.id!], added: added.data.id };
}

beforeAll(async () => {
	sandbox = await startSandbox({
		port: 0,
		seed: 'demo',
		rateLimit: RATE.limit,
		rateWindowSeconds: RATE.windowSeconds,
	});
	environment = await startN8nWithPackage({
		credentials: [{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl }],
		workflows: [EXAMPLE.full, EXAMPLE.changedOnly],
	});
	n8n = environment.n8n;
}, 600000);

afterAll(async () => {
	await environment?.stop();
	await sandbox?.close();
});

describe('examples 01d and 01e as imported', () => {
	it.each([FULL, CHANGED_ONLY])(
		'%s: a table with one typed column per vendor field; the upsert fills each from its field and matches on the vendor id',
		(file) => {
			const workflow = loadExamples().find((e) => e.file === file)!.workflow;
			const create = nodeNamed(workflow, TABLE_NODE).parameters;
			expect(create).toMatchObject({
				resource: 'table',
				operation: 'create',
				tableName: TABLE_NAME,
				options: { createIfNotExists: true },
			});
			const columns: Array<{ name: string; type: string }> = create.columns.column;
			expect(columns.map((c) => fieldOf(c.name))).toEqual([...RESOURCE_FIELDS.vendor]);
			// The API's date-times are dates; every other vendor field is text.
			const types = RESOURCE_FIELDS.vendor.map((f) => (f.endsWith('_at') ? 'date' : 'string'));
			expect(columns.map((c) => c.type)).toEqual(types);
			const upsert = nodeNamed(workflow, UPSERT_NODE).parameters;
			expect(upsert.filters.conditions).toEqual([
				{ keyName: 'vendor_id', condition: 'eq', keyValue: '={{ $json.id }}' },
			]);
			const fromFields = columns.map((c) => [c.name, `={{ $json.${fieldOf(c.name)} }}`]);
			expect(upsert.columns.value).toEqual(Object.fromEntries(fromFields));
		},
	);
});

describe('vendors into an n8n data table', () => {
	it('2.x: the first run creates the table, typed; 1.x: the example stops at its table node, so the table is made by hand', async () => {
		expect(await findDataTable(n8n, TABLE_NAME)).toBeUndefined();
		if (n8n.runtime.major >= 2) {
			await run(sync.full);
		} else {
			const refused = await runManually(n8n, sync.full);
			// 1.x's node has no table resource, so it cannot read the operation of 'create'.
			const { error, lastNodeExecuted } = refused.data.resultData;
			expect([lastNodeExecuted, error?.message]).toEqual([TABLE_NODE, 'Could not get parameter']);
			expect(await findDataTable(n8n, TABLE_NAME)).toBeUndefined();
			const [full, changedOnly] = await importWithTableMadeByHand(environment, [
				[EXAMPLE.full, 'bfE2eExample01d1'],
				[EXAMPLE.changedOnly, 'bfE2eExample01e1'],
			]);
			Object.assign(sync, { full: full.id, changedOnly: changedOnly.id });
			await run(sync.full);
		}
		const made = await table();
		const columns = [...made.columns].sort((a, b) => a.index - b.index);
		expect(columns.map(({ name, type }) => ({ name, type }))).toEqual(TABLE_COLUMNS);
	});

	it('two runs give one row per vendor, with the vendor’s values; the second updates the same rows', async () => {
		const first = await expectTableToMirrorService();
		await run(sync.full);
		const second = await expectTableToMirrorService();
		expect(rowIds(second)).toEqual(rowIds(first));
	});

	it('two vendors changed and one added: the third run updates those two rows and adds one, every other row as it was', async () => {
		const before = await rowsByVendor();
		const { changed, added } = await changeTwoAddOne(`full-${Date.now().toString(36)}`);
		await run(sync.full);
		const after = await expectTableToMirrorService();
		expect(after.size).toBe(before.size + 1);
		for (const [vendor, row] of before) {
			expect(after.get(vendor)!.id).toBe(row.id);
			if (changed.includes(vendor)) expect(cells(after.get(vendor)!)).not.toEqual(cells(row));
			else expect(cells(after.get(vendor)!)).toEqual(cells(row));
		}
		// The new vendor has no email and no bank: those cells are empty (null), not text.
		expect(cells(after.get(added)!)).toMatchObject({ email: null, bank_name: null });
	});

	it('01e writes only what changed: nothing after a quiet hour, exactly the two changed and the one new row after changes', async () => {
		const first = await run(sync.changedOnly);
		expect(output(first, UPSERT_NODE)).toHaveLength((await allVendors()).length);
		const before = await expectTableToMirrorService();

		const quiet = await run(sync.changedOnly);
		expect(output(quiet, DEDUPE_NODE)).toEqual([]);
		expect(await rowsByVendor()).toEqual(before);

		const { changed, added } = await changeTwoAddOne(`changed-${Date.now().toString(36)}`);
		await run(sync.changedOnly);
		const after = await expectTableToMirrorService();
		// n8n stamps a row's updatedAt when it writes it: only three rows were written.
		const written = [...after].filter(
			([vendor, row]) => before.get(vendor)?.updatedAt !== row.updatedAt,
		);
		expect(written.map(([vendor]) => vendor).sort()).toEqual([...changed, added].sort());
		for (const [vendor, row] of before) {
			if (!changed.includes(vendor)) expect(after.get(vendor)).toEqual(row);
		}
	});

	it(`${BIG.toLocaleString('en')} vendors give as many rows; the listing sends the fewest page requests and gets no 429`, async () => {
		const { total } = await sandbox.admin.seedVendors(BIG - (await allVendors()).length);
		expect(total).toBe(BIG);
		// Windows start with a key's first request: after one quiet window the sync opens its own.
		await sleep(RATE.windowSeconds * 1000 + 200);
		await sandbox.admin.clearRequests();
		const started = Date.now();
		const execution = await run(sync.full);
		const seconds = (Date.now() - started) / 1000;

		const pages = (await sandbox.admin.getRequests()).filter((r) => r.path === '/v1/vendors');
		expect(pages.map((r) => [r.status, Number(r.query.limit), Number(r.query.page)])).toEqual(
			Array.from({ length: BIG / PAGE_SIZE }, (_, i) => [200, PAGE_SIZE, i + 1]),
		);
		// The check below lists every vendor itself: no need to make it wait for windows.
		await sandbox.admin.setRateLimit({ limit: 1_000_000 });
		expect((await expectTableToMirrorService()).size).toBe(BIG);
		reportTimes(execution, seconds);
	}, 1_200_000);
});

const rowIds = (rows: Map<string, DataTableRow>) =>
	Object.fromEntries([...rows].map(([vendor, row]) => [vendor, row.id]));

/** The 10,000-vendor run's times: whole run, listing (against its floor), upserts. */
function reportTimes(execution: any, seconds: number): void {
	const nodeSeconds = (node: string) =>
		(execution.data.resultData.runData[node] ?? []).reduce(
			(sum: number, r: any) => sum + r.executionTime / 1000,
			0,
		);
	const windows = Math.ceil(BIG / PAGE_SIZE / RATE.limit);
	const floor = (windows - 1) * RATE.windowSeconds;
	console.log(
		`n8n ${environment.runtime.version}: ${BIG} vendors synced in ${seconds.toFixed(1)} s; ` +
			`listing ${nodeSeconds('Get all vendors').toFixed(1)} s (${BIG / PAGE_SIZE} pages, ` +
			`${RATE.limit} per ${RATE.windowSeconds} s: at least ${floor} s), ` +
			`upserts ${nodeSeconds(UPSERT_NODE).toFixed(1)} s`,
	);
}
