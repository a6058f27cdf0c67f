/**
 * Holds the write lock on n8n's SQLite database from another process, as a busy instance (or a
 * backup tool) does: n8n cannot save a new execution meanwhile, so it cannot start a run.
 * `BEGIN IMMEDIATE` takes the write lock only: reading goes on, in n8n 2.x's WAL mode and in
 * 1.x's rollback journal alike, so a webhook request still reaches the trigger.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import type { Runtime } from '../../scripts/n8n';

/** Runs in n8n's Node with n8n's own sqlite3 (built for that Node); argv: sqlite3, database. */
const HOLDER = `
const sqlite3 = require(process.argv[1]);
const db = new sqlite3.Database(process.argv[2]);
db.exec('BEGIN IMMEDIATE', (error) => {
	if (error) { console.error(error.message); process.exit(1); }
	console.log('locked');
	process.stdin.resume();
	process.stdin.on('end', () => db.exec('ROLLBACK', () => db.close(() => process.exit(0))));
});
`;

export async function holdDatabaseWriteLock(runtime: Runtime, userFolder: string) {
	const sqlite3 = path.join(runtime.n8nDir, 'node_modules', 'sqlite3');
	const database = path.join(userFolder, '.n8n', 'database.sqlite');
	const holder = spawn(runtime.nodeBin, ['-e', HOLDER, sqlite3, database], {
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	const exited = new Promise<number | null>((resolve) => holder.once('exit', resolve));
	await new Promise<void>((resolve, reject) => {
		holder.stdout.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('locked')) resolve();
		});
		void exited.then((code) => reject(new Error(`the lock holder exited (${code})`)));
	});
	return {
		release: async () => {
			holder.stdin.end();
			await exited;
		},
	};
}
