/**
 * An n8n user folder (`N8N_USER_FOLDER`) kept to its user: its `.n8n/` holds n8n's encryption key
 * and database, and the folder holds example 06's MCP token, so neither folder is open to other
 * local users.
 */
import * as fs from 'fs';
import * as path from 'path';

/**
 * The umask every n8n process is started with: n8n creates its SQLite database (and the journal
 * beside it) with the process umask, which the settings-file check (environment.ts) does not cover.
 */
export const PRIVATE_UMASK = 0o077;

/**
 * Creates the user folder and its `.n8n/` with mode 0700, or tightens them to 0700 when they
 * exist (a dev folder made before they were private). Returns the user folder.
 */
export function privateUserFolder(userFolder: string): string {
	for (const dir of [userFolder, path.join(userFolder, '.n8n')]) {
		fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
		fs.chmodSync(dir, 0o700);
	}
	return userFolder;
}
