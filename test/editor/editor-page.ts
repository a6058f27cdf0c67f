/** Only stable hooks (data-test-id, label[for=<parameter>]): they work on 2.40.7, 2.41.1 and 1.123.81. */
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { pollUntil } from '../../scripts/poll';

/** How long one step of the editor may take on a busy 2-core machine. */
const STEP_TIMEOUT_MS = 30_000;
/** Running a node or testing a credential goes through n8n's backend to the sandbox. */
export const RUN_TIMEOUT_MS = 60_000;

export const byTestId = (id: string) => `[data-test-id="${id}"]`;

export class EditorPage {
	constructor(
		readonly page: Page,
		readonly baseUrl: string,
		/** Where screenshots go; none are taken when undefined. */
		private readonly screenshotDir?: string,
	) {
		page.setDefaultTimeout(STEP_TIMEOUT_MS);
	}

	async openWorkflow(id: string): Promise<void> {
		await this.page.goto(`${this.baseUrl}/workflow/${id}`);
		await this.page.locator(byTestId('canvas-node')).first().waitFor();
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

	/** The parameters the panel shows, by name, in order (notices have no name). */
	async visibleParameters(): Promise<string[]> {
		return await this.panel
			.locator(`${byTestId('node-parameters')} label[for]:visible`)
			.evaluateAll((labels) => labels.map((label) => label.getAttribute('for') ?? ''));
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

	/** As shown: the grid renders only the columns in view, and one page of rows. */
	async dataTableGrid(): Promise<{ columns: string[]; rows: Array<Record<string, string>> }> {
		const grid = this.page.locator(byTestId('data-table-grid'));
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

	get credentialDialog(): Locator {
		return this.page.locator(byTestId('editCredential-modal'));
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
		// The text around the shown result's Retry button (the other outcome's banner stays in the page).
		const retry = this.credentialDialog.locator('button[title="Retry credential test"]:visible');
		return (await retry.locator('xpath=../..').innerText()).trim();
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

	/** Of `target`, of the panel's parameters column, or of the page; toasts left out. */
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
