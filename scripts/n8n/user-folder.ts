// The user folder holds n8n's encryption key, database and the dev secrets: 0700, secret files 0600.
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** n8n creates its SQLite database and journal with the process umask, which the settings-file check (environment.ts) does not cover. */
export const PRIVATE_UMASK = 0o077;

export interface DevOwner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

export const OWNER_PASSWORD_FILE = 'bf-owner-password';

/** chmod too: a dev folder made before they were private is tightened. */
export function privateUserFolder(userFolder: string): string {
	for (const dir of [userFolder, path.join(userFolder, '.n8n')]) {
		fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
		fs.chmodSync(dir, 0o700);
	}
	return userFolder;
}

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

/** n8n wants 8-64 characters with a number and an uppercase letter: `Bf1-` gives both. */
function newOwnerPassword(): string {
	return `Bf1-${randomBytes(18).toString('base64url')}`;
}

export function devOwner(userFolder: string): DevOwner {
	return {
		email: 'dev@business-finance.local',
		firstName: 'Dev',
		lastName: 'Owner',
		password: secretInUserFolder(userFolder, OWNER_PASSWORD_FILE, newOwnerPassword),
	};
}
