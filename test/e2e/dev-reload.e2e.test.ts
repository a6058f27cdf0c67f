/**
 * `npm run dev` on n8n 2.41 and later: a rebuilt package is reloaded in the running n8n, without a
 * restart (scripts/n8n/hot-reload.ts). The rebuild is stood in for by reinstalling the build and
 * then changing the installed copy, as an edit of the sources would change the build.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
	HOT_RELOAD_ENV,
	PACKAGE_NAME,
	WATCHING,
	installPackage,
	installedPackage,
	reinstallInPlace,
	reloadsInPlace,
	requireRuntime,
} from '../../scripts/n8n';
import { startN8nWithPackage, type PackageInN8n } from './environment';

const runtime = requireRuntime();
const ACTION = `${PACKAGE_NAME}.businessFinance`;
const NODE_FILE = 'dist/nodes/BusinessFinance/BusinessFinance.node.js';

let environment: PackageInN8n;

beforeAll(async () => {
	if (!reloadsInPlace(runtime)) return;
	// debug: n8n says when its watcher is on (WATCHING), which it sets up after it is ready
	const extraEnv = { ...HOT_RELOAD_ENV, N8N_LOG_LEVEL: 'debug' };
	environment = await startN8nWithPackage({ credentials: [], workflows: [], extraEnv });
	const watching = async () => environment.n8n.log().includes(WATCHING);
	await environment.n8n.waitFor('n8n to watch the package folders', watching, 30_000);
}, 300_000);

afterAll(async () => {
	await environment?.stop();
});

/** The installed copy of the action node, as `npm run dev` installs it into n8n's folder. */
const installed = () => path.join(installedPackage(environment.userFolder), NODE_FILE);

/** Reinstalls the build as `npm run dev` does, then makes `edit` to its action node. */
const installEdited = (edit: (source: string) => string) => () => {
	installPackage(environment.userFolder, { inPlace: true });
	fs.writeFileSync(installed(), edit(fs.readFileSync(installed(), 'utf8')));
};

/**
 * The action node's name in n8n's node types once it is `expected`, else the last one read within
 * 10 s: n8n writes its types file after the reload it logs, so a read just after it can find the
 * old file, or one half written (no list).
 */
async function actionDisplayName(expected: string): Promise<string | undefined> {
	let seen: string | undefined;
	const read = async () => {
		const types = await environment.n8n.nodeTypes().catch(() => undefined);
		seen = Array.isArray(types) ? types.find((t) => t.name === ACTION)?.displayName : seen;
		return seen === expected;
	};
	await environment.n8n.waitFor(`the action node named ${expected}`, read, 10_000).catch(() => {});
	return seen;
}

(reloadsInPlace(runtime) ? describe : describe.skip)(
	`n8n ${runtime.version} with N8N_DEV_RELOAD`,
	() => {
		it('a changed build shows in the running n8n, which keeps its process', async () => {
			const pid = environment.n8n.process.child.pid;
			expect(await actionDisplayName('Business Finance')).toBe('Business Finance');
			const rename = (source: string) =>
				source.replace(
					"displayName: 'Business Finance',",
					"displayName: 'Business Finance (edited)',",
				);
			expect(await reinstallInPlace(environment.n8n, 20_000, installEdited(rename))).toBe(true);
			expect(await actionDisplayName('Business Finance (edited)')).toBe(
				'Business Finance (edited)',
			);
			// twice: a reinstall keeps n8n watching
			expect(await reinstallInPlace(environment.n8n, 20_000)).toBe(true);
			expect(await actionDisplayName('Business Finance')).toBe('Business Finance');
			expect(environment.n8n.process.child.pid).toBe(pid);
			expect(environment.n8n.process.running()).toBe(true);
		});

		it('a build n8n cannot load is reported, so that `npm run dev` restarts n8n instead', async () => {
			const broken = () => 'this is not JavaScript {';
			expect(await reinstallInPlace(environment.n8n, 20_000, installEdited(broken))).toBe(false);
			// the next good build reloads again
			expect(await reinstallInPlace(environment.n8n, 20_000)).toBe(true);
			expect(await actionDisplayName('Business Finance')).toBe('Business Finance');
		});

		it('a change n8n did not see is written again until a reload begins', async () => {
			// n8n logs WATCHING before it has subscribed, so an early change can go unseen: here none
			// is made, and only the rewrite of the unchanged action node starts the reload
			const nothingChanged = () => undefined;
			expect(await reinstallInPlace(environment.n8n, 20_000, nothingChanged)).toBe(true);
			expect(await actionDisplayName('Business Finance')).toBe('Business Finance');
		});
	},
);
