/**
 * The secret here is the credential's; the endpoint's secret, forged, unsigned and "Allow
 * Unsigned" deliveries: attack.test.ts.
 *
 * Then the warning n8n's log gets when deliveries fail verification
 * (trigger/verificationWarnings.ts): one per trigger per minute whatever the number of deliveries,
 * naming the likely cause, never a secret or a signature. First the counting alone, at given
 * times, then real deliveries over HTTP in n8n-core's WebhookContext with n8n's own logger, n8n's
 * clock moved instead of waited for.
 */
import { createHash } from 'crypto';

import { MAX_NODES } from '../../nodes/BusinessFinance/trigger/memory';
import { noteVerificationFailure } from '../../nodes/BusinessFinance/trigger/verificationWarnings';
import { DOCUMENTED_FIELDS } from '../helpers/documented-fields';
import { n8nLogger } from '../helpers/n8n';
import { expectNowhereIn } from '../helpers/secrets';
import { webhookHeaders } from '../helpers/standardWebhooks';
import {
	advanceClock,
	burstStatuses,
	closeAll,
	credentialTrigger,
	deliver,
	deliverSigned,
	eventBody,
	newId,
	newSecret,
	nowSeconds,
	signedDelivery,
	until,
} from './support';

afterAll(closeAll);
afterEach(() => jest.restoreAllMocks());

describe('webhook(): verification', () => {
	it.each([
		['330 s old (tolerance 300)', 401, 300, -330],
		['270 s old (tolerance 300)', 200, 300, -270],
		['120 s ahead (tolerance 60)', 401, 60, 120],
	])('a timestamp %s is answered %s', async (_name, status, toleranceSeconds, skew) => {
		const { served, url, secret } = await credentialTrigger({ toleranceSeconds });
		expect((await deliverSigned(url, secret, { ts: nowSeconds() + skew })).status).toBe(status);
		expect(served.executions).toHaveLength(status === 200 ? 1 : 0);
	});

	it('refuses a forged signature and a tampered body, even one that parses to the same JSON; none of them blocks the genuine delivery', async () => {
		const { served, url, secret } = await credentialTrigger();
		const { body, headers } = signedDelivery(secret); // an event of { id: 'p1', amount: 100 }
		// signed with another secret, under the genuine webhook-id
		const forged = signedDelivery(newSecret(), { body, id: headers['webhook-id'] }).headers;
		expect((await deliver(url, body, forged)).status).toBe(401);
		expect(
			(await deliver(url, body.replace('"amount":100', '"amount":1000'), headers)).status,
		).toBe(401);
		const reformatted = JSON.stringify(JSON.parse(body), null, 2); // same JSON value, other bytes
		expect((await deliver(url, reformatted, headers)).status).toBe(401);
		expect(served.executions).toHaveLength(0);
		expect((await deliver(url, body, headers)).status).toBe(200);
		expect(served.executions).toHaveLength(1);
	});

	it('never echoes the secret in its answers', async () => {
		const { url, secret } = await credentialTrigger();
		const answers = [
			await deliverSigned(url, newSecret()),
			await deliver(url, eventBody(), {}),
			await deliverSigned(url, secret),
		];
		expectNowhereIn(answers, secret.slice('whsec_'.length));
	});
});

describe('webhook(): output', () => {
	it('outputs only data with output: data, in the stable vendor columns, extra fields after', async () => {
		const { served, url, secret } = await credentialTrigger({ output: 'data' });
		const body = eventBody('vendor.created', { name: 'Acme', id: 'v1', tier: 'gold' });
		expect((await deliverSigned(url, secret, { body })).status).toBe(200);
		const json = served.executions[0][0][0].json;
		expect(Object.keys(json)).toEqual([...DOCUMENTED_FIELDS.vendor, 'tier']);
		expect(json).toMatchObject({ id: 'v1', name: 'Acme', email: null, tier: 'gold' });
	});

	it('acknowledges an event type that is not selected without an execution', async () => {
		const selected = ['receivable.paid', 'payable.failed'];
		const { served, url, secret } = await credentialTrigger({}, { events: selected });
		for (const type of ['vendor.created', ...selected]) {
			expect((await deliverSigned(url, secret, { body: eventBody(type) })).status).toBe(200);
		}
		expect(served.executions.map((e) => e[0][0].json.type)).toEqual(selected);
	});
});

