/**
 * The n8n editor as the test drives it: its stable hooks (data-test-id, label[for=<parameter>])
 * in one place. The same hooks work on n8n 2.40.7 and 1.123.81.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { pollUntil } from '../../scripts/poll';

/** How long one step of the editor may take on a busy 2-core machine. */
const STEP_TIMEOUT_MS = 30_000;
/** Running a node or testing a credential goes through n8n's backend to the sandbox. */
const RUN_TIMEOUT_MS = 60_000;

const byTestId = (id: string) => `[data-test-id="${id}"]`;

export class EditorPage {
	constructor(
		readonly page: Page,
		readonly baseUrl: string,
		/** Where screenshots go; none are taken when undefined. */
		private readonly screenshotDir?: string,
	) {
		page.setDefaultTimeout(STEP_TIMEOUT_MS);
	}

	async signIn(email: string, password: string): Promise<void> {
		await this.page.goto(`${this.baseUrl}/signin`);
		await this.page.fill('input[name="emailOrLdapLoginId"]', email);
		await this.page.fill('input[name="password"]', password);
		await this.page.keyboard.press('Enter');
		await this.page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	}

	async openWorkflow(id: string): Promise<void> {
		await this.page.goto(`${this.baseUrl}/workflow/${id}`);
		await this.page.locator(byTestId('canvas-node')).first().waitFor();
	}

	/** Names and types of the nodes on the canvas. */
	async canvasNodes(): Promise<Array<{ name: string; type: string }>> {
		return await this.page.locator(byTestId('canvas-node')).evaluateAll((elements) =>
			elements.map((e) => ({
				name: e.getAttribute('data-node-name') ?? '',
				type: e.getAttribute('data-node-type') ?? '',
			})),
		);
	}

	/** The node panel (NDV) of the open node. */
	get panel(): Locator {
		return this.page.locator(byTestId('ndv'));
	}

	async openNode(name: string): Promise<void> {
		await this.page.locator(`${byTestId('canvas-node')}[data-node-name="${name}"]`).dblclick();
		await this.panel.locator(byTestId('node-parameters')).waitFor();
	}

	/** Closes the node panel, if it is still open (Escape in a dialog over it closes both). */
	async closeNode(): Promise<void> {
		if (!(await this.panel.isVisible())) return;
		// 2.x: a close button in the panel; 1.x: "Back to canvas" above it.
		await this.page
			.locator(`${byTestId('ndv-close-button')}, ${byTestId('back-to-canvas')}`)
			.first()
			.click();
		await this.panel.waitFor({ state: 'hidden' });
	}

	/** Adds a node from the nodes panel: searches `search`, opens `nodeName`, picks `action`. */
	async addNode(search: string, nodeName: string, action: string): Promise<void> {
		await this.page.locator(byTestId('node-creator-plus-button')).click();
		await this.page
			.locator(
				`${byTestId('node-creator-search-bar')} input, input${byTestId('node-creator-search-bar')}`,
			)
			.fill(search);
		const item = (text: string) =>
			this.page.locator(byTestId('item-iterator-item'), { hasText: text }).first();
		await item(nodeName).click();
		await item(action).click();
		await this.panel.locator(byTestId('parameter-input-operation')).waitFor();
	}

	/** Picks an option of an options parameter by its name (the first line each option shows). */
	async pick(parameter: string, option: string): Promise<void> {
		await this.panel.locator(byTestId(`parameter-input-${parameter}`)).click();
		const items = this.page.locator('.el-select-dropdown__item:visible');
		await items.first().waitFor();
		const names = (await items.allInnerTexts()).map((text) => text.split('\n')[0].trim());
		const index = names.indexOf(option);
		if (index < 0) throw new Error(`${parameter} offers ${names.join(', ')}; not ${option}`);
		await items.nth(index).click();
		// The list closes with an animation: the next pick must not read this one.
		await items.first().waitFor({ state: 'hidden' });
	}

	/** The parameters the panel shows, by name, in order (notices have no name: see notices()). */
	async visibleParameters(): Promise<string[]> {
		return await this.panel
			.locator(`${byTestId('node-parameters')} label[for]:visible`)
			.evaluateAll((labels) => labels.map((label) => label.getAttribute('for') ?? ''));
	}

	/** The label the panel shows for a parameter. */
	async label(parameter: string): Promise<string> {
		const label = this.panel.locator(`${byTestId('node-parameters')} label[for="${parameter}"]`);
		return ((await label.locator('span').first().textContent()) ?? '').trim();
	}

