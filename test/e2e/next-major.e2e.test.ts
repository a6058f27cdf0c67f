/**
 * What the package meets of n8n 3.0's breaking changes, read from n8n itself: n8n 2.41 and later
 * ship the 3.0 rules of their breaking-changes report (scripts/n8n/breaking-changes.js). The plan
 * for 3.x, and what these checks cannot reach, is in docs/n8n-notes.md.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { REPO_ROOT, atLeast, loadExamples, requireRuntime } from '../../scripts/n8n';

const runtime = requireRuntime();
/** n8n's breaking-changes report has the 3.0 rules from 2.41 on. */
const HAS_V3_RULES = atLeast(runtime, 2, 41);

function inN8nNode(args: string[]): string {
	const run = spawnSync(runtime.nodeBin, args, { cwd: runtime.n8nDir, encoding: 'utf8' });
	if (run.status !== 0) throw new Error(`${args.join(' ')} failed:\n${run.stderr}`);
	return run.stdout;
}

(HAS_V3_RULES ? describe : describe.skip)(`n8n ${runtime.version}'s rules for 3.0`, () => {
	it('no example is affected by any of n8n’s workflow rules for 3.0', () => {
		const files = loadExamples().map((e) => path.join(REPO_ROOT, 'examples', e.file));
		const script = path.join(REPO_ROOT, 'scripts', 'n8n', 'breaking-changes.js');
		const report = JSON.parse(inN8nNode([script, runtime.n8nDir, 'v3', ...files]));
		const workflowRules = report.rules.filter((rule: { runs: boolean }) => rule.runs);
		// 2.41.1 has 52, 39 of them workflow rules: fewer would mean the report moved
		expect(workflowRules.length).toBeGreaterThanOrEqual(30);
		expect(files.length).toBeGreaterThanOrEqual(11);
		expect(report.affected).toEqual([]);
		const others = report.rules.filter((rule: { runs: boolean }) => !rule.runs);
		console.log(others.map((r: any) => `${r.category}: ${r.title}`).join('\n'));
	});

	it('the package declares a node API version this n8n accepts, and has no runtime dependencies', () => {
		const manifest = path.join(REPO_ROOT, 'package.json');
		const check = `const { checkNodesApiVersion } = require('n8n-workflow');
			process.stdout.write(JSON.stringify(checkNodesApiVersion(require(${JSON.stringify(manifest)}))));`;
		expect(JSON.parse(inN8nNode(['-e', check]))).toEqual({ compatible: true, version: 1 });
		expect(require(manifest).dependencies ?? {}).toEqual({});
	});
});
