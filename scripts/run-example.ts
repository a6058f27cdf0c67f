// `npm run dev:run -- <example>` (README.md, "Try it locally"). Runs inside the server, as the
// editor's "Execute workflow" does, because n8n's CLI cannot run the Data Table node.
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { N8nApi, REPO_ROOT, loadExamples, runInServer, type WorkflowJson } from './n8n';
import { DEV_SESSION_FILE, MCP_TOKEN_FILE, readDevSession, type DevSession } from './dev-session';

const STARTS = ['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.manualTrigger'];
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

function exampleNamed(prefix: string): { file: string; workflow: WorkflowJson } {
	const found = loadExamples().filter((e) => e.file.startsWith(`${prefix}-`));
	if (found.length !== 1) {
		const files = loadExamples().map((e) => e.file.split('-')[0]);
		throw new Error(`no example "${prefix}": one of ${files.join(', ')}`);
	}
	return found[0];
}

const daysAgo = (days: number) =>
	new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

async function askOverMcp(session: DevSession, userFolder: string, trigger: any): Promise<void> {
	const url = new URL(`${session.n8n}/mcp/${trigger.parameters.path}`);
	const token = fs.readFileSync(path.join(userFolder, MCP_TOKEN_FILE), 'utf8').trim();
	const client = new Client({ name: 'bf-dev-run', version: '1.0.0' });
	const headers = { authorization: `Bearer ${token}` };
	try {
		await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
	} catch (error) {
		// The client's message holds n8n's whole answer (a JSON body with a stack): its code says enough.
		const code = (error as { code?: unknown }).code;
		const why =
			typeof code === 'number' ? `HTTP ${code}` : String(error).split('\n')[0].slice(0, 120);
		throw new Error(
			`${url} does not answer (${why}): publish examples 06 and 06b first (06b's table: examples/README.md)`,
		);
	}
	const { tools } = await client.listTools();
	console.log(`${url} offers: ${tools.map((t) => t.name).join(', ')}`);
	const args = { from: daysAgo(7), to: daysAgo(0) };
	const answer: any = await client.callTool({ name: 'get_transactions', arguments: args });
	console.log(`get_transactions ${JSON.stringify(args)} answered:`);
	console.log((answer.content ?? []).map((c: any) => c.text ?? '').join(''));
	await client.close();
}

async function runNow(session: DevSession, userFolder: string, workflow: WorkflowJson) {
	const start = workflow.nodes.find((n: any) => STARTS.includes(n.type));
	if (!start) {
		throw new Error(`"${workflow.name}" starts on events, not by hand: see README.md, Usage`);
	}
	const n8n = new N8nApi(session.n8n, userFolder);
	const run = await runInServer(n8n, session.major, workflow.id!, start.name);
	const runData = run.data?.resultData?.runData ?? {};
	console.log(`"${workflow.name}": execution ${run.id}, ${run.status}`);
	for (const [node, runs] of Object.entries<any[]>(runData)) {
		const failed: string | undefined = runs.find((one) => one.error)?.error?.message;
		const items = runs.reduce((sum, one) => sum + (one.data?.main?.[0]?.length ?? 0), 0);
		console.log(`  ${node}: ${failed ? `failed: ${failed}` : `${items} items`}`);
	}
	if (run.status !== 'success') process.exitCode = 1;
}

async function main(): Promise<void> {
	const prefix = process.argv[2];
	if (!prefix) throw new Error('which example? e.g. `npm run dev:run -- 01d`');
	const userFolder = path.resolve(process.env.BF_DEV_FOLDER || path.join(REPO_ROOT, '.n8n-dev'));
	const session = readDevSession(userFolder);
	if (!session) throw new Error(`no ${DEV_SESSION_FILE} in ${userFolder}: run \`npm run dev\``);
	const { workflow } = exampleNamed(prefix);
	const mcp = workflow.nodes.find((n: any) => n.type === MCP_TRIGGER);
	if (mcp) await askOverMcp(session, userFolder, mcp);
	else await runNow(session, userFolder, workflow);
}

main().catch((error) => {
	console.error(`[dev:run] ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
});
