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
	it('the line for example 03, after the banner’s export line, marks a new invoice paid', async () => {
		const [exportLine] = pasteLines(sandbox.baseUrl, 'a-token');
		const lines = tryItLines().filter((line) => line.includes('$SANDBOX'));
		expect(lines).toHaveLength(1);
		// Not execFileSync: the sandbox answers from this process.
		const { stdout } = await promisify(execFile)('bash', ['-c', `${exportLine}\n${lines[0]}`], {
			env: { PATH: process.env.PATH },
		});
		// The admin route answers the receivable it moved (the event it publishes: test/trigger).
		const paid = JSON.parse(stdout).data;
		expect(paid).toMatchObject({ invoice_number: 'INV-TRY-1', amount: 100, status: 'paid' });
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
