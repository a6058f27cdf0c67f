/**
 * The warning n8n's log gets when deliveries fail verification (trigger/verificationWarnings.ts):
 * one per trigger per minute whatever the number of deliveries, naming the likely cause, never a
 * secret or a signature. First the counting alone, at given times, then real deliveries over HTTP
 * in n8n-core's WebhookContext with n8n's own logger, n8n's clock moved instead of waited for.
 */
import { createHash } from 'crypto';

import { MAX_NODES } from '../../nodes/BusinessFinance/trigger/memory';
import { noteVerificationFailure } from '../../nodes/BusinessFinance/trigger/verificationWarnings';
import { n8nLogger } from '../helpers/n8n';
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
} from './support';

afterAll(closeAll);
afterEach(() => jest.restoreAllMocks());

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
