/**
 * Everything an attacker who knows the webhook URL can send, against a trigger activated for real
 * on the sandbox; the cost of each attack is counted in the sandbox's request log.
 */
import type { IDataObject } from 'n8n-workflow';

import type { FaultSpec } from '../../sandbox';
import * as duplicates from '../../nodes/BusinessFinance/trigger/duplicates';
import { n8nLogger } from '../helpers/n8n';
import { asSvix, signWebhook } from '../helpers/standardWebhooks';
import {
	advanceClock,
	burstStatuses,
	closeAll,
	deliver,
	deliverSigned,
	eventBody,
	faultyProxy,
	newId,
	newSecret,
	nowSeconds as now,
	servedTrigger,
	signedDelivery,
	until,
	useTriggerSandbox,
} from './support';

const h = useTriggerSandbox();
afterAll(closeAll);

afterEach(() => jest.restoreAllMocks());

/** The sandbox's next GET requests under `pathPrefix` (1,000 unless `count` says) get `fault`. */
const faultGets = (pathPrefix: string, fault: FaultSpec) =>
	h.admin.addFault({ count: 1000, method: 'GET', pathPrefix, ...fault });

const secretFetches = async (endpointId: string) =>
	(await h.admin.getRequests()).filter(
		(r) => r.method === 'GET' && r.path === `/v1/webhooks/${endpointId}/secret`,
	).length;

type Active = Awaited<ReturnType<typeof activeTrigger>>;
async function activeTrigger(options: IDataObject = {}) {
	const credentialSecret = newSecret();
	const { t, served } = await servedTrigger(
		{ options },
		{ apiKey: h.sb.apiKey, baseUrl: h.sb.baseUrl, webhookSigningSecret: credentialSecret },
	);
	const endpointId = (t.staticData().production as IDataObject).endpointId as string;
	const secret = (await h.api.get(`/v1/webhooks/${endpointId}/secret`)).body.data.secret;
	return { t, served, url: t.webhookUrl(), endpointId, secret, credentialSecret };
}

/** A trigger active for the calling describe block, deactivated after it. */
function useActiveTrigger(options: IDataObject = {}): Active {
	const a = {} as Active;
	beforeAll(async () => void Object.assign(a, await activeTrigger(options)));
	afterAll(async () => await a.t.deactivate());
	return a;
}

describe('replays: one execution per delivery, whatever header names carry it', () => {
	const a = useActiveTrigger();
	let captured: { headers: Record<string, string>; body: string };

	beforeAll(async () => {
		// A genuine delivery, sent and signed by the sandbox, captured as it arrived.
		const made = await h.api.post('/v1/receivables', {
			invoice_number: 'INV-REPLAY-1',
			amount: 10,
		});
		const [[{ json: event }]] = await until('the genuine delivery', () => a.served.executions[0]);
		expect(event).toMatchObject({ type: 'receivable.created', data: { id: made.body.data.id } });
		captured = a.served.received[0];
	});

	const renamed = (svix: string[]) =>
		Object.fromEntries(
			['id', 'timestamp', 'signature'].map((f) => [
				`${svix.includes(f) ? 'svix' : 'webhook'}-${f}`,
				captured.headers[`webhook-${f}`],
			]),
		);

	it.each([
		['as sent', () => renamed([])],
		['under svix-* names', () => renamed(['id', 'timestamp', 'signature'])],
		['id as svix-id, the rest as webhook-*', () => renamed(['id'])],
		['timestamp and signature as svix-*', () => renamed(['timestamp', 'signature'])],
		['both names at once', () => ({ ...renamed([]), ...asSvix(renamed([])) })],
	])('%s: acknowledged as a duplicate, no second execution', async (_name, headers) => {
		const res = await deliver(a.url, captured.body, headers());
		expect(res).toEqual({ status: 200, body: { received: true, ignored: 'duplicate delivery' } });
		expect(a.served.executions).toHaveLength(1);
		expect(a.served.staticDataWrites).toBe(0);
	});

	it('a delivery timestamped 200 s ahead, replayed 350 s later (tolerance 300): no second execution', async () => {
		const ahead = await activeTrigger({ toleranceSeconds: 300 });
		const { body, headers } = signedDelivery(ahead.secret, { ts: now() + 200 });
		expect((await deliver(ahead.url, body, headers)).status).toBe(200);
		advanceClock(350_000);
		const replay = await deliver(ahead.url, body, headers);
		expect([200, 401]).toContain(replay.status);
		expect(ahead.served.executions).toHaveLength(1);
		await ahead.t.deactivate();
	});
});