	/** Everything the panel shows around one parameter: its label, input and hint. */
	parameterItem(parameter: string): Locator {
		return this.panel
			.locator(byTestId('parameter-item'))
			.filter({ has: this.page.locator(`label[for="${parameter}"]`) })
			.last();
	}

	/** The texts of the notices the panel shows. */
	async notices(): Promise<string[]> {
		const notices = this.panel.locator(`${byTestId('node-parameters')} [role="alert"]:visible`);
		return (await notices.allInnerTexts()).map((text) => text.trim());
	}

	/** Opens a resource locator's list and types a search; resolves with the listed entries. */
	async searchList(parameter: string, search: string): Promise<string[]> {
		const locator = this.panel.locator(byTestId(`resource-locator-${parameter}`));
		await locator.locator(byTestId('rlc-input')).click();
		const items = this.page.locator(`${byTestId('rlc-item')}:visible`);
		// Search once the unfiltered first page is in: a search typed earlier can be reset by it.
		await items.first().waitFor();
		const searchBox = this.page.locator(
			`${byTestId('rlc-search')} input:visible, input${byTestId('rlc-search')}:visible`,
		);
		await searchBox.first().fill(search);
		let shown: string[] = [];
		return await pollUntil(
			() =>
				`the ${parameter} list to show only entries with "${search}" (shows ${shown.join('; ')})`,
			async () => {
				shown = (await items.allInnerTexts()).map((text) => text.trim());
				const filtered = shown.every((entry) => entry.toLowerCase().includes(search.toLowerCase()));
				return shown.length > 0 && filtered && shown;
			},
			STEP_TIMEOUT_MS,
		);
	}

	/** Clicks the panel's execute button and waits for the run to finish. */
	async executeNode(): Promise<void> {
		await this.panel.locator(byTestId('node-execute-button')).click();
		await this.panel
			.locator(
				`${byTestId('output-panel')} ${byTestId('node-run-status-success')}, ${byTestId('output-panel')} table`,
			)
			.first()
			.waitFor({ timeout: RUN_TIMEOUT_MS });
	}

	/** "N items" above the output table. */
	async outputItemCount(): Promise<number> {
		const text = await this.panel
			.locator(`${byTestId('output-panel')} ${byTestId('ndv-items-count')}`)
			.first()
			.innerText();
		return Number(/(\d+)\s+items?/.exec(text)?.[1] ?? NaN);
	}

	/** The output table's column headers and rows (the first page). */
	async outputTable(): Promise<{ columns: string[]; rows: string[][] }> {
		const table = this.panel.locator(`${byTestId('output-panel')} table`).first();
		await table.waitFor();
		const columns = (await table.locator('thead th').allInnerTexts()).map((t) => t.trim());
		const rows = await table
			.locator('tbody tr')
			.evaluateAll((trs) =>
				trs.map((tr) =>
					[...tr.querySelectorAll('td')].map((td) =>
						(td as { innerText: string }).innerText.trim(),
					),
				),
			);
		return { columns, rows };
	}

	/** Clicks the canvas's "Execute workflow" (a Schedule Trigger then fires once). */
	async executeWorkflow(): Promise<void> {
		await this.page.locator(byTestId('execute-workflow-button')).click();
	}

	/** Opens a data table in n8n's Data table view and waits for its grid. */
	async openDataTable(projectId: string, tableId: string): Promise<void> {
		await this.page.goto(`${this.baseUrl}/projects/${projectId}/datatables/${tableId}`);
		await this.dataTableView.locator('.ag-row').first().waitFor();
	}

	get dataTableView(): Locator {
		return this.page.locator(byTestId('data-table-details-view'));
	}

	/**
	 * "Total N" in the pagination under the grid: the row count of a table that has rows (1.x
	 * shows "Total 0" until its count has loaded, after the first rows).
	 */
	async dataTableTotal(): Promise<number> {
		const pagination = this.dataTableView.locator(byTestId('data-table-content-pagination'));
		let text = '';
		return await pollUntil(
			() => `a row count in the pagination (shows "${text}")`,
			async () => {
				text = await pagination.innerText();
				const total = Number(/Total\s+(\d+)/.exec(text)?.[1] ?? 0);
				return total > 0 && total;
			},
			STEP_TIMEOUT_MS,
		);
	}

