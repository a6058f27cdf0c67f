/**
 * In headless Chromium against a real n8n with this package installed. The browser console must
 * hold no error besides n8n's own known ones (n8n-own-errors.ts). Screenshots go to
 * docs/images/editor-*.png on n8n 2.x (the README shows them), or to BF_SCREENSHOT_DIR.
 */
import * as os from 'os';
import * as path from 'path';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import {
	REPO_ROOT,
	findDataTable,
	loadExamples,
	type Runtime,
	type WorkflowJson,
} from '../../scripts/n8n';
import {
	TABLE_NODE,
	importWithTableMadeByHand,
	startN8nWithPackage,
	type PackageInN8n,
} from '../e2e/environment';
import { sandboxApi } from '../e2e/service';
import { nodeNamed } from '../e2e/workflows';
import { launchBrowser, type EditorBrowser } from './browser';
import type { INodeProperties } from 'n8n-workflow';
import { EditorPage, RUN_TIMEOUT_MS, byTestId } from './editor-page';
import {
	ACTION_PANELS,
	TRIGGER_PANEL,
	actionProperty,
	optionName,
	triggerProperty,
	type PanelExpectation,
} from './expected';
import { unknownProblems } from './n8n-own-errors';

const ACTION_TYPE = 'n8n-nodes-business-finance.businessFinance';
const TRIGGER_TYPE = 'n8n-nodes-business-finance.businessFinanceTrigger';
/** An API key of the right form (the svc_ prefix) that the service does not know and refuses. */
const UNKNOWN_TO_SERVICE = 'svc_editor_test_wrong_key_0000000000';
/** Logged by the test itself to show that console errors are recorded. */
const CONSOLE_PROBE = 'bf-editor-test: the console is recorded';

let sandbox: RunningSandbox;
let environment: PackageInN8n;
let browser: EditorBrowser;
let editor: EditorPage;

function example(file: string): WorkflowJson & { id: string } {
	const found = loadExamples().find((e) => e.file === file);
	if (!found?.workflow.id) throw new Error(`examples/${file} is missing or has no id`);
	return found.workflow as WorkflowJson & { id: string };
}
const VENDORS_EXAMPLE = example('01-sync-vendors-to-spreadsheet.json');
const TRIGGER_EXAMPLE = example('03-notify-when-receivable-paid.json');
const DATA_TABLE_EXAMPLE = example('01d-sync-vendors-to-data-table.json');
const TABLE = nodeNamed(DATA_TABLE_EXAMPLE, TABLE_NODE).parameters;
const nodeOfType = (workflow: WorkflowJson, type: string): string => {
	const node = workflow.nodes.find((n) => n.type === type);
	if (!node) throw new Error(`${workflow.name} has no ${type} node`);
	return node.name;
};

function screenshotDir(runtime: Runtime): string {
	if (process.env.BF_SCREENSHOT_DIR) return path.resolve(process.env.BF_SCREENSHOT_DIR);
	if (runtime.major === 2) return path.join(REPO_ROOT, 'docs', 'images');
	return path.join(os.tmpdir(), `bf-editor-screenshots-${runtime.version}`);
}

/** The sandbox's own answer to GET /v1/vendors?<query>. */
async function sandboxVendors(query: string) {
	const { body } = await sandboxApi(sandbox)('GET', `/vendors?${query}`);
	return { vendors: body.data as Array<{ id: string; name: string }>, total: body.meta.total };
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo' });
	environment = await startN8nWithPackage({
		credentials: [{ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl }],
		workflows: loadExamples().map((e) => e.workflow),
	});
	browser = await launchBrowser();
	editor = new EditorPage(
		browser.page,
		environment.n8n.baseUrl,
		screenshotDir(environment.runtime),
	);
}, 600000);

afterAll(async () => {
	await browser?.close();
	await environment?.stop();
	await sandbox?.close();
});

