/**
 * An endpoint the user owns ("Webhook Endpoint ID" given) is never lost, and no delivery can
 * decide an activation: through n8n-core's real hook and webhook contexts (support.ts), against a
 * service that applies a change and then answers 503, or answers slowly.
 */
import { holderOf } from '../../nodes/BusinessFinance/trigger/ownership';
import {
	closeAll,
	deliverSigned,
	endpointSettings,
	newSecret,
	servedTrigger,
	startMiniService,
	TriggerHarness,
	until,
	type MiniService,
} from './support';

const API_KEY = 'svc_ownership_test_key';
/** The user's own system, where the endpoint points before any workflow adopts it. */
const ERP = {
	url: 'https://erp.example.com/hooks/finance',
	description: 'ERP receiver',
	filter_types: ['vendor.created'],
	disabled: false,
};

let mini: MiniService;

beforeEach(async () => {
	mini = await startMiniService(API_KEY, {
		endpoints: [{ id: 'ep_erp', ...ERP }],
		secrets: { ep_erp: newSecret() },
	});
});

afterEach(closeAll);

const parameters = { webhookEndpointId: 'ep_erp' };
const credentials = () => ({ apiKey: API_KEY, baseUrl: mini.baseUrl });
const trigger = () => new TriggerHarness(parameters, credentials());

const endpoint = () => mini.endpoints.get('ep_erp')!;
const patches = () => mini.requests.filter((r) => r.method === 'PATCH');
const PATCH_EP = /^\/v1\/webhooks\/ep_erp$/;
const SECRET_ROUTE = /^\/v1\/webhooks\/ep_erp\/secret$/;

describe('holderOf: whose URL an endpoint points at', () => {
	const n8n = 'https://n8n.example.com/hooks';
	const own = `${n8n}/webhook/3f2a-uuid/webhook`;
	it.each([
		['its own URL', own, 'self'],
		['own, normalised', 'HTTPS://N8N.example.com:443/hooks/webhook/3f2a-uuid/webhook', 'self'],
		['its test URL', `${n8n}/webhook-test/3f2a-uuid/webhook`, 'sibling'],
		['another trigger of this n8n', `${n8n}/webhook/9c1b-uuid/webhook`, 'other'],
		["another trigger's test URL", `${n8n}/webhook-test/9c1b-uuid/webhook`, 'other'],
		['the ERP', 'https://erp.example.com/hooks/webhook/3f2a-uuid/webhook', 'user'],
		['a path of another shape on the same host', 'https://n8n.example.com/erp/finance', 'user'],
		['another prefix on the same host', 'https://n8n.example.com/erp/webhook/x/webhook', 'user'],
		['no URL', undefined, 'user'],
		['not a URL', 'not a url', 'user'],
	])('%s: %s', (_name, url, holder) => {
		expect(holderOf(url, own, '3f2a-uuid')).toBe(holder);
	});
});

