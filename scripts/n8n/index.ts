// A real n8n with this package installed, for scripts/dev.ts and test/e2e; what it relies on
// about n8n is in docs/n8n-notes.md.
export { build, installPackage } from './community-package';
export {
	createDataTable,
	dataTableRows,
	findDataTable,
	type DataTable,
	type DataTableRow,
} from './data-tables';
export type { N8nOptions } from './environment';
export type { ExecuteResult } from './server';
export {
	APPROVERS_CREDENTIAL,
	importCredentials,
	importWorkflows,
	loadExamples,
	MCP_BEARER_CREDENTIAL,
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	type OtherCredential,
	type SandboxCredential,
	type WorkflowJson,
} from './import';
export { ensureRuntime, REPO_ROOT, requireRuntime, type Runtime } from './runtime';
export { N8nApi } from './http';
export { N8nServer, runInServer } from './server';
export {
	devOwner,
	OWNER_PASSWORD_FILE,
	privateUserFolder,
	secretInUserFolder,
} from './user-folder';
