/** A fresh n8n (BF_N8N_VERSION, default 2.40.7) with this package as a community package. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
	N8nServer,
	build,
	createDataTable,
	importCredentials,
	importWorkflows,
	installPackage,
	requireRuntime,
	type DataTable,
	type Runtime,
	type OtherCredential,
	type SandboxCredential,
	type WorkflowJson,
} from '../../scripts/n8n';
import { rl } from './workflows';

export interface PackageInN8n {
	runtime: Runtime;
	n8n: N8nServer;
	userFolder: string;
	/** Stops n8n and starts it again on the same folder and port (a deploy); `n8n` is the new one. */
	restart(between?: () => Promise<void>): Promise<N8nServer>;
	stop(): Promise<void>;
}

export async function startN8nWithPackage(setup: {
	credentials: Array<SandboxCredential | OtherCredential>;
	workflows: WorkflowJson[];
}): Promise<PackageInN8n> {
	const runtime = requireRuntime();
	build();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-e2e-n8n-'));
	const removeFolder = () => {
		if (!process.env.BF_E2E_KEEP) fs.rmSync(userFolder, { recursive: true, force: true });
	};
	let n8n: N8nServer | undefined;
	const startOptions = {
		userFolder,
		logLevel: 'info' as const,
		extraEnv: { GENERIC_TIMEZONE: 'UTC' },
	};
	try {
		installPackage(userFolder);
		const cliOptions = { userFolder, port: 0 };
		await importCredentials(runtime, cliOptions, setup.credentials);
		await importWorkflows(runtime, cliOptions, setup.workflows);
		n8n = await N8nServer.start(runtime, startOptions);
		await n8n.setupOwner();
	} catch (error) {
		await n8n?.stop();
		removeFolder();
		throw error;
	}
	let server = n8n;
	const environment: PackageInN8n = {
		runtime,
		n8n: server,
		userFolder,
		restart: async (between) => {
			await server.stop();
			await between?.();
			server = await N8nServer.start(runtime, { ...startOptions, port: server.options.port });
			environment.n8n = server;
			return server;
		},
		stop: async () => {
			await server.stop();
			removeFolder();
		},
	};
	return environment;
}

/** The node of example 01d that creates its table (on 2.x). */
export const TABLE_NODE = 'Vendors table';

/**
 * Example 01d as a user of n8n 1.x sets it up (examples/README.md): 1.x's Data Table node has no
 * table operations, so the table is made by hand (REST API, as the editor does), TABLE_NODE is cut
 * out, and the row nodes name the table by id (as picking it From list does).
 */
export async function importWithTableMadeByHand<W extends WorkflowJson>(
	environment: PackageInN8n,
	workflows: Array<[W, string]>,
): Promise<W[]> {
	const { tableName, columns } = workflows[0][0].nodes.find(
		(n) => n.name === TABLE_NODE,
	)!.parameters;
	const copies = workflows.map(([workflow, id]) => {
		const copy = JSON.parse(JSON.stringify(workflow));
		copy.id = id;
		copy.name = `${copy.name} (n8n 1.x: table created by hand)`;
		const next = copy.connections[TABLE_NODE].main[0][0].node;
		copy.nodes = copy.nodes.filter((n: { name: string }) => n.name !== TABLE_NODE);
		delete copy.connections[TABLE_NODE];
		for (const from of Object.values(copy.connections) as any[]) {
			for (const link of from.main[0]) if (link.node === TABLE_NODE) link.node = next;
		}
		return copy;
	});
	await importWithTable(environment, tableName, columns.column, copies);
	return copies;
}

/** Creates a data table, then imports `workflows` with each Data table node picking it by id. */
export async function importWithTable(
	environment: PackageInN8n,
	name: string,
	columns: Parameters<typeof createDataTable>[2],
	workflows: WorkflowJson[],
): Promise<DataTable> {
	const table = await createDataTable(environment.n8n, name, columns);
	for (const node of workflows.flatMap((workflow) => workflow.nodes)) {
		if (node.parameters.dataTableId) node.parameters.dataTableId = rl(table.id);
	}
	const cli = { userFolder: environment.userFolder, port: 0 };
	await importWorkflows(environment.runtime, cli, workflows);
	return table;
}