describe('a failed activation never loses the endpoint', () => {
	it('a PATCH the service applies but answers 503: activation fails and the ERP settings are put back at once', async () => {
		mini.faults.push({ method: 'PATCH', path: PATCH_EP, count: 4, status: 503, applied: true });
		const t = trigger();
		const failed = await t.activate().catch((error: Error & { description?: string }) => error);
		expect(failed).toBeInstanceOf(Error);
		expect((failed as Error).message).toMatch(/Could not point webhook endpoint "ep_erp"/);
		expect((failed as { description?: string }).description).toMatch(/were put back/);
		expect(endpointSettings(endpoint())).toEqual(ERP);

		await t.activate();
		expect(endpoint().url).toBe(t.webhookUrl());
		await t.deactivate();
		expect(endpointSettings(endpoint())).toEqual(ERP);
	}, 30_000);

	it('when putting back fails too, n8n’s clean-up saves the ERP settings; after a restart the next activation and deactivation give them back', async () => {
		// Pointing here: applied, answered 503 (every attempt); then the put-back and the clean-up's
		// put-back are refused.
		mini.faults.push({ method: 'PATCH', path: PATCH_EP, count: 4, status: 503, applied: true });
		mini.faults.push({ method: 'PATCH', path: PATCH_EP, count: 2, status: 409 });
		const t = trigger();
		await expect(t.activate()).rejects.toThrow(/Could not point webhook endpoint "ep_erp"/);
		expect(endpoint().url).toBe(t.webhookUrl()); // the service kept the change
		expect(t.staticData().production).toMatchObject({
			endpointId: 'ep_erp',
			originalOf: 'ep_erp',
			original: ERP,
		});

		t.restart(); // only the saved static data is left
		await t.activate();
		expect(endpoint().url).toBe(t.webhookUrl());
		expect(t.staticData().production).toMatchObject({ original: ERP });
		await t.deactivate();
		expect(endpointSettings(endpoint())).toEqual(ERP);
		expect(t.staticData()).toEqual({ production: {} });
	}, 30_000);

	it('an endpoint already pointing at this trigger with nothing recorded is refused, not adopted with its own URL as the original', async () => {
		const t = trigger();
		endpoint().url = t.webhookUrl();
		await expect(t.activate()).rejects.toThrow(
			'Webhook endpoint "ep_erp" already points at this trigger, but the settings it had before are not recorded',
		);
		expect(patches()).toEqual([]);
	});
});

describe('the active workflow wins over the test listener', () => {
	it('listener first: activation takes the endpoint over, the listener’s end leaves it, deactivation gives the ERP back', async () => {
		const t = trigger();
		await t.activate('manual');
		expect(endpoint().url).toBe(t.webhookUrl('manual'));
		await t.activate('webhook');
		expect(endpoint().url).toBe(t.webhookUrl('webhook'));
		expect(JSON.stringify(t.staticData())).not.toContain('/webhook-test/');

		await t.deactivate('manual');
		expect(endpoint().url).toBe(t.webhookUrl('webhook'));
		await t.deactivate('webhook');
		expect(endpointSettings(endpoint())).toEqual(ERP);
	});

	it('a second workflow given the endpoint an active workflow holds is refused, naming it; nothing changes', async () => {
		const first = trigger();
		const second = trigger();
		await first.activate();
		const before = patches().length;
		await expect(second.activate()).rejects.toThrow(
			'Webhook endpoint "ep_erp" already points at another workflow\'s Business Finance Trigger in this n8n',
		);
		await expect(second.activate('manual')).rejects.toThrow(/another workflow's/);
		expect(patches()).toHaveLength(before);
		expect(endpoint().url).toBe(first.webhookUrl());
		await first.deactivate();
		expect(endpointSettings(endpoint())).toEqual(ERP);
	});
});

describe('deliveries and activation keep their own limits', () => {
	it('an anonymous delivery just before activation cannot make it fail (secret route answering in 6 s)', async () => {
		mini.faults.push({ method: 'GET', path: SECRET_ROUTE, count: 2, delayMs: 6_000 });
		const { t, served } = await servedTrigger(parameters, credentials(), { activate: false });
		const started = Date.now();
		const delivery = deliverSigned(t.webhookUrl(), newSecret()).then((answer) => ({
			...answer,
			tookMs: Date.now() - started,
		}));
		const fetched = () => mini.requests.some((r) => SECRET_ROUTE.test(r.path)) || undefined;
		await until('the delivery to fetch the secret', fetched);
		await expect(t.activate()).resolves.toEqual({ existed: false });
		expect(endpoint().url).toBe(t.webhookUrl());
		const answered = await delivery;
		expect(answered.status).toBe(503); // no secret within its deadline: the service retries
		expect(answered.tookMs).toBeLessThan(5_900);
		expect(served.executions).toEqual([]);
		await t.deactivate();
	}, 30_000);
});
