// Every run reports `{ source, id }` to the collector, so a round ends when every event has run
// and a second run of an event shows.
import * as http from 'http';
import type { AddressInfo } from 'net';
import { setTimeout as sleep } from 'timers/promises';
import { send, signedDeliveries, type Answer } from '../test/helpers/deliveries';
import { percentile } from './report';
import type { SandboxProcess } from './sandbox-process';
import { schedDuring } from './sched';

type Collector = Awaited<ReturnType<typeof startCollector>>;

export async function startCollector() {
	const runs = new Map<string, number[]>(); // Date.now() of each run of `source:id`, in order
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			try {
				const { source, id } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
				runs.set(`${source}:${id}`, [...(runs.get(`${source}:${id}`) ?? []), Date.now()]);
			} catch {
				// not a run report: counted nowhere
			}
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/runs`,
		runs,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

export interface BurstSettings {
	perSide: number;
	round: number;
	concurrency: number;
}

export type Side = 'trigger' | 'webhook';

export type SideResult = ReturnType<typeof summarise> & { secretFetches?: number };

export const WEBHOOK_NODE_PATH = 'bench-burst';
export const TRIGGER_WEBHOOK_ID = '8c2d4e61-3333-4c1a-9e01-00000000b0b0';

export function urlOf(side: Side, baseUrl: string): string {
	return side === 'trigger'
		? `${baseUrl}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`
		: `${baseUrl}/webhook/${WEBHOOK_NODE_PATH}`;
}

interface Round {
	ids: string[];
	answers: Answer[];
	wallMs: number;
	cpuMs: number;
	runQueueMs: number;
}

const RUNS_DEADLINE_MS = 120_000;

export interface BurstSetup {
	sb: SandboxProcess;
	collector: Collector;
	/** One per n8n: the trigger adopts it. */
	endpoint: { id: string; secret: string };
}

/** n8n's `pids` for their CPU time. */
export async function measureBurst(
	target: { baseUrl: string; pids: () => number[] },
	{ sb, collector, endpoint }: BurstSetup,
	s: BurstSettings & { tag: string },
): Promise<Record<Side, SideResult>> {
	const sides: Side[] = ['trigger', 'webhook'];
	const round = async (side: Side, name: string, size: number): Promise<Round> => {
		const deliveries = signedDeliveries(endpoint.secret, `${s.tag}_${name}`, size);
		const ids = deliveries.map((d) => d.id);
		const started = Date.now();
		const { result: answers, sched } = await schedDuring(target.pids(), async () => {
			const answered = await send(urlOf(side, target.baseUrl), deliveries, s.concurrency);
			const deadline = Date.now() + RUNS_DEADLINE_MS;
			while (!ids.every((id) => collector.runs.has(`${side}:${id}`)) && Date.now() < deadline) {
				await sleep(10);
			}
			return answered;
		});
		const ranAt = ids.map((id) => collector.runs.get(`${side}:${id}`)?.[0] ?? Date.now());
		return { ids, answers, wallMs: Math.max(...ranAt) - started, ...sched };
	};
	await sb.admin.clearRequests(); // the secret fetches from here on, the warm-up's included
	for (const side of sides) await round(side, `warm_${side}`, s.concurrency);
	const rounds: Record<Side, Round[]> = { trigger: [], webhook: [] };
	for (let r = 0; r * s.round < s.perSide; r++) {
		const size = Math.min(s.round, s.perSide - r * s.round);
		for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
			rounds[side].push(await round(side, `${side}_${r}`, size));
		}
	}
	await sleep(2000); // a second run of an event would show by now
	const secretPath = `/v1/webhooks/${endpoint.id}/secret`;
	const secretFetches = (await sb.admin.getRequests()).filter((r) => r.path === secretPath).length;
	return {
		trigger: { ...summarise('trigger', rounds.trigger, collector), secretFetches },
		webhook: summarise('webhook', rounds.webhook, collector),
	};
}

function summarise(side: Side, rounds: Round[], collector: Collector) {
	const answers = rounds.flatMap((r) => r.answers);
	const counts = rounds
		.flatMap((r) => r.ids)
		.map((id) => collector.runs.get(`${side}:${id}`)?.length ?? 0);
	const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
	const ms = answers.map((a) => a.ms);
	return {
		side,
		deliveries: counts.length,
		totalMs: sum(rounds.map((r) => r.wallMs)),
		roundsMs: rounds.map((r) => r.wallMs),
		p50Ms: Math.round(percentile(ms, 50)),
		p90Ms: Math.round(percentile(ms, 90)),
		cpuMsPerDelivery: Math.round((10 * sum(rounds.map((r) => r.cpuMs))) / counts.length) / 10,
		runQueueMs: Math.round(sum(rounds.map((r) => r.runQueueMs))),
		notAccepted: answers.filter((a) => a.status !== 200).length,
		runsPerEvent: {
			min: Math.min(...counts),
			max: Math.max(...counts),
			notOnce: counts.filter((c) => c !== 1).length,
		},
	};
}
