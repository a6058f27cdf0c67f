/**
 * The user PostgreSQL runs as. Its server refuses to run as root, so when these scripts run as
 * root (CI does) it runs as an unprivileged user: `nobody` by default (present on every Debian
 * and most Linux systems, so nothing is added to the machine), or BF_POSTGRES_USER. Otherwise it
 * runs as the current user.
 */
import { spawnSync } from 'child_process';

export interface ServiceUser {
	name: string;
	uid: number;
	gid: number;
}

/** undefined: run as the current user (it is not root). */
export function postgresUser(): ServiceUser | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const name = process.env.BF_POSTGRES_USER || 'nobody';
	const uid = idOf(name, '-u');
	const gid = idOf(name, '-g');
	if (uid === 0) throw new Error(`BF_POSTGRES_USER=${name} is root; PostgreSQL refuses root`);
	return { name, uid, gid };
}

function idOf(name: string, flag: '-u' | '-g'): number {
	const result = spawnSync('id', [flag, name], { encoding: 'utf8' });
	const id = Number(result.stdout.trim());
	if (result.status !== 0 || !Number.isInteger(id)) {
		throw new Error(
			`user "${name}" does not exist (PostgreSQL needs an unprivileged user when run as root: ` +
				`create one, e.g. \`useradd --system ${name}\`, or set BF_POSTGRES_USER)`,
		);
	}
	return id;
}
