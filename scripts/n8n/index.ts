/**
 * A real n8n with this package loaded as a community package, for `npm run dev` (scripts/dev.ts)
 * and the e2e suite (test/e2e). What these modules rely on about n8n is in docs/n8n-notes.md.
 *
 * runtime.ts            which n8n and Node to run (provisioned by scripts/provision-n8n.sh)
 * community-package.ts  build this package and install it into an n8n user folder
 * environment.ts        the environment every n8n process gets
 * cli.ts                n8n's command line
 * import.ts             credentials and workflows imported with the CLI; examples/
 * process.ts            an n8n process in its own process group, ready once it answers
 * user-folder.ts        the user folder kept private; the owner and its password
 * http.ts               n8n's REST and public APIs as the owner
 * data-tables.ts        n8n's data tables through its REST API
 * server.ts             N8nServer: the above behind one handle, and workflow runs
 */
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
