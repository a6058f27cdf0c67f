#!/usr/bin/env node
// Runs n8n's own verification lint (@n8n/scan-community-package's analyzePackage, the rules the
// n8n team applies, inline eslint-disable comments ignored) on what n8n would scan:
//   1. the source: package.json and nodes/ credentials/ (the scanner's SOURCE_FILE_PATTERNS);
//   2. the tarball `npm pack` would publish: every .js in it, and its package.json.
// The registry download and provenance steps of the real scanner need a published version; the
// analysis is the same code.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-scan-'));
let failed = false;

function report(label, result) {
	if (result.passed) {
		console.log(`scan ${label}: passed${result.message ? ` (${result.message})` : ''}`);
	} else {
		failed = true;
		console.log(`scan ${label}: FAILED: ${result.message}`);
		if (result.details) console.log(result.details);
	}
}

report('source', await analyzePackage(root, SOURCE_FILE_PATTERNS));

const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root }).toString());
const tarball = path.join(work, packed[0].filename);
const dir = path.join(work, 'package');
fs.mkdirSync(dir);
execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
const files = packed[0].files.map((f) => f.path);
console.log(`tarball ${packed[0].filename}: ${files.length} files`);
const stray = files.filter((f) => !/^(dist\/(nodes|credentials|icons)\/|package\.json$|README\.md$|LICENSE\.md$|CHANGELOG\.md$)/.test(f));
if (stray.length) {
	failed = true;
	console.log(`tarball holds files outside dist/nodes, dist/credentials, dist/icons:\n  ${stray.join('\n  ')}`);
}
report('tarball', await analyzePackage(dir, ['**/*.js', 'package.json']));

fs.rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
