// `npm run bench [-- <scenario>...]`: docs/benchmarks.md.
import { spawnSync } from 'child_process';
import * as os from 'os';
import * as path from 'path';
import { mkdirSync, writeFileSync } from 'fs';
import { runClaimOverlap } from './claim-overlap';
import { loadAverage1m, type Outcome } from './common';
import { runDataTableSync } from './data-table-sync';
import { runLimits } from './limits';
import { runTriggerBurst } from './trigger-burst';

const SCENARIOS: Record<string, () => Promise<Outcome>> = {
	limits: runLimits,
	overlap: runClaimOverlap,
	sync: runDataTableSync,
	trigger: runTriggerBurst,
};

function machine() {
	const commit = spawnSync('git', ['rev-parse', '--short=7', 'HEAD'], {
		cwd: path.join(__dirname, '..'),
		encoding: 'utf8',
	});
	return {
		date: new Date().toISOString(),
		commit: commit.status === 0 ? commit.stdout.trim() : 'unknown',
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model,
		memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
		loadAverage1m: loadAverage1m(),
	};
}

async function main(): Promise<void> {
	const asked = process.argv.slice(2);
	const names = asked.length
		? asked
		: Object.keys(SCENARIOS).filter((n) => process.env[`BENCH_${n.toUpperCase()}`] !== '0');
	const unknown = names.filter((name) => !SCENARIOS[name]);
	if (unknown.length) {
		throw new Error(`no scenario ${unknown.join(', ')}: ${Object.keys(SCENARIOS).join(', ')}`);
	}
	for (const name of names) {
		const loadAverage1mAtStart = loadAverage1m();
		const { file, record } = await SCENARIOS[name]();
		const out = path.resolve(__dirname, 'results', file);
		mkdirSync(path.dirname(out), { recursive: true });
		const result = { machine: { ...machine(), loadAverage1mAtStart }, ...record };
		writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
		const met =
			record.allTargetsMet === undefined ? '' : `; all targets met: ${record.allTargetsMet}`;
		console.log(`\nwritten ${path.relative(process.cwd(), out)}${met}`);
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
