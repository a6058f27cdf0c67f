/**
 * The warning n8n's log gets when deliveries fail verification (trigger/verificationWarnings.ts):
 * one per trigger per minute whatever the number of deliveries, naming the likely cause, never a
 * secret or a signature. First the counting alone with a fake log, then real deliveries over HTTP
 * in n8n-core's WebhookContext, with n8n's own logger. The module's clock is moved, not waited
 * for.
 */
import { createHash, randomBytes } from 'crypto';

import {
	clock,
	forgetAllFailures,
	MAX_TRIGGERS,
	noteVerificationFailure,
	triggersCounted,
	WARNING_INTERVAL_MS,
	type FailedTrigger,
} from '../../nodes/BusinessFinance/trigger/verificationWarnings';
import { n8nLogger } from '../helpers/n8n';
import { signedHeaders } from '../helpers/standardWebhooks';
import { deliver, TriggerHarness, type Served } from './support';

const T0 = 1_800_000_000_000;
let nowMs = T0;
const realNowMs = clock.nowMs;
beforeEach(() => {
	nowMs = T0;
	clock.nowMs = () => nowMs;
	forgetAllFailures();
});
afterEach(() => {
	clock.nowMs = realNowMs;
	jest.restoreAllMocks();
});

const SCHEME = /Likely cause \(\d+ deliver(y|ies)\): a different signing scheme/;
const WRONG = /Likely cause \(\d+ deliver(y|ies)\): wrong secret/;

function fakeTrigger(key = 'wf1|node1|production'): FailedTrigger & { lines: string[] } {
	const lines: string[] = [];
	return {
		key,
		nodeName: 'On payment',
		workflowId: 'wf1',
		logger: { warn: (message: string) => void lines.push(message) },
		lines,
	};
}

describe('the counting: one warning per trigger per interval', () => {
	it('a burst within a minute logs once at its first failure; the next failure after the minute logs the rest', () => {
		const trigger = fakeTrigger();
		for (let i = 0; i < 50; i++) {
			nowMs = T0 + i * 1_000; // 50 failures over 49 s
			noteVerificationFailure(trigger, 'wrong_secret');
		}
		expect(trigger.lines).toHaveLength(1);
		expect(trigger.lines[0]).toMatch(/"On payment" \(workflow wf1\): 1 delivery failed/);
		expect(trigger.lines[0]).toMatch(WRONG);

		nowMs = T0 + WARNING_INTERVAL_MS - 1;
		noteVerificationFailure(trigger, 'wrong_secret');
		expect(trigger.lines).toHaveLength(1);
		nowMs = T0 + WARNING_INTERVAL_MS;
		noteVerificationFailure(trigger, 'wrong_secret');
		expect(trigger.lines).toHaveLength(2);
		// 49 of the burst, the one just before the minute, and this one
		expect(trigger.lines[1]).toMatch(/: 51 deliveries failed/);
		expect(trigger.lines[1]).toMatch(
			/Likely cause \(51 deliveries\): wrong secret.*\. Said at most once every 60 s\.$/,
		);
	});

	it('names the most frequent cause first, the others after it, each with its count', () => {
		const trigger = fakeTrigger();
		noteVerificationFailure(
			trigger,
			'clock',
			'Message timestamp too old (more than 300 s before now)',
		);
		expect(trigger.lines[0]).toMatch(/Likely cause \(1 delivery\): a timestamp outside .*too old/);
		for (let i = 0; i < 3; i++) noteVerificationFailure(trigger, 'no_secret');
		for (let i = 0; i < 5; i++) {
			noteVerificationFailure(trigger, 'other_scheme', 'Missing header: webhook-signature');
		}
		nowMs += WARNING_INTERVAL_MS;
		noteVerificationFailure(trigger, 'other_scheme', 'Missing header: webhook-signature');
		expect(trigger.lines).toHaveLength(2);
		const [, second] = trigger.lines;
		expect(second).toMatch(/: 9 deliveries failed/);
		expect(second).toMatch(SCHEME);
		expect(second).toMatch(
			/\(6 deliveries\): a different .*\(Missing header: webhook-signature\)\. Also/,
		);
		expect(second).toMatch(/Also \(3 deliveries\): no signing secret is stored /);
		expect(second).not.toMatch(/timestamp outside/); // said in the first warning already
	});

	it('each trigger has its own minute', () => {
		const a = fakeTrigger('wfA|n|production');
		const b = fakeTrigger('wfB|n|production');
		const test = fakeTrigger('wfA|n|test');
		for (let i = 0; i < 10; i++) {
			for (const t of [a, b, test]) noteVerificationFailure(t, 'no_secret');
		}
		expect([a.lines.length, b.lines.length, test.lines.length]).toEqual([1, 1, 1]);
		expect(a.lines[0]).toMatch(/Likely cause \(1 delivery\): no signing secret is stored/);
	});

	it(`keeps at most ${MAX_TRIGGERS} triggers, the least recently failed dropped first`, () => {
		const first = fakeTrigger('first');
		noteVerificationFailure(first, 'no_secret');
		for (let i = 0; i < MAX_TRIGGERS + 100; i++) {
			noteVerificationFailure(fakeTrigger(`other${i}`), 'no_secret');
			expect(triggersCounted()).toBeLessThanOrEqual(MAX_TRIGGERS);
		}
		expect(triggersCounted()).toBe(MAX_TRIGGERS);
		// Forgotten: its next failure warns again within the minute (the price of the bound).
		noteVerificationFailure(first, 'no_secret');
		expect(first.lines).toHaveLength(2);
	});
});

