// Runs n8n's own breaking-change rules for a coming major version (shipped in n8n 2.41 and later,
// `n8n/dist/modules/breaking-changes/rules/<version>/`) on workflow files, inside that n8n's
// Node: node scripts/n8n/breaking-changes.js <n8n folder> <version, e.g. v3> <workflow.json>...
// Prints JSON: every rule with its category, and each workflow a workflow rule finds affected.
// Rules of other categories (instance, environment, infrastructure) need n8n's services; they are
// listed, not run (test/e2e/next-major.e2e.test.ts, docs/n8n-notes.md).
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

async function main([n8nDir, version, ...files]) {
	const module = path.join(n8nDir, 'node_modules', 'n8n', 'dist', 'modules', 'breaking-changes');
	const load = createRequire(path.join(module, 'index.js'));
	load('reflect-metadata'); // the rules' decorators need it, as in n8n itself
	const { groupNodesByType } = load('./group-nodes-by-type');
	const rulesDir = path.join(module, 'rules', version);
	const rules = [];
	const affected = [];
	for (const file of fs.readdirSync(rulesDir).filter((name) => name.endsWith('.rule.js'))) {
		const exported = Object.values(load(path.join(rulesDir, file)));
		for (const Rule of exported.filter((value) => value?.prototype?.getMetadata)) {
			const rule = new Rule();
			const { category, title } = rule.getMetadata();
			const runs = typeof rule.detectWorkflow === 'function';
			rules.push({ id: rule.id, category, title, runs });
			if (!runs) continue;
			for (const workflowFile of files) {
				const workflow = JSON.parse(fs.readFileSync(workflowFile, 'utf8'));
				const found = await rule.detectWorkflow(workflow, groupNodesByType(workflow.nodes));
				if (found.isAffected) affected.push({ rule: rule.id, workflowFile, issues: found.issues });
			}
		}
	}
	process.stdout.write(JSON.stringify({ rules, affected }));
}

main(process.argv.slice(2)).catch((error) => {
	console.error(error);
	process.exit(1);
});
