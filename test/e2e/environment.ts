/**
 * A fresh n8n (BF_N8N_VERSION, default package.json's config.n8nVersion) with this package as a community package, and a
 * Redis when asked.
 */
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
	redisCredentialsOf,
	requireRuntime,
	type DataTable,
	type Runtime,
	type OtherCredential,
	type SandboxCredential,
	type WorkflowJson,
} from '../../scripts/n8n';
import { stopGroup } from '../../scripts/process-group';
import { requireQueueServices } from '../../scripts/queue';
import { saveRedis, startRedis, type RedisInstance } from '../../scripts/queue/redis';
import { rl } from './workflows';

export interface PackageInN8n {
	runtime: Runtime;
	n8n: N8nServer;
	userFolder: string;
	/** With `redis: true`: the Redis that every Redis credential the workflows name points at. */
	redis?: RedisInstance;
	/** As an outage: Redis stops (its keys saved first); the function returned starts it again. */
	stopRedis(): Promise<() => Promise<void>>;
	/** Stops n8n and starts it again on the same folder and port (a deploy); `n8n` is the new one. */
	restart(between?: () => Promise<void>): Promise<N8nServer>;
	stop(): Promise<void>;
}

export async function startN8nWithPackage(setup: {
	credentials: Array<SandboxCredential | OtherCredential>;
	workflows: WorkflowJson[];
	/** Starts a Redis (for example 03's claim), which stays up across restart(). */
	redis?: boolean;
	/** More environment for n8n (`npm run dev`'s HOT_RELOAD_ENV, say). */
	extraEnv?: Record<string, string>;
}): Promise<PackageInN8n> {
	const runtime = requireRuntime();
	build();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-e2e-n8n-'));
	const removeFolder = () => {
		if (!process.env.BF_E2E_KEEP) fs.rmSync(userFolder, { recursive: true, force: true });
	};
	let n8n: N8nServer | undefined;
	let redis: RedisInstance | undefined;
	const endRedis = async () => redis && (await stopGroup(redis.process, 'SIGTERM', 10_000));
	const startOptions = {
		userFolder,
		logLevel: 'info' as const,
		extraEnv: { GENERIC_TIMEZONE: 'UTC', ...setup.extraEnv },
	};
	try {
		installPackage(userFolder);
		const cliOptions = { userFolder, port: 0 };
		if (setup.redis) redis = await startRedis(requireQueueServices().redisServer, userFolder);
		const redisCredentials = redis ? redisCredentialsOf(setup.workflows, redis.port) : [];
		await importCredentials(runtime, cliOptions, [...setup.credentials, ...redisCredentials]);
		await importWorkflows(runtime, cliOptions, setup.workflows);
		n8n = await N8nServer.start(runtime, startOptions);
		await n8n.setupOwner();
	} catch (error) {
		await n8n?.stop();
		await endRedis();
		removeFolder();
		throw error;
	}
	let server = n8n;
	const environment: PackageInN8n = {
		runtime,
		n8n: server,
		userFolder,
		redis,
		restart: async (between) => {
			await server.stop();
			await between?.();
			server = await N8nServer.start(runtime, { ...startOptions, port: server.options.port });
			environment.n8n = server;
			return server;
		},
		stop: async () => {
			await server.stop();
			await endRedis();
			removeFolder();
		},
		stopRedis: async () => {
			const { port } = redis!;
			await saveRedis(port);
			await endRedis();
			return async () => {
				redis = await startRedis(requireQueueServices().redisServer, userFolder, port);
				environment.redis = redis;
			};
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