describe("a burst beyond the duplicate memory: n8n's log names the trigger", () => {
	it('a delivery that makes the trigger forget a still-replayable id is said in the log', async () => {
		const a = await activeTrigger();
		const recorded = jest.spyOn(duplicates, 'recordVerified');
		const first = signedDelivery(a.secret);
		expect((await deliver(a.url, first.body, first.headers)).status).toBe(200);
		// Fill this trigger's memory up to its bound (150,000 ids), as a burst of verified deliveries would.
		const [nodeKey] = recorded.mock.calls[0];
		const quiet = { nodeName: 'filler', workflowId: 'filler', logger: { warn: jest.fn() } };
		for (let i = 1; i < 150_000; i++) {
			duplicates.recordVerified(nodeKey, `msg_fill_${i}`, now() + 600, now(), quiet);
		}
		const warnings = jest.spyOn(n8nLogger(), 'warn');
		const next = signedDelivery(a.secret);
		expect((await deliver(a.url, next.body, next.headers)).status).toBe(200);
		// n8n's logger gets it, naming this trigger (the wording: memory.test.ts)
		const said = `"Business Finance Trigger" (workflow ${a.t.workflowId}): the duplicate memory is full`;
		expect(warnings).toHaveBeenCalledWith(expect.stringContaining(said));
		expect(quiet.logger.warn).not.toHaveBeenCalled();
		// The first delivery's id was the one forgotten: its retry runs again, as the log says.
		expect(a.served.executions).toHaveLength(2);
		expect((await deliver(a.url, first.body, first.headers)).status).toBe(200);
		expect(a.served.executions).toHaveLength(3);
		await a.t.deactivate();
	});
});

