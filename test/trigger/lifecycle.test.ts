/** The proxy plays a service without the routes the API does not promise (create, secret). */
import type { IDataObject } from 'n8n-workflow';
import { n8nLogger } from '../helpers/n8n';
import { expectNowhereIn } from '../helpers/secrets';

import {
	closeAll,
	faultyProxy,
	newSecret,
	TriggerHarness,
	endpointSettings,
	useTriggerSandbox,
} from './support';

/** What activation says when the service creates no endpoints, or hands out no secret. */
const CREATE_UNSUPPORTED =
	/^The service does not let this account create webhook endpoints.*'Webhook Endpoint ID'\.$/;
const NO_SECRET =
	/^No signing secret is available to verify deliveries.*the credential's 'Webhook Signing Secret'/;

const h = useTriggerSandbox();

beforeEach(async () => {
	await h.admin.clearFaults(); // left by a test that failed
	await h.admin.clearRequests();
});

const trigger = (parameters: IDataObject, credentials: IDataObject = {}) =>
	new TriggerHarness(parameters, { apiKey: h.sb.apiKey, baseUrl: h.sb.baseUrl, ...credentials });

async function createEndpoint(body: IDataObject): Promise<IDataObject> {
	const res = await h.api.post('/v1/webhooks', body);
	expect(res.status).toBe(201);
	return res.body.data;
}

async function getEndpoint(id: string): Promise<{ status: number; data?: IDataObject }> {
	const res = await h.api.get(`/v1/webhooks/${id}`);
	return { status: res.status, data: res.body?.data };
}

const settingsNow = async (id: unknown) =>
	endpointSettings((await getEndpoint(id as string)).data!);

describe('an existing endpoint (webhookEndpointId given)', () => {
	it('is pointed at the workflow on activation and restored exactly on deactivation', async () => {
		const before = await createEndpoint({
			url: 'http://127.0.0.1:1/original-receiver',
			description: 'Accounting receiver',
			filter_types: ['vendor.created'],
			disabled: true,
		});
		const t = trigger({
			webhookEndpointId: before.id,
			events: ['receivable.paid', 'payable.failed'],
		});

		expect(await t.activate()).toEqual({ existed: false });
		expect(await settingsNow(before.id)).toEqual({
			url: t.webhookUrl(),
			description: 'Accounting receiver',
			filter_types: ['payable.failed', 'receivable.paid'],
			disabled: false,
		});
		expect(await t.run('checkExists')).toBe(true);

		// Activating twice (n8n re-runs create, e.g. after an update) must not save our own values
		// as the "original".
		await t.run('create');
		await t.activate();
		expectNowhereIn(t.staticData(), 'whsec_');

		expect(await t.deactivate()).toBe(true);
		expect(await settingsNow(before.id)).toEqual(endpointSettings(before));
		expect(t.staticData()).toEqual({ production: {} });
		expect(await t.run('checkExists')).toBe(false);
	});

	it('checkExists is false when the endpoint points elsewhere, has other events or is disabled', async () => {
		const ep = await createEndpoint({ url: 'http://127.0.0.1:1/x' });
		const t = trigger({ webhookEndpointId: ep.id, events: ['receivable.sent'] });
		expect(await t.run('checkExists')).toBe(false);
		await t.activate();
		expect(await t.run('checkExists')).toBe(true);
		await h.api.patch(`/v1/webhooks/${ep.id}`, {
			filter_types: ['receivable.sent', 'vendor.created'],
		});
		expect(await t.run('checkExists')).toBe(false);
		await t.activate();
		await h.api.patch(`/v1/webhooks/${ep.id}`, { disabled: true });
		expect(await t.run('checkExists')).toBe(false);
		await t.activate();
		expect((await getEndpoint(ep.id as string)).data).toMatchObject({
			disabled: false,
			filter_types: ['receivable.sent'],
		});
		await t.deactivate();
		expect(await settingsNow(ep.id)).toEqual(endpointSettings(ep));
	});

	it('an endpoint deleted on the service: delete does not throw, checkExists false, activation fails with a clear message and changes nothing', async () => {
		const ep = await createEndpoint({ url: 'http://127.0.0.1:1/y' });
		const t = trigger({ webhookEndpointId: ep.id });
		await t.activate();
		expect((await h.api.delete(`/v1/webhooks/${ep.id}`)).status).toBe(204);
		await expect(t.deactivate()).resolves.toBe(true);
		expect(t.staticData()).toEqual({ production: {} });

		await h.admin.clearRequests();
		await expect(t.activate()).rejects.toThrow(`Webhook endpoint "${ep.id}" was not found`);
		expect((await h.admin.getRequests()).filter((r) => r.method !== 'GET')).toEqual([]);
		expect(await t.run('checkExists')).toBe(false);
	});
});

