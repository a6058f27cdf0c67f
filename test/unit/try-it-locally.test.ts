// Example 03's line runs here in bash, after the banner's `export` line (scripts/dev-session.ts);
// the `npm run dev:run` lines need the dev n8n, so they are only checked against the banner.
import { execFile } from 'child_process';
import { promisify } from 'util';
import { readFileSync } from 'fs';
import { join } from 'path';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { loadExamples } from '../../scripts/n8n';
import { pasteLines } from '../../scripts/dev-session';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

function tryItLines(): string[] {
	const start = README.indexOf('### Try it locally');
	const section = README.slice(start, README.indexOf('\n### ', start + 1));
	const blocks = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
	return blocks.flatMap((block) => block.split('\n').filter((line) => line.trim() !== ''));
}

const command = (line: string) => line.replace(/\s+#.*$/, '');

let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo' });
});

afterAll(async () => {
	await sandbox?.close();
});

describe('README, "Try it locally"', () => {
	/** README line `index` among those naming $SANDBOX, run in bash after the banner's export line. */
	async function runLine(index: number): Promise<any> {
		const [exportLine] = pasteLines(sandbox.baseUrl, 'a-token');
		const lines = tryItLines().filter((line) => line.includes('$SANDBOX'));
		expect(lines).toHaveLength(2);
		// Not execFileSync: the sandbox answers from this process.
		const script = `${exportLine}\n${lines[index]}`;
		const { stdout } = await promisify(execFile)('bash', ['-c', script], {
			env: { PATH: process.env.PATH },
		});
		return JSON.parse(stdout);
	}

	it('the line for example 03, after the banner’s export line, marks a new invoice paid', async () => {
		// The admin route answers the receivable it moved (the event it publishes: test/trigger).
		const paid = (await runLine(0)).data;
		expect(paid).toMatchObject({ invoice_number: 'INV-TRY-1', amount: 100, status: 'paid' });
	});

	it('the line for example 05 adds a transaction created now, which the service then lists', async () => {
		const [added] = (await runLine(1)).data;
		expect(added).toMatchObject({ type: 'deposit', amount: 250, reference: 'TRY-TX-1' });
		expect(Date.now() - Date.parse(added.created_at)).toBeLessThan(60_000);
		const today = added.created_at.slice(0, 10);
		const listed = await fetch(
			`${sandbox.baseUrl}/v1/treasury/transactions?from=${today}&limit=100`,
			{
				headers: { authorization: `Bearer ${sandbox.apiKey}` },
			},
		);
		const { data } = (await listed.json()) as { data: Array<{ id: string }> };
		expect(data.map((t) => t.id)).toContain(added.id);
	});

	it('the export line gives the sandbox’s address without /v1 (the commands add it)', () => {
		const [exportLine] = pasteLines(sandbox.baseUrl, 'a-token');
		expect(exportLine).toBe(`export SANDBOX=${sandbox.baseUrl} MCP_TOKEN=a-token`);
		expect(tryItLines().filter((line) => line.includes('$SANDBOX/v1/')).length).toBe(1);
	});

	it('the npm run dev:run lines are the banner’s, and name an example with a schedule or an MCP trigger', () => {
		const banner = pasteLines('http://127.0.0.1:4010', 'a-token').slice(1);
		const runs = tryItLines().filter((line) => line.startsWith('npm run dev:run'));
		expect(runs.map(command)).toEqual(banner.map(command));
		const starts = ['n8n-nodes-base.scheduleTrigger', '@n8n/n8n-nodes-langchain.mcpTrigger'];
		for (const line of runs) {
			const prefix = command(line).split(' ').at(-1)!;
			const found = loadExamples().filter((e) => e.file.startsWith(`${prefix}-`));
			expect(found).toHaveLength(1);
			const types = found[0].workflow.nodes.map((n: any) => n.type);
			expect(types.some((type: string) => starts.includes(type))).toBe(true);
		}
	});
});