describe('floods: nothing unproven costs an API call', () => {
	const a = useActiveTrigger();
	beforeEach(async () => {
		await h.admin.clearRequests();
	});

	it('40 requests without signature headers, or that cannot be genuine, and signed bodies that are not events, cost no request at all', async () => {
		a.t.restart(); // nothing cached
		const body = eventBody();
		// Far enough outside the 300 s tolerance that the clock's next second, which may pass
		// while the burst is served, cannot bring a timestamp back inside it.
		const outsideSeconds = 300 + 60;
		const signed = (secret: string, ts = now()) => signedDelivery(secret, { body, ts }).headers;
		const hopeless: Array<Record<string, string>> = [
			{},
			{ 'webhook-id': newId(), 'webhook-timestamp': String(now()) },
			{ 'svix-id': newId(), 'svix-timestamp': String(now()) },
			signed(newSecret(), now() - outsideSeconds),
			signed(newSecret(), now() + outsideSeconds),
			{ ...signed(a.secret), 'webhook-signature': 'v1,AAAA' },
			{ ...signed(a.secret), 'webhook-signature': 'v2,whatever' },
			{ ...signed(a.secret), 'webhook-id': 'x'.repeat(300) },
		];
		const send = (i: number) => deliver(a.url, body, hopeless[i % hopeless.length]);
		expect(await burstStatuses(40, send)).toEqual(Array(40).fill(401));
		// Well-formed signatures (anyone can make one) over a body that is not an event: 400.
		for (const notAnEvent of ['[1]', 'not json']) {
			const { status } = await deliverSigned(a.url, newSecret(), { body: notAnEvent });
			expect(status).toBe(400);
		}
		expect(await h.admin.getRequests()).toEqual([]);
		expect(a.served.executions).toHaveLength(0);
	});

	it('40 forged and 40 unsigned at once, the cached secret over a minute old: one fetch; again within the minute: none', async () => {
		expect((await deliverSigned(a.url, a.secret)).status).toBe(200); // the secret is cached
		await h.admin.clearRequests();
		const before = a.served.executions.length;
		advanceClock(61_000);
		const forged = () => deliverSigned(a.url, newSecret());
		const send = (i: number) => (i % 2 ? forged() : deliver(a.url, eventBody(), {}));
		expect(await burstStatuses(80, send)).toEqual(Array(80).fill(401));
		expect(await secretFetches(a.endpointId)).toBeLessThanOrEqual(1);
		expect(await burstStatuses(40, forged)).toEqual(Array(40).fill(401));
		expect(await secretFetches(a.endpointId)).toBeLessThanOrEqual(1);
		expect(a.served.executions.length).toBe(before);
	});

	it('after a restart, 40 genuine deliveries at once share one fetch and all run', async () => {
		a.t.restart();
		const before = a.served.executions.length;
		const send = () => deliverSigned(a.url, a.secret);
		expect(await burstStatuses(40, send)).toEqual(Array(40).fill(200));
		expect(a.served.executions.length - before).toBe(40);
		expect(await secretFetches(a.endpointId)).toBe(1);
	});

	it('a rotated secret is fetched again once, however many deliveries fail on the old one', async () => {
		const { id } = (await h.api.post('/v1/webhooks', { url: 'http://127.0.0.1:1/x' })).body.data;
		const proxy = await faultyProxy(h.sb.baseUrl);
		const { t, served } = await servedTrigger(
			{ webhookEndpointId: id },
			{ apiKey: h.sb.apiKey, baseUrl: proxy.baseUrl },
		);
		const fetches = () => proxy.requests.filter((r) => r.path.endsWith('/secret')).length;
		expect(fetches()).toBe(1);

		const rotated = newSecret();
		const answer = { status: 200, body: { data: { secret: rotated } } };
		proxy.faults.push({ method: 'GET', path: /\/secret$/, count: 100, ...answer });
		const signedNew = () => deliverSigned(t.webhookUrl(), rotated);
		// Within the minute (docs/trigger.md) the cached (old) secret stands: refused, nothing fetched.
		expect((await signedNew()).status).toBe(401);
		advanceClock(55_000);
		expect((await signedNew()).status).toBe(401);
		expect(fetches()).toBe(1);
		advanceClock(6_000);
		expect(await burstStatuses(20, signedNew)).toEqual(Array(20).fill(200));
		expect(fetches()).toBe(2);
		expect(served.executions).toHaveLength(20);
		await t.deactivate();
	});
});

