/**
 * The polling scenario of `npm run bench` (`npm run bench:polling`): requests per poll of the
 * polling trigger (New Treasury Transaction) against the sandbox in its own process, over real
 * HTTP, through n8n-core's PollContext (test/polling/support.ts): 10,000 transactions with nothing
 * new, then 250 new (docs/benchmarks.md, "Polling trigger"). Counts: the sandbox's request log.
 */
import { PollHarness } from '../test/polling/support';
import type { Outcome } from './run';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

const EXISTING = 10_000;
const NEW = 250;
const IDLE_POLLS = 3;
/** Issue 36's targets: requests per poll. */
const TARGETS = { nothingNew: 2, new250: 5 };
const PATH = '/v1/treasury/transactions';

/** Transactions one second apart, the last `endsMsAgo` before now (so on today's or yesterday's date). */
async function addTransactions(sb: SandboxProcess, count: number, endsMsAgo: number) {
	const start = Date.now() - endsMsAgo - count * 1000;
	for (let done = 0; done < count; done += 2_000) {
		const chunk = Array.from({ length: Math.min(2_000, count - done) }, (_, i) => ({
			type: 'deposit' as const,
			amount: 1 + ((done + i) % 100),
			currency: 'USD',
			created_at: new Date(start + (done + i) * 1000).toISOString(),
		}));
		await sb.admin.addTransactions(chunk);
	}
}

/** One poll: the requests the sandbox received for it and the items it emitted. */
async function measured(sb: SandboxProcess, poll: () => Promise<unknown[]>) {
	await sb.admin.clearRequests();
	const emitted = (await poll()).length;
	const requests = (await sb.admin.getRequests()).filter((r) => r.path === PATH).length;
	return { requests, emitted };
}

export async function runPolling(): Promise<Outcome> {
	const sb = await startSandboxProcess(['--seed', 'none']);
	try {
		await addTransactions(sb, EXISTING, 600_000);
		const trigger = new PollHarness({}, { apiKey: sb.apiKey, baseUrl: sb.baseUrl });
		const activation = await measured(sb, () => trigger.activate());
		const idle = [];
		for (let i = 0; i < IDLE_POLLS; i++) idle.push(await measured(sb, () => trigger.poll()));
		await addTransactions(sb, NEW, 0);
		const busy = await measured(sb, () => trigger.poll());
		const after = await measured(sb, () => trigger.poll());
		const nothingNew = Math.max(...[...idle, after].map((m) => m.requests));
		const allTargetsMet =
			idle.every((m) => m.emitted === 0) &&
			after.emitted === 0 &&
			busy.emitted === NEW &&
			nothingNew <= TARGETS.nothingNew &&
			busy.requests <= TARGETS.new250;
		const record = {
			settings: { existing: EXISTING, new: NEW, idlePolls: IDLE_POLLS, sandbox: 'own process' },
			activation,
			idle,
			new250: busy,
			idleAfter: after,
			targets: TARGETS,
			staticDataBytes: trigger.savedBytes(),
			allTargetsMet,
		};
		console.log('\nPolling trigger (New Treasury Transaction), requests per poll:');
		console.log(`  activation on ${EXISTING} transactions: ${activation.requests}`);
		console.log(
			`  nothing new: ${idle.map((m) => m.requests).join(', ')} (target ≤ ${TARGETS.nothingNew})`,
		);
		console.log(
			`  ${NEW} new: ${busy.requests}, ${busy.emitted} emitted (target ≤ ${TARGETS.new250}); nothing new after: ${after.requests}`,
		);
		return { file: 'polling.json', record };
	} finally {
		await sb.close();
	}
}
