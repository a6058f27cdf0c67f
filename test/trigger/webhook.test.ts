/**
 * The secret here is the credential's; the endpoint's secret, forged, unsigned and "Allow
 * Unsigned" deliveries: attack.test.ts.
 */
import { DOCUMENTED_FIELDS } from '../helpers/documented-fields';
import {
	closeAll,
	credentialTrigger,
	deliver,
	deliverSigned,
	eventBody,
	newSecret,
	nowSeconds,
	signedDelivery,
	until,
} from './support';

afterAll(closeAll);

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
		expect(JSON.stringify(answers)).not.toContain(secret.slice('whsec_'.length));
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