describe('the secret route failing under a burst', () => {
	afterAll(async () => await h.admin.clearFaults()); // left by a test that failed
	const a = useActiveTrigger();

	/** 20 signed with the credential's secret, 20 with the endpoint's, 20 forged; in one burst. */
	async function mixedBurst() {
		const body = eventBody();
		const secrets = [a.credentialSecret, a.secret, newSecret()];
		const send = (i: number) => deliverSigned(a.url, secrets[i % 3], { body });
		const statuses = await burstStatuses(60, send);
		const of = (kind: number) => statuses.filter((_, i) => i % 3 === kind);
		return { credential: of(0), endpoint: of(1), forged: of(2) };
	}
	const each = (status: number) => Array(20).fill(status);
	const allRefused = { credential: each(503), endpoint: each(503), forged: each(503) };

	it.each<[string, FaultSpec['kind']]>([
		['503', 'status503'],
		['a connection reset', 'reset'],
	])(
		'%s: a bounded number of fetches, every delivery 503 (no other secret stands in), n8n’s log says why',
		async (_name, kind) => {
			a.t.restart(); // the first delivery must fetch
			const warnings = jest.spyOn(n8nLogger(), 'warn');
			await h.admin.clearRequests();
			await faultGets(`/v1/webhooks/${a.endpointId}/secret`, { kind });
			const before = a.served.executions.length;

			// The credential's secret may belong to another endpoint: its deliveries must not run.
			expect(await mixedBurst()).toEqual(allRefused);
			expect(a.served.executions.length - before).toBe(0);
			// One fetch, which the transport may retry (GET on 5xx or a reset): at most 4 attempts.
			const afterFirst = await secretFetches(a.endpointId);
			expect(afterFirst).toBeGreaterThanOrEqual(1);
			expect(afterFirst).toBeLessThanOrEqual(4);
			const unavailable = () =>
				warnings.mock.calls.filter(([m]) => /answered 503.*signing secret is unavailable/.test(m));
			expect(unavailable()).toHaveLength(1); // once, not once per request of the flood
			expect(unavailable()[0][0]).toContain(a.endpointId);

			// The failure is remembered for 30 s from the fetch's start (docs/trigger.md): a second
			// burst 18 s later (plus the few seconds the first took) costs nothing.
			advanceClock(18_000);
			expect(await mixedBurst()).toEqual(allRefused);
			expect(await secretFetches(a.endpointId)).toBe(afterFirst);

			// Once the service is back and the failure has been remembered long enough: one fetch.
			await h.admin.clearFaults();
			advanceClock(13_000);
			expect(await mixedBurst()).toEqual({
				credential: each(401),
				endpoint: each(200),
				forged: each(401),
			});
			expect(await secretFetches(a.endpointId)).toBe(afterFirst + 1);
			expect(a.served.staticDataWrites).toBe(0);
		},
	);

	it('a secret route that hangs holds a burst for at most the 5 s receive deadline, with one fetch', async () => {
		a.t.restart();
		await h.admin.clearRequests();
		// 9 s: the transport's own per-attempt deadline alone would wait for it
		await faultGets(`/v1/webhooks/${a.endpointId}/secret`, { kind: 'latency', latencyMs: 9_000 });
		const started = Date.now();
		expect(await mixedBurst()).toEqual(allRefused);
		const tookMs = Date.now() - started;
		expect(tookMs).toBeLessThan(8_000);
		expect(await secretFetches(a.endpointId)).toBe(1);
		await h.admin.clearFaults();
		await new Promise((resolve) => setTimeout(resolve, 9_000 - tookMs)); // the held answer ends
	}, 30_000);

	it('404 (the service no longer hands out the secret): one fetch, 503 for all, the log says to reactivate', async () => {
		const proxy = await faultyProxy(h.sb.baseUrl);
		proxy.faults.push({ method: 'GET', path: /\/secret$/, count: 100, status: 404 });
		const warnings = jest.spyOn(n8nLogger(), 'warn');
		const credential = newSecret();
		// Saved by an activation at a time the service still handed out the secret.
		const saved = { endpointId: 'ep_gone_secret', secretSource: 'endpoint' };
		const { served } = await servedTrigger(
			{ webhookEndpointId: 'ep_gone_secret' },
			{ apiKey: h.sb.apiKey, baseUrl: proxy.baseUrl, webhookSigningSecret: credential },
			{ activate: false, staticData: { production: saved } },
		);
		// 20 with the credential's secret, 20 forged
		const mixed = (i: number) =>
			deliverSigned(`${served.baseUrl}/any`, i % 2 ? credential : newSecret());
		expect(await burstStatuses(40, mixed)).toEqual(Array(40).fill(503));
		expect(proxy.requests.filter((r) => r.path.endsWith('/secret'))).toHaveLength(1);
		expect(served.executions).toHaveLength(0);
		const said = warnings.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('503'));
		expect(said).toHaveLength(1);
		expect(said[0]).toMatch(/no longer hands it out.*deactivate and activate/);
	});
});