describe('an endpoint created by the trigger (webhookEndpointId empty)', () => {
	it('is created on activation, reused when activated twice, deleted on deactivation', async () => {
		const t = trigger({ events: ['receivable.created', 'receivable.paid'] });
		expect(await t.activate()).toEqual({ existed: false });
		const state = t.staticData().production as IDataObject;
		expect(state).toMatchObject({ created: true, secretSource: 'endpoint' });
		const id = state.endpointId as string;
		expect(id).toMatch(/^ep_/);
		const ep = (await getEndpoint(id)).data!;
		expect(ep).toMatchObject({
			url: t.webhookUrl(),
			filter_types: ['receivable.created', 'receivable.paid'],
			disabled: false,
		});
		expect(ep.description).toContain('n8n workflow');

		expect(await t.activate()).toEqual({ existed: true });
		await t.run('create'); // as if n8n lost track: must reuse the stored id
		t.restart(); // and again after a restart
		await t.run('create');
		const posts = (await h.admin.getRequests()).filter(
			(r) => r.method === 'POST' && r.path === '/v1/webhooks',
		);
		expect(posts).toHaveLength(1);
		expect(posts[0].body).toEqual({
			url: t.webhookUrl(),
			description: ep.description,
			disabled: false,
			filter_types: ['receivable.created', 'receivable.paid'],
		});
		expectNowhereIn(t.staticData(), 'whsec_');

		await t.deactivate();
		expect((await getEndpoint(id)).status).toBe(404);
		expect(t.staticData()).toEqual({ production: {} });
		const deletes = (await h.admin.getRequests()).filter((r) => r.method === 'DELETE');
		expect(deletes.map((r) => r.path)).toEqual([`/v1/webhooks/${id}`]);
	});

	it('an endpoint deleted on the service: checkExists false and forgotten, delete does not throw, re-activation creates anew', async () => {
		const t = trigger({});
		await t.activate();
		const id = (t.staticData().production as IDataObject).endpointId as string;
		await h.api.delete(`/v1/webhooks/${id}`);
		await expect(t.deactivate()).resolves.toBe(true);

		await t.activate();
		const second = (t.staticData().production as IDataObject).endpointId as string;
		expect(second).not.toBe(id);
		await h.api.delete(`/v1/webhooks/${second}`);
		expect(await t.run('checkExists')).toBe(false);
		expect(t.staticData()).toEqual({ production: {} });
	});

	it('switching from automatic (every event type: no filter sent) to a given endpoint deletes the one it created', async () => {
		const t = trigger({ events: ['*', 'vendor.created'] });
		await t.activate();
		const created = (t.staticData().production as IDataObject).endpointId as string;
		expect((await getEndpoint(created)).data!.filter_types).toEqual([]);
		const post = (await h.admin.getRequests()).find((r) => r.method === 'POST');
		expect(post!.body).not.toHaveProperty('filter_types');
		const given = await createEndpoint({ url: 'http://127.0.0.1:1/given' });
		t.node.parameters = { webhookEndpointId: given.id as string, events: ['*'], options: {} };
		await t.activate();
		expect((await getEndpoint(created)).status).toBe(404);
		expect((await getEndpoint(given.id as string)).data!.url).toBe(t.webhookUrl());
		await t.deactivate();
		expect(await settingsNow(given.id)).toEqual(endpointSettings(given));
	});
});

