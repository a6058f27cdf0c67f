/**
 * The n8n user folder that `npm run dev`, the e2e suites and the benchmarks give n8n
 * (scripts/n8n/user-folder.ts): private to its user, and n8n spawned under umask 077. That n8n
 * itself then writes its settings file and database private is checked in a real n8n by
 * test/e2e/n8n.e2e.test.ts.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { privateUserFolder } from '../../scripts/n8n';
import { PRIVATE_UMASK } from '../../scripts/n8n/user-folder';
import { withUmask } from '../../scripts/process-group';

let root: string;
beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-user-folder-test-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('the user folder', () => {
	it('is made 0700, its .n8n too', () => {
		const folder = privateUserFolder(path.join(root, 'new', 'dev'));
		expect(modeOf(folder)).toBe(0o700);
		expect(modeOf(path.join(folder, '.n8n'))).toBe(0o700);
	});

	it('is tightened to 0700 when it exists open to others (a dev folder from before)', () => {
		const folder = path.join(root, 'dev');
		fs.mkdirSync(path.join(folder, '.n8n'), { recursive: true, mode: 0o755 });
		fs.chmodSync(folder, 0o755);
		fs.chmodSync(path.join(folder, '.n8n'), 0o775);
		privateUserFolder(folder);
		expect(modeOf(folder)).toBe(0o700);
		expect(modeOf(path.join(folder, '.n8n'))).toBe(0o700);
	});
});

it('n8n is spawned under umask 077, so the database it creates is its user’s only', () => {
	const shown = withUmask(PRIVATE_UMASK, () =>
		spawnSync('sh', ['-c', 'umask'], { encoding: 'utf8' }),
	);
	expect(shown.stdout.trim()).toBe('0077');
	// This process's own umask is back: a file it creates now is as wide as before.
	const probe = path.join(root, 'probe');
	fs.writeFileSync(probe, '');
	const unchanged = spawnSync('sh', ['-c', 'umask'], { encoding: 'utf8' }).stdout.trim();
	expect(modeOf(probe)).toBe(0o666 & ~parseInt(unchanged, 8));
});
