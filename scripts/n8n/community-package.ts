// Installed where n8n puts a community package, so the node types are named as in a user's n8n.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from './runtime';
import { privateUserFolder } from './user-folder';

export const PACKAGE_NAME = 'n8n-nodes-business-finance';

interface PackageJson {
	version: string;
	files: string[];
	n8n: { nodes: string[]; credentials: string[] };
	[key: string]: unknown;
}

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

/** Where n8n keeps community packages, under a user folder. */
const nodesFolder = (userFolder: string): string => path.join(userFolder, '.n8n', 'nodes');

/** The folder n8n loads the package from, under a user folder. */
export const installedPackage = (userFolder: string): string =>
	path.join(nodesFolder(userFolder), 'node_modules', PACKAGE_NAME);

/**
 * Every n8n the scripts start is set up through here first, so the user folder is made private
 * before n8n writes into it. `inPlace`: the files are written over the installed ones, the
 * folders kept, so that a running n8n's file watcher (scripts/n8n/hot-reload.ts) keeps watching.
 */
export function installPackage(userFolder: string, { inPlace = false } = {}): void {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	assertBuilt(pkg);
	const nodesDir = nodesFolder(privateUserFolder(userFolder));
	const target = installedPackage(userFolder);
	if (!inPlace) fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	const shipped = { ...pkg, devDependencies: undefined, scripts: undefined };
	fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify(shipped, null, 2));
	copyShippedFiles(pkg, target);
	recordInstalled(nodesDir, pkg.version);
}

function assertBuilt(pkg: PackageJson): void {
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		if (!fs.existsSync(path.join(REPO_ROOT, file))) {
			throw new Error(`${file} is missing: run \`npm run build\` (the nodes must build first)`);
		}
	}
}

/** Source maps are what the `!dist/...map` entry leaves out. */
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