describe('a service without the assumed routes, or failing after creating an endpoint', () => {
	afterEach(closeAll);

	async function serviceAnswering(method: string, path: RegExp, status: number) {
		const proxy = await faultyProxy(h.sb.baseUrl);
		proxy.faults.push({ method, path, status, count: 10 });
		return proxy;
	}

	it.each([404, 405] as const)(
		'a %s from POST /v1/webhooks tells the user to paste an endpoint id',
		async (status) => {
			const proxy = await serviceAnswering('POST', /^\/v1\/webhooks$/, status);
			const t = trigger({}, { baseUrl: proxy.baseUrl });
			await expect(t.activate()).rejects.toThrow(CREATE_UNSUPPORTED);
			expect(proxy.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/webhooks']);
			expect(t.staticData()).toEqual({ production: {} });
		},
	);

	it.each([null, 'whsec_not_an_object', []])(
		'a secret route answering 200 with data %j is no secret: activation says how to fix it',
		async (data) => {
			const { id } = await createEndpoint({ url: 'http://127.0.0.1:1/old' });
			const proxy = await faultyProxy(h.sb.baseUrl);
			proxy.faults.push({
				method: 'GET',
				path: /\/secret$/,
				status: 200,
				body: { data },
				count: 10,
			});
			const t = trigger({ webhookEndpointId: id }, { baseUrl: proxy.baseUrl });
			await expect(t.activate()).rejects.toThrow(NO_SECRET);
		},
	);

	it.each<[string, IDataObject, IDataObject, string?]>([
		['no secret at all: activation fails saying how to fix it', {}, {}, undefined],
		["the credential's secret", {}, { webhookSigningSecret: newSecret() }, 'credential'],
		['allowUnsigned and no secret', { options: { allowUnsigned: true } }, {}, 'none'],
	])(
		'a given endpoint whose secret the service does not hand out, with %s; left as it was',
		async (_name, parameters, credentials, secretSource) => {
			const old = 'http://127.0.0.1:1/old';
			const { id } = await createEndpoint({ url: old });
			const proxy = await serviceAnswering('GET', /\/secret$/, 404);
			const t = trigger(
				{ webhookEndpointId: id, ...parameters },
				{ baseUrl: proxy.baseUrl, ...credentials },
			);
			if (secretSource) {
				await t.activate();
				expect(t.staticData().production).toMatchObject({ secretSource, endpointId: id });
				expectNowhereIn(t.staticData(), 'whsec_');
				await t.deactivate();
			} else {
				await expect(t.activate()).rejects.toThrow(NO_SECRET);
				expect(proxy.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
			}
			expect((await getEndpoint(id as string)).data!.url).toBe(old);
		},
	);

	// n8n does not persist the static data of a failed activation, so the trigger must clean up.
	it.each([
		['404: no secret handed out', 404, NO_SECRET, 1],
		['500: secret unavailable', 500, /./, 4], // a GET's usual 4 attempts
	])(
		'an endpoint it created but cannot get a secret for (%s) is deleted again before failing',
		async (_name, status, error, fetches) => {
			const proxy = await serviceAnswering('GET', /\/secret$/, status);
			const t = trigger({}, { baseUrl: proxy.baseUrl });
			await expect(t.activate()).rejects.toThrow(error);
			const calls = proxy.requests.map((r) => `${r.method} ${r.path}`);
			const id = calls[1].split('/')[3];
			expect(calls.filter((call) => call === `GET /v1/webhooks/${id}/secret`)).toHaveLength(
				fetches,
			);
			const changes = calls.filter((call) => !call.startsWith('GET'));
			expect(changes).toEqual(['POST /v1/webhooks', `DELETE /v1/webhooks/${id}`]);
			expect((await getEndpoint(id)).status).toBe(404);
			expect(t.staticData()).toEqual({ production: {} });
		},
	);
});

describe('what activation tells the user', () => {
	it('n8n’s log names the endpoint and the address the service was given, created or adopted', async () => {
		const info = jest.spyOn(n8nLogger(), 'info');
		try {
			const created = trigger({ webhookEndpointId: '', events: ['receivable.paid'] });
			await created.activate();
			const slots = Object.values(created.staticData()) as IDataObject[];
			const createdId = String(slots.find((slot) => slot.endpointId)?.endpointId);
			expect(createdId).toMatch(/^ep_/);
			const given = await createEndpoint({ url: 'http://127.0.0.1:1/before', filter_types: [] });
			const adopted = trigger({ webhookEndpointId: given.id, events: [] });
			await adopted.activate();
			const said = info.mock.calls.map(([message]) => String(message));
			for (const [t, id] of [
				[created, createdId],
				[adopted, String(given.id)],
			] as const) {
				expect(said).toContainEqual(
					expect.stringMatching(
						new RegExp(`endpoint ${id} sends its events to ${t.webhookUrl()};`),
					),
				);
			}
			await created.deactivate();
			await adopted.deactivate();
		} finally {
			info.mockRestore();
		}
	});
});
