/**
 * The n8n an end-to-end suite runs against: this package built and installed as a community
 * package into a fresh user folder, credentials and workflows imported with n8n's CLI, the server
 * started (the version BF_N8N_VERSION selects, default 2.40.7) and its owner created.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
	N8nServer,
	build,
	importCredentials,
	importWorkflows,
	installPackage,
	requireRuntime,
	type Runtime,
	type OtherCredential,
	type SandboxCredential,
	type WorkflowJson,
} from '../../scripts/n8n';

export interface PackageInN8n {
	runtime: Runtime;
	n8n: N8nServer;
	userFolder: string;
	/** Stops n8n and removes its user folder (kept when BF_E2E_KEEP is set). */
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
	try {
		installPackage(userFolder);
		const cliOptions = { userFolder, port: 0 };
		await importCredentials(runtime, cliOptions, setup.credentials);
		await importWorkflows(runtime, cliOptions, setup.workflows);
		n8n = await N8nServer.start(runtime, {
			userFolder,
			logLevel: 'info',
			extraEnv: { GENERIC_TIMEZONE: 'UTC' },
		});
		await n8n.setupOwner();
	} catch (error) {
		await n8n?.stop();
		removeFolder();
		throw error;
	}
	const server = n8n;
	return {
		runtime,
		n8n: server,
		userFolder,
		stop: async () => {
			await server.stop();
			removeFolder();
		},
	};
}