it('signs in and opens an imported example with the Business Finance node on the canvas', async () => {
	const { page } = browser;
	await page.evaluate((text) => console.error(text), CONSOLE_PROBE);
	const { email, password } = environment.n8n.owner();
	await page.goto(`${editor.baseUrl}/signin`);
	await page.fill('input[name="emailOrLdapLoginId"]', email);
	await page.fill('input[name="password"]', password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	await editor.openWorkflow(VENDORS_EXAMPLE.id);
	const nodes = await page.locator(byTestId('canvas-node')).evaluateAll((elements) =>
		elements.map((e) => ({
			name: e.getAttribute('data-node-name'),
			type: e.getAttribute('data-node-type'),
		})),
	);
	const node = nodes.find((n) => n.name === nodeOfType(VENDORS_EXAMPLE, ACTION_TYPE));
	expect(node).toMatchObject({ type: ACTION_TYPE });
	expect(nodes.map((n) => n.name).sort()).toEqual(VENDORS_EXAMPLE.nodes.map((n) => n.name).sort());
	await editor.screenshot('editor-workflow');
});

it('runs the node and shows the vendors from the sandbox in its output table', async () => {
	await editor.openNode(nodeOfType(VENDORS_EXAMPLE, ACTION_TYPE));
	await editor.panel.locator(byTestId('node-execute-button')).click();
	const output = editor.panel.locator(byTestId('output-panel'));
	const done = output.locator(`${byTestId('node-run-status-success')}, table`).first();
	await done.waitFor({ timeout: RUN_TIMEOUT_MS });
	const { vendors: firstPage, total } = await sandboxVendors('limit=100');
	// "N items" above the output table.
	const count = await output.locator(byTestId('ndv-items-count')).first().innerText();
	expect(Number(/(\d+)\s+items?/.exec(count)?.[1])).toBe(total);
	const table = await editor.outputTable();
	expect(table.columns).toEqual(expect.arrayContaining(['id', 'name']));
	const idColumn = table.columns.indexOf('id');
	const nameColumn = table.columns.indexOf('name');
	expect(table.rows.length).toBeGreaterThan(0);
	const shown = table.rows.map((row) => ({ id: row[idColumn], name: row[nameColumn] }));
	expect(shown).toEqual(firstPage.slice(0, shown.length).map((v) => ({ id: v.id, name: v.name })));
	await editor.screenshot('editor-node-output', editor.panel);
	await editor.closeNode();
});

it('adds a Business Finance node from the nodes panel', async () => {
	// The nodes panel lists each operation by its action text.
	const operations = actionProperty('operation', 'vendor', 'create').options as Array<{
		value: string;
		action?: string;
	}>;
	const action = operations.find((o) => o.value === 'create')?.action;
	if (!action) throw new Error('vendor / create has no action text');
	const { page } = browser;
	await page.locator(byTestId('node-creator-plus-button')).click();
	const searchBar = byTestId('node-creator-search-bar');
	await page.locator(`${searchBar} input, input${searchBar}`).fill('Business Finance');
	// n8n 2.x merges the trigger into the action node's entry and shows the trigger's description
	// there: it must describe the actions too (1.x's search list shows names only)
	if (environment.runtime.major >= 2) {
		const entry = page
			.locator(byTestId('item-iterator-item'), { hasText: 'Business Finance' })
			.first();
		expect(await entry.innerText()).toMatch(/Create invoices and bills, manage vendors/);
	}
	for (const text of ['Business Finance', action])
		await page.locator(byTestId('item-iterator-item'), { hasText: text }).first().click();
	await editor.panel.locator(byTestId('parameter-input-operation')).waitFor();
	expect((await editor.visibleParameters()).slice(0, 2)).toEqual(['resource', 'operation']);
});

describe.each(ACTION_PANELS)('the panel for $resource / $operation', (panel: PanelExpectation) => {
	it('shows its fields with their labels, hints and notices', async () => {
		const { resource, operation } = panel;
		await pickOperation(resource, operation);
		await expectPanel(['resource', 'operation'], panel, (name) =>
			actionProperty(name, resource, operation),
		);
		await editor.screenshot(`editor-fields-${resource}-${operation}`, 'parameters');
	});
});

it('finds vendors in the vendor picker: the search goes to the sandbox', async () => {
	await pickOperation('payable', 'create');
	const search = 'co';
	const { vendors: expected } = await sandboxVendors(`search=${search}&limit=100`);
	expect(expected.length).toBeGreaterThan(1);
	await sandbox.admin.clearRequests();
	const shown = await editor.searchList('vendorId', search);
	expect(shown).toHaveLength(expected.length);
	shown.forEach((entry, i) => expect(entry.startsWith(expected[i].name)).toBe(true));
	const searches = (await sandbox.admin.getRequests()).filter((r) => r.path === '/v1/vendors');
	expect(searches.map((r) => r.query.search)).toContain(search);
	await editor.screenshot('editor-vendor-picker', 'parameters');
	await browser.page.keyboard.press('Escape');
});

it('tests the credential: accepted, then a wrong key refused with the service’s reason', async () => {
	await editor.panel.locator(byTestId('credential-edit-button')).click();
	expect(await editor.credentialTestResult('success')).toMatch(/success/i);
	await editor.screenshot('editor-credential', editor.credentialDialog);

	await editor.saveCredentialField('API Key', UNKNOWN_TO_SERVICE);
	const refused = await editor.credentialTestResult('failure');
	expect(refused).toMatch(/INVALID_API_KEY/);
	expect(refused).not.toContain(UNKNOWN_TO_SERVICE.slice(4));
	await editor.screenshot('editor-credential-wrong-key', editor.credentialDialog);

	await editor.saveCredentialField('API Key', sandbox.apiKey);
	expect(await editor.credentialTestResult('success')).toMatch(/success/i);
	await browser.page.keyboard.press('Escape');
	await editor.credentialDialog.waitFor({ state: 'hidden' });
	await editor.closeNode();
});

it('opens the trigger’s panel with its fields, hints and notices', async () => {
	await editor.openWorkflow(TRIGGER_EXAMPLE.id);
	await editor.openNode(nodeOfType(TRIGGER_EXAMPLE, TRIGGER_TYPE));
	await expectPanel([], TRIGGER_PANEL, triggerProperty);
	await editor.screenshot('editor-trigger', 'parameters');
	await editor.closeNode();
});

it('runs example 01d from the canvas and shows its vendors in n8n’s Data table view', async () => {
	const workflowId = await dataTableSyncOfThisLine();
	const before = (await environment.n8n.executions(workflowId, false)).length;
	await editor.openWorkflow(workflowId);
	await browser.page.locator(byTestId('execute-workflow-button')).click();
	const runs = await environment.n8n.waitForExecutions(workflowId, before);
	const newest = runs.reduce((a, b) => (Number(b.id) > Number(a.id) ? b : a));
	expect(newest.status).toBe('success');

	const table = await findDataTable(environment.n8n, TABLE.tableName);
	if (!table) throw new Error(`no data table "${TABLE.tableName}" after the run`);
	await browser.page.goto(`${editor.baseUrl}/projects/${table.projectId}/datatables/${table.id}`);
	await browser.page.locator('.ag-row').first().waitFor();
	const { vendors } = await sandboxVendors('limit=100');
	const grid = await editor.dataTableGrid();
	// n8n's row number first, then the example's columns, as many as the view has room for.
	const columns = ['id', ...TABLE.columns.column.map((c: { name: string }) => c.name)];
	expect(grid.columns.length).toBeGreaterThan(3);
	expect(grid.columns).toEqual(columns.slice(0, grid.columns.length));
	expect(grid.rows.length).toBeGreaterThan(0);
	const shown = grid.rows.map((row) => [row.vendor_id, row.name]);
	expect(shown).toEqual(vendors.slice(0, shown.length).map((v) => [v.id, v.name]));
	await editor.screenshot('editor-data-table');
});

/**
 * Example 01d on 2.x; on 1.x, whose Data table node cannot create tables, the table made by hand
 * and the example without its first Data table node (examples/README.md).
 */
async function dataTableSyncOfThisLine(): Promise<string> {
	if (environment.runtime.major >= 2) return DATA_TABLE_EXAMPLE.id;
	const [byHand] = await importWithTableMadeByHand(environment, [
		[DATA_TABLE_EXAMPLE, 'bfEditor01dBy1x'],
	]);
	return byHand.id;
}

it('leaves no browser console error besides n8n’s own known ones', () => {
	const probe = browser.problems.filter((p) => p.text.includes(CONSOLE_PROBE));
	expect(probe).toHaveLength(1);
	expect(unknownProblems(browser.problems.filter((p) => !probe.includes(p)))).toEqual([]);
});

/** By the names the editor shows. */
async function pickOperation(resource: string, operation: string) {
	for (const [name, value] of [
		['resource', resource],
		['operation', operation],
	]) {
		const option = optionName(actionProperty(name, resource, operation), value);
		await editor.panel.locator(byTestId(`parameter-input-${name}`)).click();
		const items = browser.page.locator('.el-select-dropdown__item:visible');
		await items.first().waitFor();
		// Each option shows its name on its first line.
		const names = (await items.allInnerTexts()).map((text) => text.split('\n')[0].trim());
		if (!names.includes(option))
			throw new Error(`${name} offers ${names.join(', ')}; not ${option}`);
		await items.nth(names.indexOf(option)).click();
		// The list closes with an animation: the next pick must not read this one.
		await items.first().waitFor({ state: 'hidden' });
	}
}

async function expectPanel(
	before: string[],
	expected: { parameters: string[]; notices?: string[] },
	property: (name: string) => INodeProperties,
) {
	expect(await editor.visibleParameters()).toEqual([...before, ...expected.parameters]);
	const parameters = editor.panel.locator(byTestId('node-parameters'));
	const spaced = (text: string) => text.replace(/\s+/g, ' ');
	for (const name of expected.parameters) {
		const { displayName, hint } = property(name);
		const label = parameters.locator(`label[for="${name}"]`);
		expect((await label.locator('span').first().textContent())?.trim()).toBe(displayName);
		// Everything the panel shows around the parameter: its label, input and hint.
		const has = browser.page.locator(`label[for="${name}"]`);
		const item = editor.panel.locator(byTestId('parameter-item')).filter({ has }).last();
		if (hint) expect(spaced(await item.innerText())).toContain(spaced(hint));
	}
	const notices = (expected.notices ?? []).map((name) => property(name).displayName);
	const shown = await parameters.locator('[role="alert"]:visible').allInnerTexts();
	expect(shown.map((text) => text.trim())).toEqual(notices);
}
