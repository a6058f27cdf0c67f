/**
 * The runs both e2e suites start by hand and what each must put out. Field-by-field output is
 * test/node's job; here each chain must run to its end in a real n8n (a node that puts out nothing
 * stops it), with later nodes finding earlier results through expressions.
 */
import { DOCUMENTED_FIELDS } from '../helpers/documented-fields';
import { output } from './service';
import { IDS, type exampleCopies } from './workflows';

type Execution = any;
interface ManualRun {
	workflowId: string;
	/** `major`: the n8n line (1 or 2) the run was on. */
	check(run: Execution, major: number): void;
}

const one = (items: any[], fields: object) =>
	expect(items).toEqual([expect.objectContaining(fields)]);
const fileName = (run: Execution, node: string): string =>
	run.data.resultData.runData[node][0].data.main[0][0].binary.data.fileName;
/** Example 02's rows by their number (its invoice numbers end in -1 to -5). */
export const rowNumbers = (rows: any[]) =>
	rows.map((row) => row.invoiceNumber.replace(/^INV-\d+-/, ''));

export function manualRuns(
	tag: string,
	copies: ReturnType<typeof exampleCopies>,
): Record<string, ManualRun> {
	const runs: Array<[string, string, ManualRun['check']]> = [
		['receivables', IDS.receivables, (run) => receivables(run, tag)],
		['vendors and payables', IDS.vendorsPayables, (run) => vendorsAndPayables(run, tag)],
		['treasury', IDS.treasury, treasury],
		['webhook endpoints', IDS.webhookEndpoint, webhookEndpoint],
		['example 01 (vendors to xlsx and csv)', 'bfExample01Vendr', example01],
		['example 01b (manual start, Google Sheets node disabled)', copies.example01b.id, example01b],
		['example 02 (receivables from rows)', 'bfExample02Recvb', example02],
		['example 04 (last month’s treasury to csv)', 'bfExample04Trsry', example04],
	];
	return Object.fromEntries(runs.map(([name, workflowId, check]) => [name, { workflowId, check }]));
}

function receivables(run: Execution, tag: string): void {
	const [created] = output(run, 'Create receivable');
	// Its due date was given as an ISO date-time.
	expect(created).toMatchObject({ invoice_number: `E2E-${tag}-R1`, due_date: '2031-03-15' });
	one(output(run, 'Update receivable'), { id: created.id, notes: 'updated by the e2e suite' });
	one(output(run, 'Send receivable'), { id: created.id, status: 'sent' });
}

function vendorsAndPayables(run: Execution, tag: string): void {
	const [vendor] = output(run, 'Create vendor');
	one(output(run, 'Update vendor'), { id: vendor.id, name: `E2E Vendor ${tag} Renamed` });
	one(output(run, 'Get vendor'), { id: vendor.id });
	one(output(run, 'Find vendor'), { id: vendor.id });
	const [payable] = output(run, 'Create payable');
	expect(payable).toMatchObject({ invoice_number: `E2E-${tag}-P1`, vendor_id: vendor.id });
	one(output(run, 'Update payable'), { id: payable.id, status: 'ready' });
	// Return All under Execute Once: one item per vendor, the new one among them.
	const all = output(run, 'All vendors').map((v) => v.id);
	expect(new Set(all).size).toBe(all.length);
	expect(all).toContain(vendor.id);
}

function treasury(run: Execution): void {
	// A limit over one page (100): every transaction once.
	const first = output(run, 'First 120 transactions');
	expect(new Set(first.map((t) => t.id)).size).toBe(120);
	expect(first).toHaveLength(120);
}

function webhookEndpoint(run: Execution): void {
	const [got] = output(run, 'Get endpoint');
	const changed = { description: 'changed by the e2e suite', disabled: true };
	one(output(run, 'Update endpoint'), { id: got.id, ...changed });
}

function example01(run: Execution): void {
	expect(output(run, 'Get all vendors').length).toBeGreaterThan(5);
	expect(fileName(run, 'Vendors to Excel')).toMatch(/vendors\.xlsx$/);
	expect(fileName(run, 'Vendors to CSV')).toMatch(/vendors\.csv$/);
}

/** What 01b would write to the sheet: every vendor with the same columns, in the documented order. */
function example01b(run: Execution): void {
	const vendors = output(run, 'Get all vendors');
	expect(vendors.length).toBeGreaterThan(5);
	for (const vendor of vendors) expect(Object.keys(vendor)).toEqual([...DOCUMENTED_FIELDS.vendor]);
}

/**
 * Two of its five rows are invalid: with Validate All Before Sending nothing is sent, and every
 * row is reported. Its report names each row through $('Incoming rows').item, which n8n 1.x
 * resolves to nothing when 'Incoming rows' is a Code node (docs/n8n-notes.md).
 */
function example02(run: Execution, major: number): void {
	const bad = output(run, 'Report bad rows');
	const notSent = 'Not sent: 2 of 5 items invalid';
	expect(bad.map((b) => [b.failedAt, b.error])).toEqual([
		['create', notSent],
		['create', expect.stringMatching(/amount/i)],
		['create', expect.stringMatching(/email/i)],
		['create', notSent],
		['create', notSent],
	]);
	if (major >= 2) expect(rowNumbers(bad)).toEqual(['1', '2', '3', '4', '5']);
}

function example04(run: Execution): void {
	const now = new Date();
	const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
	const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
	const [first, last] = [from, to].map((date) => date.toISOString().slice(0, 10));
	const days = output(run, "Last month's transactions").map((t) => t.created_at.slice(0, 10));
	expect(days.length).toBeGreaterThan(0);
	expect(days.filter((day) => day < first || day > last)).toEqual([]);
	expect(fileName(run, 'Transactions to CSV')).toBe(
		`treasury-transactions-${first.slice(0, 7)}.csv`,
	);
}
