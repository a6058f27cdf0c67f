/**
 * An n8n user folder (`N8N_USER_FOLDER`) kept to its user: its `.n8n/` holds n8n's encryption key
 * and database, and the folder holds the dev owner's password and example 06's MCP token, so
 * neither folder is open to other local users, and every secret file is 0600.
 */
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/**
 * The umask every n8n process is started with: n8n creates its SQLite database (and the journal
 * beside it) with the process umask, which the settings-file check (environment.ts) does not cover.
 */
export const PRIVATE_UMASK = 0o077;

/** The owner `npm run dev` and the suites create; the password is the user folder's own. */
export interface DevOwner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

/** The file of the user folder that keeps the owner's password. */
export const OWNER_PASSWORD_FILE = 'bf-owner-password';

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

/**
 * A secret kept in a file of the user folder: made by `make` on first use (file mode 0600), read
 * back afterwards, so whoever set it up (a login, an MCP client) keeps working across restarts.
 */
export function secretInUserFolder(userFolder: string, name: string, make: () => string): string {
	const file = path.join(privateUserFolder(userFolder), name);
	try {
		// 'wx': never overwrites, so two processes starting at once agree on one secret.
		fs.writeFileSync(file, make(), { mode: 0o600, flag: 'wx' });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
	}
	fs.chmodSync(file, 0o600);
	return fs.readFileSync(file, 'utf8').trim();
}

/**
 * n8n wants 8-64 characters with a number and an uppercase letter: the fixed `Bf1-` gives both,
 * the 144 random bits after it make the password.
 */
function newOwnerPassword(): string {
	return `Bf1-${randomBytes(18).toString('base64url')}`;
}

/** The owner of the n8n whose user folder this is (its password made on first use). */
export function devOwner(userFolder: string): DevOwner {
	return {
		email: 'dev@business-finance.local',
		firstName: 'Dev',
		lastName: 'Owner',
		password: secretInUserFolder(userFolder, OWNER_PASSWORD_FILE, newOwnerPassword),
	};
}