describe('webhook(): duplicates', () => {
	it('runs once for a retry (same webhook-id, new timestamp and signature), also after the workflow was saved', async () => {
		const { harness, served, url, secret } = await credentialTrigger();
		const retried = { body: eventBody(), id: 'msg_retry_1' };
		const first = await deliverSigned(url, secret, { ...retried, ts: nowSeconds() - 5 });
		expect(first.status).toBe(200);
		// Saving an active workflow deactivates and activates it: the memory survives that.
		await harness.deactivate();
		const retry = await deliverSigned(url, secret, retried);
		expect(retry).toEqual({ status: 200, body: { received: true, ignored: 'duplicate delivery' } });
		expect(served.executions).toHaveLength(1);
		const other = { ...retried, id: 'msg_retry_2' };
		expect((await deliverSigned(url, secret, other)).status).toBe(200);
		expect(served.executions).toHaveLength(2);
	});

	it('a delivery n8n could not start runs on the retry, once; a retry after it ran does not run again', async () => {
		const { served, url, secret } = await credentialTrigger();
		const delivery = { body: eventBody(), id: 'msg_failed_start' };
		served.startRun = () => Promise.reject(new Error('Redis unavailable'));
		expect((await deliverSigned(url, secret, delivery)).status).toBe(500);
		served.startRun = async () => undefined;
		const retry = await deliverSigned(url, secret, delivery);
		expect(retry).toEqual({ status: 200, body: { message: 'Workflow was started' } });
		expect((await deliverSigned(url, secret, delivery)).body.ignored).toBe('duplicate delivery');
		expect(served.executions).toHaveLength(1);
	});

	it('a copy that arrives while n8n is still starting the first is told to retry, and runs only if the first did not', async () => {
		const { served, url, secret } = await credentialTrigger();
		for (const firstStarts of [true, false]) {
			const delivery = { body: eventBody(), id: `msg_copies_${firstStarts}` };
			let started!: () => void;
			const starting = new Promise<void>((resolve) => (started = resolve));
			let finishStart!: () => void;
			served.startRun = () =>
				new Promise<void>((resolve, reject) => {
					started();
					finishStart = () => (firstStarts ? resolve() : reject(new Error('not started')));
				});
			const first = deliverSigned(url, secret, delivery);
			await starting;
			const copy = await deliverSigned(url, secret, delivery);
			expect(copy).toMatchObject({ status: 409, body: { error: 'delivery_in_progress' } });
			finishStart();
			expect((await first).status).toBe(firstStarts ? 200 : 500);
			served.startRun = async () => undefined;
			const retry = await deliverSigned(url, secret, delivery);
			expect(retry.body).toEqual(
				firstStarts
					? { received: true, ignored: 'duplicate delivery' }
					: { message: 'Workflow was started' },
			);
		}
		expect(served.executions).toHaveLength(2);
	});

	it('a delivery whose sender hung up before n8n answered stays handled: replaying and hanging up runs nothing again', async () => {
		const { served, url, secret } = await credentialTrigger();
		const { body, headers } = signedDelivery(secret);
		let finishStart!: () => void;
		const starting = new Promise<void>((resolve) => {
			served.startRun = () => new Promise<void>((run) => ((finishStart = run), resolve()));
		});
		const abandoned = new AbortController();
		const first = deliver(url, body, headers, abandoned.signal).catch((error: Error) => error);
		await starting;
		abandoned.abort();
		expect(await first).toMatchObject({ name: 'AbortError' });
		await until('n8n saw the sender hang up', () => served.hungUp === 1);
		finishStart();
		served.startRun = async () => undefined;
		await until('the abandoned delivery ran', () => served.executions.length === 1);
		const replay = await deliver(url, body, headers);
		expect(replay.body).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect(served.executions).toHaveLength(1);
	});
});

const T0 = 1_800_000_000_000;
/** One warning per trigger per minute (verificationWarnings.ts). */
const WARNING_INTERVAL_MS = 60_000;
const SCHEME = /Likely cause \(\d+ deliver(y|ies)\): a different signing scheme/;
const WRONG = /Likely cause \(\d+ deliver(y|ies)\): wrong secret/;

let keys = 0;
function fakeTrigger(key = `trigger-${++keys}`) {
	const lines: string[] = [];
	const logger = { warn: (message: string) => void lines.push(message) };
	return { key, nodeName: 'On payment', workflowId: 'wf1', logger, lines };
}

