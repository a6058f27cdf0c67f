/**
 * This repository's build, installed into an n8n user folder the way n8n installs a community
 * package: `<userFolder>/.n8n/nodes/node_modules/n8n-nodes-business-finance`, so the node types
 * are `n8n-nodes-business-finance.<nodeName>` as in a user's n8n.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from './runtime';
import { privateUserFolder } from './user-folder';

const PACKAGE_NAME = 'n8n-nodes-business-finance';

interface PackageJson {
	version: string;
	files: string[];
	n8n: { nodes: string[]; credentials: string[] };
	[key: string]: unknown;
}

/** Runs `npm run build` in the repository; throws with its output when it fails. */
export function build(): void {
	const result = spawnSync('npm', ['run', 'build', '--silent'], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	if (result.status !== 0) {
		throw new Error(`npm run build failed:\n${result.stdout}\n${result.stderr}`);
	}
}

/**
 * Installs the built package (what `npm pack` would ship: package.json and the `files` entries)
 * as a community package of the n8n whose user folder is `userFolder`. Returns its folder.
 * Every n8n the scripts start is set up through here first, so this is where its user folder is
 * made private (user-folder.ts) before n8n writes anything into it.
 */
export function installPackage(userFolder: string): string {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	assertBuilt(pkg);
	const nodesDir = path.join(privateUserFolder(userFolder), '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	const shipped = { ...pkg, devDependencies: undefined, scripts: undefined };
	fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify(shipped, null, 2));
	copyShippedFiles(pkg, target);
	recordInstalled(nodesDir, pkg.version);
	return target;
}

function assertBuilt(pkg: PackageJson): void {
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		if (!fs.existsSync(path.join(REPO_ROOT, file))) {
			throw new Error(`${file} is missing: run \`npm run build\` (the nodes must build first)`);
		}
	}
}

/** The `files` entries, without source maps (what the `!dist/...map` entry leaves out). */
function copyShippedFiles(pkg: PackageJson, target: string): void {
	for (const entry of pkg.files) {
		const src = path.join(REPO_ROOT, entry);
		if (entry.startsWith('!') || !fs.existsSync(src)) continue;
		const notMap = (file: string) => !file.endsWith('.map');
		fs.cpSync(src, path.join(target, entry), { recursive: true, filter: notMap });
	}
}

/** n8n's community-package folder is an npm project listing what it installed. */
function recordInstalled(nodesDir: string, version: string): void {
	const manifest = path.join(nodesDir, 'package.json');
	const current = fs.existsSync(manifest)
		? JSON.parse(fs.readFileSync(manifest, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	current.dependencies = { ...(current.dependencies || {}), [PACKAGE_NAME]: version };
	fs.writeFileSync(manifest, JSON.stringify(current, null, 2));
}
