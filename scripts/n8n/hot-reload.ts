// n8n 2.41 and later reload a changed package in place when started with N8N_DEV_RELOAD=true:
// their file watcher sees the package folder change, loads it again and tells open editors
// (docs/n8n-notes.md). Their `POST /rest/dev/reload` reloads only N8N_CUSTOM_EXTENSIONS folders,
// not a package installed as a community package, so the watcher is what `npm run dev` uses.
import * as fs from 'fs';
import * as path from 'path';
import { setTimeout as sleep } from 'timers/promises';
import { installedPackage, installPackage, PACKAGE_NAME } from './community-package';
import { atLeast, type Runtime } from './runtime';
import type { N8nServer } from './server';

export const HOT_RELOAD_ENV = { N8N_DEV_RELOAD: 'true' };

/** Logged at debug level once n8n watches the package folders; a change before it is not seen. */
export const WATCHING = 'Watching node folders for hot reload';
/** n8n logs this at the start of each reload of the package, and the failure line if it fails. */
const TRIGGERED = `Hot reload triggered for ${PACKAGE_NAME}`;
const FAILED = `Hot reload failed for ${PACKAGE_NAME}`;
/** n8n's watcher waits 100 ms after the last change; no reload for this long means it is done. */
const QUIET_MS = 1_000;
const POLL_MS = 100;
/**
 * n8n logs WATCHING before its watcher has subscribed to each folder, and subscribes to its own
 * large node folders first, so the first change can go unseen on a loaded machine. When no
 * reload began for this long, the installed action node is written again, unchanged.
 */
const NUDGE_MS = 2_000;

export const reloadsInPlace = (runtime: Runtime): boolean => atLeast(runtime, 2, 41);

const count = (text: string, line: string) => text.split(line).length - 1;

/**
 * Reinstalls the built package into the running n8n (started with HOT_RELOAD_ENV) and waits for
 * n8n to load it: true once a reload began and none failed or began in the last QUIET_MS; false
 * when none began within `timeoutMs`, or the last one failed (the caller restarts n8n then).
 * A reload that failed is tried once more: one that began while files were still being copied
 * fails for that alone.
 */
export async function reinstallInPlace(
	n8n: N8nServer,
	timeoutMs = 10_000,
	install = () => installPackage(n8n.options.userFolder, { inPlace: true }),
): Promise<boolean> {
	const seen = () => {
		const log = n8n.log();
		return { triggered: count(log, TRIGGERED), failed: count(log, FAILED) };
	};
	const nudge = () => rewriteActionNode(n8n.options.userFolder);
	const before = seen();
	install();
	const deadline = Date.now() + timeoutMs;
	let last = before;
	let quietSince = Date.now();
	let retried = false;
	while (Date.now() < deadline) {
		await sleep(POLL_MS);
		const now = seen();
		if (now.triggered !== last.triggered || now.failed !== last.failed) quietSince = Date.now();
		last = now;
		const quietFor = Date.now() - quietSince;
		const began = now.triggered > before.triggered;
		if (began && quietFor >= QUIET_MS) {
			if (lastReloadSucceeded(n8n.log())) return true;
			if (retried) return false;
			retried = true;
		} else if (began || quietFor < NUDGE_MS) continue;
		nudge();
		quietSince = Date.now();
	}
	return false;
}

function rewriteActionNode(userFolder: string): void {
	const folder = installedPackage(userFolder);
	const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
	const file = path.join(folder, manifest.n8n.nodes[0]);
	fs.writeFileSync(file, fs.readFileSync(file));
}

function lastReloadSucceeded(log: string): boolean {
	return log.lastIndexOf(FAILED) < log.lastIndexOf(TRIGGERED);
}
