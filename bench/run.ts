// `npm run bench [-- <scenario>...]`: docs/benchmarks.md.
import * as os from 'os';
import * as path from 'path';
import { mkdirSync, writeFileSync } from 'fs';
import { runClaimOverlap } from './claim-overlap';
import { runDataTableSync } from './data-table-sync';
import { runLimits } from './rate-limited';
import { machine, type Outcome } from './report';
import { runTriggerBurst } from './trigger-burst';

const SCENARIOS: Record<string, () => Promise<Outcome>> = {
	limits: runLimits,
	overlap: runClaimOverlap,
	sync: runDataTableSync,
	trigger: runTriggerBurst,
};

async function main(): Promise<void> {
	const asked = process.argv.slice(2);
	const names = asked.length
		? asked
		: Object.keys(SCENARIOS).filter((n) => process.env[`BENCH_${n.toUpperCase()}`] !== '0');
	for (const name of names) {
		const scenario = SCENARIOS[name];
		if (!scenario) throw new Error(`no scenario "${name}": ${Object.keys(SCENARIOS).join(', ')}`);
		const loadAverage1mAtStart = Math.round(os.loadavg()[0] * 100) / 100;
		const { file, record } = await scenario();
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
