/** Against a service that applies a change and then answers 503, or answers slowly. */
import type { IDataObject } from 'n8n-workflow';

import {
	closeAll,
	deliverSigned,
	endpointSettings,
	faultyProxy,
	newSecret,
	servedTrigger,
	TriggerHarness,
	until,
	useTriggerSandbox,
} from './support';

const h = useTriggerSandbox();
/** The user's own system, where the endpoint points before any workflow adopts it. */
const ERP = {
	url: 'https://erp.example.com/hooks/finance',
	description: 'ERP receiver',
	filter_types: ['vendor.created'],
	disabled: false,
};

let proxy: Awaited<ReturnType<typeof faultyProxy>>;
let id: string;

beforeEach(async () => {
	id = (await h.api.post('/v1/webhooks', ERP)).body.data.id;
	proxy = await faultyProxy(h.sb.baseUrl);
});

afterEach(closeAll);

const parameters = () => ({ webhookEndpointId: id });
const credentials = () => ({ apiKey: h.sb.apiKey, baseUrl: proxy.baseUrl });
const trigger = () => new TriggerHarness(parameters(), credentials());

const endpoint = async (): Promise<IDataObject> =>
	(await h.api.get(`/v1/webhooks/${id}`)).body.data;
const ENDPOINT = /^\/v1\/webhooks\/ep_[^/]+$/;
const SECRET_ROUTE = /\/secret$/;

describe('whose URL the endpoint points at decides an activation without recorded settings', () => {
	const n8n = 'https://n8n.example.com/hooks';
	const [mine, theirs] = ['3f2a-uuid/webhook', '9c1b-uuid/webhook'];
	const SELF = 'already points at this trigger, but the settings it had before are not recorded';
	const OTHER = "already points at another workflow's Business Finance Trigger in this n8n";
	const SIBLING = "is in use by this workflow's active version";
	it.each<[string, string | undefined, string, ('manual' | 'webhook')?]>([
		['its own URL', `${n8n}/webhook/${mine}`, SELF],
		['own, normalised', `HTTPS://N8N.example.com:443/hooks/webhook/${mine}`, SELF],
		['its own URL, from its test listener', `${n8n}/webhook/${mine}`, SIBLING, 'manual'],
		['its test URL, from its test listener', `${n8n}/webhook-test/${mine}`, SELF, 'manual'],
		['another trigger of this n8n', `${n8n}/webhook/${theirs}`, OTHER],
		["another trigger's test URL", `${n8n}/webhook-test/${theirs}`, OTHER],
		['the ERP', `https://erp.example.com/hooks/webhook/${mine}`, ''],
		['a path of another shape on the same host', 'https://n8n.example.com/erp/finance', ''],
		['another prefix on the same host', 'https://n8n.example.com/erp/webhook/x/webhook', ''],
		['no URL', undefined, ''],
		['not a URL', 'not a url', ''],
	])('%s: %s, refused: %s', async (_name, url, refusal, mode = 'webhook') => {
		const t = trigger();
		t.webhookBaseUrl = `${n8n}/webhook`;
		t.node.webhookId = '3f2a-uuid';
		const body = { data: { ...(await endpoint()), url } };
		proxy.faults.push({ method: 'GET', path: ENDPOINT, count: 1, status: 200, body });
		const activation = t.activate(mode);
		if (refusal) await expect(activation).rejects.toThrow(`Webhook endpoint "${id}" ${refusal}`);
		else await expect(activation).resolves.toEqual({ existed: false });
	});
});

describe('a failed activation never loses the endpoint', () => {
	it('a PATCH the service applies but answers 503: activation fails and the ERP settings are put back at once', async () => {
		proxy.faults.push({ method: 'PATCH', path: ENDPOINT, count: 4, status: 503, applied: true });
		const t = trigger();
		const failed = await t.activate().catch((error: Error & { description?: string }) => error);
		expect(failed).toBeInstanceOf(Error);
		expect((failed as Error).message).toMatch(`Could not point webhook endpoint "${id}"`);
		expect((failed as { description?: string }).description).toMatch(/were put back/);
		expect(endpointSettings(await endpoint())).toEqual(ERP);

		await t.activate();
		expect((await endpoint()).url).toBe(t.webhookUrl());
		await t.deactivate();
		expect(endpointSettings(await endpoint())).toEqual(ERP);
	}, 30_000);

	it('when putting back fails too, n8n’s clean-up saves the ERP settings; after a restart the next activation and deactivation give them back', async () => {
		// Pointing here: applied, answered 503 (every attempt); then the put-back and the clean-up's
		// put-back are refused.
		proxy.faults.push({ method: 'PATCH', path: ENDPOINT, count: 4, status: 503, applied: true });
		proxy.faults.push({ method: 'PATCH', path: ENDPOINT, count: 2, status: 409 });
		const t = trigger();
		await expect(t.activate()).rejects.toThrow(`Could not point webhook endpoint "${id}"`);
		expect((await endpoint()).url).toBe(t.webhookUrl()); // the service kept the change
		expect(t.staticData().production).toMatchObject({
			endpointId: id,
			originalOf: id,
			original: ERP,
		});

		t.restart(); // only the saved static data is left
		await t.activate();
		expect((await endpoint()).url).toBe(t.webhookUrl());
		expect(t.staticData().production).toMatchObject({ original: ERP });
		await t.deactivate();
		expect(endpointSettings(await endpoint())).toEqual(ERP);
		expect(t.staticData()).toEqual({ production: {} });
	}, 30_000);
});

describe('the active workflow wins over the test listener', () => {
	it('listener first: activation takes the endpoint over, the listener’s end leaves it, deactivation gives the ERP back', async () => {
		const t = trigger();
		await t.activate('manual');
		expect((await endpoint()).url).toBe(t.webhookUrl('manual'));
		await t.activate('webhook');
		expect((await endpoint()).url).toBe(t.webhookUrl('webhook'));
		expect(JSON.stringify(t.staticData())).not.toContain('/webhook-test/');

		await t.deactivate('manual');
		expect((await endpoint()).url).toBe(t.webhookUrl('webhook'));
		await t.deactivate('webhook');
		expect(endpointSettings(await endpoint())).toEqual(ERP);
	});
});

describe('deliveries and activation keep their own limits', () => {
	it('an anonymous delivery just before activation cannot make it fail (secret route answering in 6 s)', async () => {
		proxy.faults.push({ method: 'GET', path: SECRET_ROUTE, count: 2, delayMs: 6_000 });
		const { t, served } = await servedTrigger(parameters(), credentials(), { activate: false });
		const started = Date.now();
		const delivery = deliverSigned(t.webhookUrl(), newSecret()).then((answer) => ({
			...answer,
			tookMs: Date.now() - started,
		}));
		const fetched = () => proxy.requests.some((r) => SECRET_ROUTE.test(r.path));
		await until('the delivery to fetch the secret', fetched);
		await expect(t.activate()).resolves.toEqual({ existed: false });
		expect((await endpoint()).url).toBe(t.webhookUrl());
		const answered = await delivery;
		expect(answered.status).toBe(503); // no secret within its deadline: the service retries
		expect(answered.tookMs).toBeLessThan(5_900);
		expect(served.executions).toEqual([]);
		await t.deactivate();
	}, 30_000);
});
