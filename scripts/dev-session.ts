// Where the running `npm run dev` is, for `npm run dev:run` (scripts/run-example.ts).
import * as fs from 'fs';
import * as path from 'path';

export const DEV_SESSION_FILE = 'dev-session.json';
export const MCP_TOKEN_FILE = 'bf-mcp-token';

export interface DevSession {
	n8n: string;
	major: number;
}

export function writeDevSession(userFolder: string, session: DevSession): void {
	fs.writeFileSync(path.join(userFolder, DEV_SESSION_FILE), JSON.stringify(session));
}

export function removeDevSession(userFolder: string): void {
	fs.rmSync(path.join(userFolder, DEV_SESSION_FILE), { force: true });
}

export function readDevSession(userFolder: string): DevSession | undefined {
	try {
		return JSON.parse(fs.readFileSync(path.join(userFolder, DEV_SESSION_FILE), 'utf8'));
	} catch {
		return undefined;
	}
}

/** README.md's commands add `/v1` to $SANDBOX themselves. */
export function pasteLines(sandboxUrl: string, mcpToken: string): string[] {
	return [
		`export SANDBOX=${sandboxUrl} MCP_TOKEN=${mcpToken}`,
		'npm run dev:run -- 01d   # runs example 01d now instead of on the hour; see Overview -> Data tables',
		"npm run dev:run -- 06    # example 06 as an MCP client: its tools, last week's transactions",
	];
}
