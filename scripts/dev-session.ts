/**
 * Where the running `npm run dev` is, for `npm run dev:run` (scripts/run-example.ts): written in
 * the dev folder once n8n answers, removed when Ctrl-C stops it. And the lines its banner gives
 * to paste into a second terminal (README.md, "Try it locally"; test/unit/try-it-locally.test.ts).
 */
import * as fs from 'fs';
import * as path from 'path';

export const DEV_SESSION_FILE = 'dev-session.json';
/** Example 06's MCP bearer token, made once per dev folder. */
export const MCP_TOKEN_FILE = 'bf-mcp-token';

export interface DevSession {
	/** n8n's address, `http://127.0.0.1:<port>`. */
	n8n: string;
	/** n8n's major version (1 or 2). */
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

/**
 * The banner's lines to paste: the variables README.md's commands use (the sandbox's address
 * without `/v1`, which they add), then one command per job that needs no editing first.
 */
export function pasteLines(sandboxUrl: string, mcpToken: string): string[] {
	return [
		`export SANDBOX=${sandboxUrl} MCP_TOKEN=${mcpToken}`,
		'npm run dev:run -- 01d   # runs example 01d now instead of on the hour; see Overview -> Data tables',
		"npm run dev:run -- 06    # example 06 as an MCP client: its tools, last week's transactions",
	];
}