describe('a delivery while n8n is still activating', () => {
	it.each([
		['an endpoint the trigger creates', false],
		['an endpoint given by id', true],
	])(
		'%s: verified, static data untouched, later deliveries run, deactivation cleans up',
		async (_name, given) => {
			await h.admin.clearRequests();
			const before = 'http://127.0.0.1:1/before';
			const existing = given
				? (await h.api.post('/v1/webhooks', { url: before })).body.data
				: undefined;
			const { t, served } = await servedTrigger(
				{ webhookEndpointId: existing?.id ?? '' },
				{ apiKey: h.sb.apiKey, baseUrl: h.sb.baseUrl },
				{ activate: false },
			);
			// Hold activation in its secret fetch long enough to deliver meanwhile.
			const held = given ? `/v1/webhooks/${existing.id}/secret` : '/v1/webhooks/ep_';
			await faultGets(held, { kind: 'latency', latencyMs: 1_500, count: 1 });
			const activation = t.activate();
			const fetchPath = await until(
				'activation to fetch the secret',
				async () =>
					(await h.admin.getRequests()).find(
						(r) => r.method === 'GET' && /^\/v1\/webhooks\/ep_[^/]+\/secret$/.test(r.path),
					)?.path,
			);
			const endpointId = fetchPath.split('/')[3];
			const secret = (await h.api.get(`/v1/webhooks/${endpointId}/secret`)).body.data.secret;
			const early = await deliverSigned(t.webhookUrl(), secret);
			await activation;

			expect(early.status).toBe(200);
			expect(served.executions).toHaveLength(1);
			expect(served.staticDataWrites).toBe(0);
			expect(t.staticData().production).toMatchObject({
				endpointId,
				created: !given,
				secretSource: 'endpoint',
			});

			// The sandbox's own deliveries run afterwards.
			await h.api.post('/v1/receivables', { invoice_number: `INV-EARLY-${given}`, amount: 1 });
			await until('a later delivery', () => served.executions[1]);

			await t.deactivate();
			const left = await h.api.get(`/v1/webhooks/${endpointId}`);
			if (given) expect(left.body.data.url).toBe(before);
			else expect(left.status).toBe(404);
		},
	);
});

describe('Allow Unsigned Deliveries', () => {
	const a = useActiveTrigger({ allowUnsigned: true });

	it.each([['webhook-signature'], ['svix-signature']])(
		'a wrong %s is refused; none at all passes',
		async (name) => {
			const before = a.served.executions.length;
			const body = eventBody();
			const base = { 'webhook-id': newId(), 'webhook-timestamp': String(now()) };
			const forged = signWebhook(newSecret(), base['webhook-id'], now(), body);
			for (const wrong of [forged, 'v1,AAAA', 'v1,', 'v2,abc']) {
				expect((await deliver(a.url, body, { ...base, [name]: wrong })).status).toBe(401);
			}
			expect(a.served.executions).toHaveLength(before);
			expect((await deliver(a.url, body, base)).status).toBe(200);
			expect(a.served.executions).toHaveLength(before + 1);
		},
	);

	it('an unsigned forgery with a genuine id first does not make the genuine delivery a duplicate', async () => {
		const before = a.served.executions.length;
		const { body, headers } = signedDelivery(a.secret);
		const forgery = await deliver(a.url, eventBody(), { 'webhook-id': headers['webhook-id'] });
		expect(forgery.status).toBe(200); // allowed unsigned: it runs, as the user chose
		const real = await deliver(a.url, body, headers);
		expect(real).toEqual({ status: 200, body: { message: 'Workflow was started' } });
		expect(a.served.executions).toHaveLength(before + 2);
		// Once verified, the id suppresses copies, signed or not.
		const dropped = { received: true, ignored: 'duplicate delivery' };
		expect((await deliver(a.url, body, headers)).body).toEqual(dropped);
		const unsignedCopy = { 'svix-id': headers['webhook-id'] };
		expect((await deliver(a.url, body, unsignedCopy)).body).toEqual(dropped);
		expect(a.served.executions).toHaveLength(before + 2);
		expect(a.served.staticDataWrites).toBe(0);
	});
});