describe('the counting: one warning per trigger per interval', () => {
	it('a burst logs once at its first failure; the first failure a minute later logs the rest, most frequent cause first', () => {
		const trigger = fakeTrigger();
		for (let i = 0; i < 50; i++) noteVerificationFailure(trigger, 'wrong_secret', T0 + i * 1_000);
		expect(trigger.lines).toHaveLength(1);
		expect(trigger.lines[0]).toMatch(/"On payment" \(workflow wf1\): 1 delivery failed/);
		expect(trigger.lines[0]).toMatch(WRONG);
		const detail = 'Missing header: webhook-signature';
		for (let i = 0; i < 3; i++) noteVerificationFailure(trigger, 'no_secret', T0 + 50_000);
		noteVerificationFailure(trigger, 'other_scheme', T0 + WARNING_INTERVAL_MS - 1, detail);
		expect(trigger.lines).toHaveLength(1);
		noteVerificationFailure(trigger, 'clock', T0 + WARNING_INTERVAL_MS, 'too old');
		expect(trigger.lines).toHaveLength(2);
		expect(trigger.lines[1]).toMatch(
			/: 54 deliveries failed .*Likely cause \(49 deliveries\): wrong secret.*\. Also \(3 deliveries\): no signing secret is stored .*\. Also \(1 delivery\): a different .*\(Missing header: webhook-signature\)\. Also \(1 delivery\): a timestamp outside .*\(too old\)\. Said at most once every 60 s\.$/,
		);
	});

	it(`each trigger has its own minute; at most ${MAX_NODES} are kept, the least recently failed dropped first`, () => {
		const first = fakeTrigger();
		noteVerificationFailure(first, 'no_secret', T0);
		for (let i = 0; i < MAX_NODES - 1; i++) {
			const other = fakeTrigger();
			noteVerificationFailure(other, 'no_secret', T0);
			expect(other.lines).toHaveLength(1);
		}
		noteVerificationFailure(first, 'no_secret', T0); // still counted: no second line
		noteVerificationFailure(fakeTrigger(), 'no_secret', T0); // one too many: the oldest other goes
		noteVerificationFailure(first, 'no_secret', T0);
		expect(first.lines).toHaveLength(1);
		for (let i = 0; i < MAX_NODES; i++) noteVerificationFailure(fakeTrigger(), 'no_secret', T0);
		// Forgotten: its next failure warns again within the minute (the price of the bound).
		noteVerificationFailure(first, 'no_secret', T0);
		expect(first.lines).toHaveLength(2);
	});
});

describe('real deliveries to the trigger (n8n-core WebhookContext, n8n’s logger)', () => {
	const warningsOf = (spy: jest.SpyInstance, nodeName: string): string[] =>
		spy.mock.calls
			.map(([message]) => String(message))
			.filter((m) => m.startsWith(`Business Finance Trigger "${nodeName}"`))
			.filter((m) => m.includes('failed signature verification'));

	it('wrong-secret, unsigned and stale deliveries: 401 each, one warning a minute naming the right cause, no secret in any form', async () => {
		const warn = jest.spyOn(n8nLogger(), 'warn');
		const { url, served, secret } = await credentialTrigger({}, { nodeName: 'Trigger W' });
		const said = () => warningsOf(warn, 'Trigger W');
		const forged = Array.from({ length: 30 }, () => signedDelivery(newSecret()));
		const send = (i: number) => deliver(url, forged[i].body, forged[i].headers);
		expect(await burstStatuses(30, send)).toEqual(Array(30).fill(401));
		expect(said()).toEqual([expect.stringMatching(WRONG)]);
		// A whole minute later on n8n's clock (the one the trigger reads), whatever the burst took:
		// the next failure logs what came since, most frequent cause first.
		advanceClock(WARNING_INTERVAL_MS);
		expect((await deliver(url, eventBody(), {})).status).toBe(401);
		expect(said()[1]).toMatch(
			/: 30 deliveries failed .*Likely cause \(29 deliveries\): wrong secret.*Also \(1 delivery\): a different signing scheme.*\(Missing headers: webhook-id, webhook-timestamp, webhook-signature\)\./,
		);
		advanceClock(WARNING_INTERVAL_MS);
		expect((await deliverSigned(url, secret, { ts: nowSeconds() - 3_600 })).status).toBe(401);
		expect(said()[2]).toMatch(
			/: 1 delivery failed .*Likely cause \(1 delivery\): a timestamp outside .*too old/,
		);
		expect(said()).toHaveLength(3);
		expect(served.executions).toHaveLength(0);

		const logged = warn.mock.calls.map(([m]) => String(m)).join('\n');
		const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
		for (const value of [
			secret.slice('whsec_'.length),
			key.toString('hex'),
			key.toString('base64url'),
			createHash('sha256').update(secret).digest('hex'),
			...forged.map((f) => f.headers['webhook-signature'].slice('v1,'.length)),
		]) {
			expect(logged).not.toContain(value);
		}
	});

	it('no secret stored, or a signature that is not "v1,<base64>": the warning names it', async () => {
		const warn = jest.spyOn(n8nLogger(), 'warn');
		const body = eventBody();
		const none = await credentialTrigger({}, { secret: '', nodeName: 'Trigger N' });
		const signed = () => deliverSigned(none.url, newSecret(), { body });
		const answers = await Promise.all(Array.from({ length: 5 }, signed));
		expect(answers.map((r) => r.status)).toEqual(Array(5).fill(401));
		expect(answers[0].body).toMatchObject({ error: 'no_secret' });
		expect(warningsOf(warn, 'Trigger N')).toEqual([
			expect.stringMatching(/Likely cause \(1 delivery\): no signing secret is stored/),
		]);

		const other = await credentialTrigger({}, { nodeName: 'Trigger S' });
		const headers = webhookHeaders(newId(), nowSeconds(), 'sha256=0123abcd');
		expect((await deliver(other.url, body, headers)).status).toBe(401);
		const said = warningsOf(warn, 'Trigger S');
		expect(said).toEqual([expect.stringMatching(SCHEME)]);
		expect(said[0]).toMatch(/No v1 signature in the webhook-signature header/);
		expect(said[0]).not.toContain('0123abcd');
	});
});
