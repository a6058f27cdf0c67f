// `npm run bench:sync` (docs/benchmarks.md, "Vendor sync into a data table").
import { setTimeout as sleep } from 'timers/promises';
import { dataTableRows, findDataTable, type N8nServer, type WorkflowJson } from '../scripts/n8n';
import {
	TABLE_NODE,
	importWithTableMadeByHand,
	startN8nWithPackage,
	type PackageInN8n,
} from '../test/e2e/environment';
import { runManually, output } from '../test/e2e/service';
import { exampleCopy, nodeNamed } from '../test/e2e/workflows';
import {
	printMarkdownTable,
	round3,
	startSandboxProcess,
	UNLIMITED,
	type Outcome,
	type SandboxProcess,
} from './common';

const EXAMPLE = '01d-sync-vendors-to-data-table.json';
const LISTING = 'Get all vendors';
const UPDATE = 'Update changed rows';
const SPEC_RATE = { limit: 100, windowSeconds: 60 };
const ADDED = 50;
const TARGETS: Record<Step, number> = { first: 15, changed: 10, unchanged: 5 };
type Step = keyof typeof STEPS;
const STEPS = {
	first: 'first sync',
	changed: `re-sync, 1 % changed and ${ADDED} new`,
	unchanged: 're-sync, nothing changed',
};

type SyncRun = Awaited<ReturnType<typeof syncRun>>;

interface Bench {
	lastStart: number;
	sb: SandboxProcess;
	env: PackageInN8n;
}

const sizes = () =>
	(process.env.BENCH_SYNC_SIZES ?? '1000,10000').split(',').map((n) => Number(n.trim()));

/** "(1000)", not "1000": n8n finds a table by name as the first whose name contains it. */
function exampleFor(n: number): WorkflowJson & { id: string } {
	const copy = exampleCopy(EXAMPLE, `bfBenchSync${String(n).padStart(5, '0')}`, {
		manualStart: true,
	});
	const table = nodeNamed(copy, TABLE_NODE).parameters;
	table.tableName = `${table.tableName} (${n})`;
	for (const node of copy.nodes) {
		if (node.parameters.dataTableId) node.parameters.dataTableId.value = table.tableName;
	}
	return copy;
}

async function workflowOfThisLine(bench: Bench, copy: WorkflowJson & { id: string }) {
	if (bench.env.runtime.major >= 2) return copy.id;
	const [byHand] = await importWithTableMadeByHand(bench.env, [[copy, `${copy.id}1x`]]);
	return byHand.id;
}

async function tableRows(n8n: N8nServer, name: string): Promise<number> {
	const table = await findDataTable(n8n, name);
	return table ? (await dataTableRows(n8n, table)).length : 0;
}

async function changeVendors(sb: SandboxProcess): Promise<void> {
	await sb.admin.setRateLimit({ limit: UNLIMITED });
	for (let page = 1; ; page++) {
		const { body } = await sb.api.request('GET', `/vendors?limit=100&page=${page}`);
		const [vendor] = body.data;
		if (!vendor) break;
		await sb.api.request('PATCH', `/vendors/${vendor.id}`, {
			body: { name: `${vendor.name} (changed)` },
		});
	}
	await sb.admin.seedVendors(ADDED);
}

/**
 * The previous run's window must be over in the node's memory of the key too: setting the limit
 * only resets the sandbox's counters.
 */
async function syncRun(bench: Bench, workflowId: string, table: string, n: number, step: Step) {
	const rowsBefore = await tableRows(bench.env.n8n, table);
	await sleep(Math.max(0, bench.lastStart + SPEC_RATE.windowSeconds * 1000 + 500 - Date.now()));
	await bench.sb.admin.setRateLimit(SPEC_RATE);
	bench.lastStart = Date.now();
	const execution = await runManually(bench.env.n8n, workflowId, 1_800_000);
	const error = execution.data?.resultData?.error;
	if (error) throw new Error(`the sync failed in ${error.node?.name}: ${error.message}`);
	const wallS = (Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt)) / 1000;
	const runs = execution.data.resultData.runData[LISTING] ?? [];
	const listingS = runs.reduce((sum: number, r: any) => sum + r.executionTime, 0) / 1000;
	const rows = await tableRows(bench.env.n8n, table);
	const vendors = n + (step === 'first' ? 0 : ADDED);
	const expected = { first: [n, 0], changed: [ADDED, n / 100], unchanged: [0, 0] }[step];
	// The bulk insert puts out one item whatever it inserted: the table's growth is the count.
	const written = [rows - rowsBefore, output(execution, UPDATE).length];
	const beyondListingS = round3(wallS - listingS);
	const graded = n === 10_000 && bench.env.runtime.major >= 2;
	const run = {
		vendors: n,
		step: STEPS[step],
		wallS,
		listingS,
		beyondListingS,
		inserted: written[0],
		updated: written[1],
		rows,
		correct: rows === vendors && written.every((w, i) => w === expected[i]),
		...(graded && { targetS: TARGETS[step], met: beyondListingS <= TARGETS[step] }),
	};
	console.log(JSON.stringify(run));
	return run;
}

async function syncSize(bench: Bench, copy: WorkflowJson & { id: string }, n: number) {
	await bench.sb.admin.reset('none');
	await bench.sb.admin.seedVendors(n);
	const workflowId = await workflowOfThisLine(bench, copy);
	const table = nodeNamed(copy, TABLE_NODE).parameters.tableName;
	const runs = [await syncRun(bench, workflowId, table, n, 'first')];
	await changeVendors(bench.sb);
	runs.push(await syncRun(bench, workflowId, table, n, 'changed'));
	runs.push(await syncRun(bench, workflowId, table, n, 'unchanged'));
	return runs;
}

export async function runDataTableSync(): Promise<Outcome> {
	const copies = sizes().map((n) => [n, exampleFor(n)] as const);
	const sb = await startSandboxProcess(['--rate-limit', '100']);
	let env: PackageInN8n | undefined;
	const runs: SyncRun[] = [];
	try {
		env = await startN8nWithPackage({
			credentials: [{ apiKey: sb.apiKey, baseUrl: sb.baseUrl }],
			workflows: copies.map(([, copy]) => copy),
		});
		const bench = { sb, env, lastStart: 0 };
		for (const [n, copy] of copies) runs.push(...(await syncSize(bench, copy, n)));
		report(env, runs);
		const file = `data-table-sync-n8n${env.runtime.major}.json`;
		return { file, record: { n8n: env.runtime.version, rate: SPEC_RATE, runs } };
	} finally {
		await env?.stop();
		await sb.close();
	}
}

function report(env: PackageInN8n, runs: SyncRun[]): void {
	console.log(`\nexample 01d in n8n ${env.runtime.version}, sandbox at 100 requests a minute\n`);
	const head = ['vendors', 'run', 'wall s', 'listing s', 'beyond listing s', 'inserted'];
	const met = (r: SyncRun) => (r.targetS ? ` (≤ ${r.targetS}: ${r.met ? 'met' : 'NOT met'})` : '');
	printMarkdownTable(
		[...head, 'updated', 'rows right'],
		runs.map((r) => [
			r.vendors.toLocaleString('en'),
			r.step,
			r.wallS.toFixed(1),
			r.listingS.toFixed(1),
			r.beyondListingS.toFixed(1) + met(r),
			String(r.inserted),
			String(r.updated),
			r.correct ? 'yes' : 'NO',
		]),
	);
}