describe('real deliveries to the trigger (n8n-core WebhookContext, n8n’s logger)', () => {
	const open: Served[] = [];
	afterAll(async () => {
		await Promise.all(open.map((s) => s.close()));
	});

	const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
	const now = () => Math.floor(Date.now() / 1000);
	const newId = () => `msg_${randomBytes(8).toString('hex')}`;
	const body = JSON.stringify({
		id: 'evt_w1',
		type: 'payable.paid',
		created_at: '2026-11-24T12:00:00Z',
		data: { id: 'p1' },
	});

	/** A trigger verifying with the credential's secret (or with none), served over HTTP. */
	async function served(secret: string, nodeName: string) {
		const harness = new TriggerHarness({
			parameters: { webhookEndpointId: '', events: ['*'], options: {} },
			credentials: {
				apiKey: 'svc_unused_in_these_tests',
				baseUrl: 'http://127.0.0.1:9',
				webhookSigningSecret: secret,
			},
			staticData: { production: { secretSource: secret ? 'credential' : 'none' } },
			nodeName,
		});
		const server = await harness.serve();
		open.push(server);
		return { harness, server, url: `${server.baseUrl}/any` };
	}

	/** The trigger's verification warnings n8n's logger got. */
	function warningsOf(spy: jest.SpyInstance, nodeName: string): string[] {
		return spy.mock.calls
			.map(([message]) => String(message))
			.filter((m) => m.startsWith(`Business Finance Trigger "${nodeName}"`))
			.filter((m) => m.includes('failed signature verification'));
	}

	it('bursts of wrong-secret, unsigned and stale deliveries: 401 each, one warning per minute, the right cause, no secret in any form', async () => {
		const warn = jest.spyOn(n8nLogger(), 'warn');
		const secret = newSecret();
		const { url, server } = await served(secret, 'Trigger W');
		const forger = newSecret();
		const sent: string[] = [];
		const wrong = () => {
			const headers = signedHeaders(forger, body, { id: newId(), ts: now() });
			sent.push(headers['webhook-signature']);
			return deliver(url, body, headers);
		};

		const first = await Promise.all(Array.from({ length: 30 }, wrong));
		expect(first.map((r) => r.status)).toEqual(Array(30).fill(401));
		expect(warningsOf(warn, 'Trigger W')).toHaveLength(1);
		expect(warningsOf(warn, 'Trigger W')[0]).toMatch(WRONG);

		// Still within the minute: unsigned deliveries are counted, not logged.
		nowMs += WARNING_INTERVAL_MS - 1_000;
		const unsigned = await Promise.all(Array.from({ length: 10 }, () => deliver(url, body, {})));
		expect(unsigned.map((r) => r.status)).toEqual(Array(10).fill(401));
		expect(warningsOf(warn, 'Trigger W')).toHaveLength(1);

		// The minute is over: the next failure logs what came since, most frequent cause first.
		nowMs += 1_000;
		const unsignedAgain = await Promise.all(
			Array.from({ length: 20 }, () => deliver(url, body, {})),
		);
		expect(unsignedAgain.map((r) => r.status)).toEqual(Array(20).fill(401));
		const [, second] = warningsOf(warn, 'Trigger W');
		expect(warningsOf(warn, 'Trigger W')).toHaveLength(2);
		// 29 of the first burst (its first was in the first warning), then 10 and 1 unsigned
		expect(second).toMatch(/: 40 deliveries failed/);
		expect(second).toMatch(/Likely cause \(29 deliveries\): wrong secret/);
		expect(second).toMatch(
			/Also \(11 deliveries\): a different signing scheme.*\(Missing headers: webhook-id, webhook-timestamp, webhook-signature\)\./,
		);

		nowMs += WARNING_INTERVAL_MS;
		const stale = signedHeaders(secret, body, { id: newId(), ts: now() - 3_600 });
		expect((await deliver(url, body, stale)).status).toBe(401);
		const third = warningsOf(warn, 'Trigger W')[2];
		expect(third).toMatch(/: 20 deliveries failed/); // the 19 other unsigned ones, and this one
		expect(third).toMatch(/Likely cause \(19 deliveries\): a different signing scheme/);
		expect(third).toMatch(/Also \(1 delivery\): a timestamp outside .*too old/);
		expect(server.executions).toHaveLength(0);

		const logged = warn.mock.calls.map(([m]) => String(m)).join('\n');
		const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
		for (const value of [
			secret,
			secret.slice('whsec_'.length),
			key.toString('hex'),
			key.toString('base64url'),
			createHash('sha256').update(secret).digest('hex'),
			...sent,
			...sent.map((s) => s.slice('v1,'.length)),
		]) {
			expect(logged).not.toContain(value);
		}
	});

	it('no secret stored: the warning says so', async () => {
		const warn = jest.spyOn(n8nLogger(), 'warn');
		const { url } = await served('', 'Trigger N');
		const signed = () =>
			deliver(url, body, signedHeaders(newSecret(), body, { id: newId(), ts: now() }));
		const answers = await Promise.all(Array.from({ length: 5 }, signed));
		expect(answers.map((r) => r.status)).toEqual(Array(5).fill(401));
		expect(answers[0].body).toMatchObject({ error: 'no_secret' });
		const said = warningsOf(warn, 'Trigger N');
		expect(said).toHaveLength(1);
		expect(said[0]).toMatch(/Likely cause \(1 delivery\): no signing secret is stored/);
	});

	it('a signature that is not "v1,<base64>" names the signing scheme', async () => {
		const warn = jest.spyOn(n8nLogger(), 'warn');
		const { url } = await served(newSecret(), 'Trigger S');
		const headers = {
			'webhook-id': newId(),
			'webhook-timestamp': String(now()),
			'webhook-signature': 'sha256=0123abcd',
		};
		expect((await deliver(url, body, headers)).status).toBe(401);
		const said = warningsOf(warn, 'Trigger S');
		expect(said).toHaveLength(1);
		expect(said[0]).toMatch(SCHEME);
		expect(said[0]).toMatch(/No v1 signature in the webhook-signature header/);
		expect(said[0]).not.toContain('0123abcd');
	});
});