	/**
	 * The grid's column headers and rows as shown (the grid renders only the columns in view, and
	 * one page of rows); cells by header, rows in the grid's order.
	 */
	async dataTableGrid(): Promise<{ columns: string[]; rows: Array<Record<string, string>> }> {
		const grid = this.dataTableView.locator(byTestId('data-table-grid'));
		return await grid.evaluate((element) => {
			const headers = [...element.querySelectorAll('.ag-header-cell[col-id]')]
				.map((h) => {
					// A column of the table's own has its name in an inline editor (shown twice in
					// the text) and in the title; n8n's row number has only the text.
					const label = h.querySelector('.ag-header-cell-text');
					const text = label?.getAttribute('title') ?? label?.textContent ?? '';
					const at = Number(h.getAttribute('aria-colindex'));
					return { id: h.getAttribute('col-id') ?? '', text: text.trim(), at };
				})
				.filter((h) => h.text)
				.sort((a, b) => a.at - b.at);
			const rows = new Map<number, Record<string, string>>();
			for (const row of element.querySelectorAll('.ag-row[row-index]')) {
				// Pinned rows (the "+" that adds a row) have indexes such as "b-0".
				const rowIndex = row.getAttribute('row-index') ?? '';
				if (!/^\d+$/.test(rowIndex)) continue;
				const index = Number(rowIndex);
				const cells = rows.get(index) ?? {};
				for (const header of headers) {
					const cell = row.querySelector(`.ag-cell[col-id="${header.id}"]`);
					if (cell) cells[header.text] = (cell.textContent ?? '').trim();
				}
				rows.set(index, cells);
			}
			const ordered = [...rows].sort(([a], [b]) => a - b).map(([, cells]) => cells);
			return { columns: headers.map((h) => h.text), rows: ordered };
		});
	}

	/** The credential dialog, opened from the panel's credential field. */
	get credentialDialog(): Locator {
		return this.page.locator(byTestId('editCredential-modal'));
	}

	async openCredential(): Promise<void> {
		await this.panel.locator(byTestId('credential-edit-button')).click();
		await this.credentialDialog.waitFor();
	}

	/**
	 * Waits for the dialog's connection test to show the `expected` outcome (a stale banner of the
	 * other outcome stays up while a test runs); resolves with the message it shows.
	 */
	async credentialTestResult(expected: 'success' | 'failure'): Promise<string> {
		const success = this.credentialDialog.locator(
			byTestId('credentials-config-container-test-success'),
		);
		const failure = this.credentialDialog.getByText('More details');
		const shown = expected === 'success' ? success : failure;
		await shown.waitFor({ timeout: RUN_TIMEOUT_MS }).catch(async (error: Error) => {
			const dialog = await this.credentialDialog.innerText();
			throw new Error(`no credential test ${expected} shown: ${error.message}\n${dialog}`);
		});
		if (expected === 'success') return (await success.innerText()).trim();
		await failure.click();
		return (await this.retryButton.locator('xpath=../..').innerText()).trim();
	}

	/** The Retry button of the test result shown (the other outcome's banner stays in the page). */
	private get retryButton(): Locator {
		return this.credentialDialog.locator('button[title="Retry credential test"]:visible');
	}

	/** The dialog's Retry button: tests the saved credential again. */
	async retestCredential(): Promise<void> {
		await this.retryButton.click();
	}

	/** Types into one of the credential's fields (by its label) and saves, which tests it. */
	async saveCredentialField(label: string, value: string): Promise<void> {
		const field = this.credentialDialog
			.locator(byTestId('credential-connection-parameter'))
			.filter({ hasText: label })
			.locator('input')
			.first();
		await field.fill(value);
		await this.credentialDialog.locator(byTestId('credential-save-button')).click();
	}

	async closeCredential(): Promise<void> {
		await this.page.keyboard.press('Escape');
		await this.credentialDialog.waitFor({ state: 'hidden' });
	}

	/**
	 * Saves a screenshot as `<name>.png`: of `target` (an element), of the panel's parameters
	 * column ('parameters'), or of the page. Toasts are left out.
	 */
	async screenshot(name: string, target?: Locator | 'parameters'): Promise<void> {
		if (!this.screenshotDir) return;
		fs.mkdirSync(this.screenshotDir, { recursive: true });
		const options = {
			path: path.join(this.screenshotDir, `${name}.png`),
			animations: 'disabled' as const,
			caret: 'hide' as const,
			style: '.el-notification { display: none !important; }',
		};
		if (target === 'parameters')
			await this.page.screenshot({ ...options, clip: await this.parametersColumn() });
		else await (target ?? this.page).screenshot(options);
	}

	/** The middle column of the node panel: its tabs and parameters. */
	private async parametersColumn() {
		const panel = await this.panel.boundingBox();
		const parameters = await this.panel.locator(byTestId('node-parameters')).boundingBox();
		if (!panel || !parameters) throw new Error('the node panel is not open');
		const margin = 16;
		return {
			x: parameters.x - margin,
			y: panel.y,
			width: parameters.width + 2 * margin,
			height: panel.height,
		};
	}
}
