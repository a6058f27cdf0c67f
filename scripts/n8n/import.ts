import * as fs from 'fs';
import * as path from 'path';
import { BusinessFinanceApi } from '../../credentials/BusinessFinanceApi.credentials';
import { runCliOk } from './cli';
import type { N8nOptions } from './environment';
import { REPO_ROOT, type Runtime } from './runtime';

/** The examples refer to these. */
export const SANDBOX_CREDENTIAL_ID = 'bfSandboxCred001';
export const SANDBOX_CREDENTIAL_NAME = 'Business Finance sandbox';
export const MCP_BEARER_CREDENTIAL = {
	id: 'bfMcpBearerCred1',
	name: 'MCP bearer token',
	type: 'httpBearerAuth',
};
/**
 * The Basic Auth credential example 06b's approval form asks for (data: `{ user, password }`):
 * without it, on n8n 1.x anyone who guesses `/form-waiting/<execution number>` approves.
 */
export const APPROVERS_CREDENTIAL = {
	id: 'bfApproversCred1',
	name: 'Approvers (Basic Auth)',
	type: 'httpBasicAuth',
};

const CREDENTIAL_TYPE = new BusinessFinanceApi().name;

export interface SandboxCredential {
	apiKey: string;
	baseUrl: string;
	webhookSigningSecret?: string;
	id?: string;
	name?: string;
}

export interface OtherCredential {
	id: string;
	name: string;
	type: string;
	/** Field values as the credential type has them (an SMTP port is a number, `secure` a boolean). */
	data: Record<string, string | number | boolean>;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<Record<string, any>>;
	connections: Record<string, any>;
	settings?: Record<string, any>;
	active?: boolean;
	[key: string]: any;
}

/** A credential for each Redis credential the workflows name (n8n's Redis node), at a local Redis. */
export function redisCredentialsOf(workflows: WorkflowJson[], port: number): OtherCredential[] {
	const named = new Map<string, string>();
	for (const node of workflows.flatMap((workflow) => workflow.nodes)) {
		const credential = node.credentials?.redis;
		if (credential) named.set(credential.id, credential.name);
	}
	const data = { host: '127.0.0.1', port, database: 0, password: '' };
	return [...named].map(([id, name]) => ({ id, name, type: 'redis', data }));
}

/** The temp file holds the API key in clear: removed afterwards. */
export async function importCredentials(
	runtime: Runtime,
	options: N8nOptions,
	credentials: Array<SandboxCredential | OtherCredential>,
): Promise<void> {
	const file = writeCredentialFile(options.userFolder, credentials);
	try {
		await runCliOk(runtime, options, ['import:credentials', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
}

function writeCredentialFile(
	dir: string,
	credentials: Array<SandboxCredential | OtherCredential>,
): string {
	const file = path.join(dir, `credentials-${process.pid}-${Date.now()}.json`);
	const now = new Date().toISOString();
	const entries = credentials.map((credential) => ({
		id: credential.id ?? SANDBOX_CREDENTIAL_ID,
		name: credential.name ?? SANDBOX_CREDENTIAL_NAME,
		...('type' in credential
			? { type: credential.type, data: credential.data }
			: { type: CREDENTIAL_TYPE, data: sandboxCredentialData(credential) }),
		createdAt: now,
		updatedAt: now,
	}));
	fs.writeFileSync(file, JSON.stringify(entries, null, 2), { mode: 0o600 });
	return file;
}

function sandboxCredentialData({ apiKey, baseUrl, webhookSigningSecret }: SandboxCredential) {
	return { apiKey, baseUrl, ...(webhookSigningSecret ? { webhookSigningSecret } : {}) };
}

export async function importWorkflows(
	runtime: Runtime,
	options: N8nOptions,
	workflows: WorkflowJson[],
): Promise<void> {
	const dir = fs.mkdtempSync(path.join(options.userFolder, 'import-'));
	try {
		workflows.forEach((workflow, index) => {
			if (!workflow.id) throw new Error(`workflow "${workflow.name}" needs an id to be imported`);
			const body = { active: false, settings: {}, ...workflow };
			const file = path.join(dir, `${String(index).padStart(3, '0')}.json`);
			fs.writeFileSync(file, JSON.stringify(body));
		});
		await runCliOk(runtime, options, ['import:workflow', '--separate', `--input=${dir}`]);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

export function loadExamples(): Array<{ file: string; workflow: WorkflowJson }> {
	const dir = path.join(REPO_ROOT, 'examples');
	return fs
		.readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => ({
			file: name,
			workflow: JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as WorkflowJson,
		}));
}
