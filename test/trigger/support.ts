/**
 * The REAL n8n-core contexts (HookContext, WebhookContext) over a real Workflow; nothing of the
 * trigger is stubbed. Static data as n8n handles it: each activation, deactivation and webhook
 * request runs on a Workflow built from the saved copy, written back only when changed (n8n's
 * saveStaticData); a test listener's static data starts empty and is never saved.
 */
import { randomBytes } from 'crypto';

import { HookContext, WebhookContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type IWebhookData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { BusinessFinanceTrigger } from '../../nodes/BusinessFinance/BusinessFinanceTrigger.node';
import { useHarness } from '../sandbox/support';
import { answer, bodyOf, scriptedServer } from '../helpers/scripted-server';
import { activeTrigger, makeAdditionalData } from '../helpers/n8n';
import { signedHeaders } from '../helpers/standardWebhooks';
import { pollUntil } from '../../scripts/poll';

const running: Array<{ close(): Promise<void> }> = [];
export const closeAll = async () => {
	await Promise.all(running.splice(0).map((r) => r.close()));
};

interface HarnessOptions {
	staticData?: IDataObject; // as an earlier activation left it
	nodeName?: string;
}

let counter = 0;

export class TriggerHarness {
	nodeType = new BusinessFinanceTrigger();
	private readonly active: ReturnType<typeof activeTrigger>;
	/** Base of the production webhook URLs: serve()'s, to receive what the service sends. */
	webhookBaseUrl = 'http://127.0.0.1:5678/webhook';
	readonly workflowId: string;
	private persisted: IDataObject = {}; // as n8n's database holds it
	/** A test listener's static data: kept with n8n's test-webhook registration, never saved. */
	private testRegistration: IDataObject | undefined;

	constructor(
		parameters: IDataObject,
		credentials: ICredentialDataDecryptedObject,
		{ staticData, nodeName = 'Business Finance Trigger' }: HarnessOptions = {},
	) {
		this.workflowId = `wf${++counter}`;
		this.active = activeTrigger(
			this.nodeType,
			{
				id: `node-${this.workflowId}`,
				name: nodeName,
				webhookId: `hook-${this.workflowId}`,
				parameters: { webhookEndpointId: '', events: ['*'], options: {}, ...parameters },
			},
			credentials,
		);
		if (staticData) this.persisted[`node:${nodeName}`] = JSON.parse(JSON.stringify(staticData));
	}

	get node(): INode {
		return this.active.node;
	}

	/** From the static data as last saved, so concurrent runs do not see each other's changes. */
	private loadWorkflow(mode: WorkflowExecuteMode = 'webhook'): Workflow {
		const saved = mode === 'manual' ? (this.testRegistration ?? {}) : this.persisted;
		return this.active.load(this.workflowId, saved, this.nodeType);
	}

	/** n8n's saveStaticData: writes the whole static data back when the run changed it. */
	private saveIfChanged(workflow: Workflow): boolean {
		if (workflow.staticData.__dataChanged !== true) return false;
		this.persisted = JSON.parse(JSON.stringify(workflow.staticData));
		return true;
	}

	/** n8n restarts: the node's modules load afresh, so only what n8n saved (static data) is left. */
	restart(): void {
		const fresh = () => require('../../nodes/BusinessFinance/BusinessFinanceTrigger.node');
		jest.isolateModules(() => (this.nodeType = new (fresh().BusinessFinanceTrigger)()));
	}

	staticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.persisted[`node:${this.node.name}`] ?? {}));
	}

	private additionalData(
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): IWorkflowExecuteAdditionalData {
		const base = this.webhookBaseUrl.replace(/\/webhook$/, '');
		return { ...makeAdditionalData(this.active.credentialsHelper, base), ...extra };
	}

	private webhookData(isTest: boolean): IWebhookData {
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: 'webhook',
			webhookDescription: this.nodeType.description.webhooks![0],
			workflowId: this.workflowId,
			workflowExecuteAdditionalData: this.additionalData(),
			webhookId: this.node.webhookId,
			isTest,
		} as IWebhookData;
	}

	/**
	 * As n8n 2.40 builds it: activation in mode 'manual' for a test listener, else 'webhook';
	 * deactivation 'internal'/'update' for both, told apart only by `webhookData.isTest`.
	 */
	private hookContext(
		workflow: Workflow,
		mode: WorkflowExecuteMode = 'webhook',
		activation: WorkflowActivateMode = 'activate',
		isTest = mode === 'manual',
	): HookContext {
		return new HookContext(
			workflow,
			this.node,
			this.additionalData(),
			mode,
			activation,
			this.webhookData(isTest),
		);
	}

	webhookUrl(mode: WorkflowExecuteMode = 'webhook'): string {
		return this.hookContext(this.loadWorkflow(), mode).getNodeWebhookUrl('default')!;
	}

	/**
	 * As n8n 2.40: checkExists, then create, on one Workflow; saved only when both succeed. On
	 * failure n8n removes the webhooks before reporting: production on the static data as saved
	 * (`clearWebhooks`), a test listener on this same Workflow (TestWebhooks' `deactivateWebhooks`).
	 */
	async activate(mode: WorkflowExecuteMode = 'webhook'): Promise<{ existed: boolean }> {
		const test = mode === 'manual';
		const methods = this.nodeType.webhookMethods.default;
		if (test) this.testRegistration = undefined;
		const workflow = this.loadWorkflow(mode);
		try {
			const existed = await methods.checkExists.call(this.hookContext(workflow, mode));
			if (!existed) await methods.create.call(this.hookContext(workflow, mode));
			if (test) this.testRegistration = JSON.parse(JSON.stringify(workflow.staticData));
			else this.saveIfChanged(workflow);
			return { existed };
		} catch (error) {
			const cleanUp = test
				? methods.delete.call(this.hookContext(workflow, 'internal', 'update', true))
				: this.deactivate(mode);
			await cleanUp.catch(() => undefined);
			return await Promise.reject(error); // the activation's own error, as n8n reports it
		}
	}

	/** checkExists, or create (as if n8n lost track), alone on the static data as saved; saved again. */
	async run(method: 'checkExists' | 'create'): Promise<boolean> {
		const workflow = this.loadWorkflow();
		const answer = await this.nodeType.webhookMethods.default[method].call(
			this.hookContext(workflow),
		);
		this.saveIfChanged(workflow);
		return answer;
	}

	/** As n8n 2.40: `deleteWebhook(..., 'internal', 'update')` for production and test alike. */
	async deactivate(mode: WorkflowExecuteMode = 'webhook'): Promise<boolean> {
		const test = mode === 'manual';
		const workflow = this.loadWorkflow(mode);
		const deleted = await this.nodeType.webhookMethods.default.delete.call(
			this.hookContext(workflow, 'internal', 'update', test),
		);
		if (test) this.testRegistration = undefined;
		else this.saveIfChanged(workflow);
		return deleted;
	}

	/**
	 * Plays n8n 2.x's webhook server: the raw body in `req.rawBody`, Express's `status().json()`,
	 * "Workflow was started" once the run has started, 500 when it could not start or webhook() threw.
	 */
	async serve() {
		const executions: INodeExecutionData[][][] = [];
		const received: Array<{ headers: Record<string, string>; body: string }> = [];
		const server = await scriptedServer((req, res) => {
			void (async () => {
				res.once('close', () => (served.hungUp += res.writableFinished ? 0 : 1));
				const rawBody = await bodyOf(req);
				received.push({
					headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
					body: rawBody.toString('utf8'),
				});
				// rawBody is what the trigger verifies (n8n 2.x sets it; req.body unused)
				const request = Object.assign(req, { rawBody, body: {}, params: {}, query: {} });
				const response = Object.assign(res, {
					status: (code: number): any => Object.assign(res, { statusCode: code }), // then .json()
					json: (body: unknown) =>
						res.setHeader('content-type', 'application/json').end(JSON.stringify(body)),
				});
				const send = (status: number, body: unknown) => {
					if (!res.headersSent) response.status(status).json(body);
				};
				const workflow = this.loadWorkflow();
				try {
					const ctx = new WebhookContext(
						workflow,
						this.node,
						this.additionalData({ httpRequest: request as any, httpResponse: response as any }),
						'webhook',
						this.webhookData(false),
						[],
						null,
					);
					const result = await this.nodeType.webhook.call(ctx);
					// the trigger answers itself (noWebhookResponse) or starts the workflow
					if (result.workflowData) {
						await served.startRun(); // n8n 2.x answers once the run has started
						executions.push(result.workflowData);
						send(200, { message: 'Workflow was started' });
					} else if (!res.writableEnded) throw new Error('the node neither answered nor started');
				} catch (error) {
					send(500, { message: (error as Error).message });
				}
				if (this.saveIfChanged(workflow)) served.staticDataWrites++;
			})();
		});
		const served = {
			/** n8n's WorkflowRunner.run(); tests replace it (a throw: n8n could not start the run). */
			startRun: async (): Promise<void> => undefined,
			baseUrl: `${server.baseUrl}/webhook`,
			executions,
			received,
			/** Requests whose sender closed the connection before it was answered. */
			hungUp: 0,
			/** Requests that changed the static data (n8n saves it after each). */
			staticDataWrites: 0,
			close: () => server.close(),
		};
		return served;
	}
}

/** Sends `count` deliveries at once (`send(i)` each); their statuses, in order. */
export const burstStatuses = async (
	count: number,
	send: (i: number) => Promise<{ status: number }>,
) => (await Promise.all(Array.from({ length: count }, (_, i) => send(i)))).map((r) => r.status);

export async function deliver(
	url: string,
	rawBody: string,
	headers: Record<string, string>,
	signal?: AbortSignal,
): Promise<{ status: number; body: any }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: rawBody,
		signal,
	});
	// serve() answers JSON; anything else came from elsewhere and is kept as text
	const json = res.headers.get('content-type')?.includes('json');
	return { status: res.status, body: json ? await res.json() : await res.text() };
}

/** What a signed delivery is made of; not given: an event, a new webhook-id, the time now. */
type Signing = { body?: string; id?: string; ts?: number };

export function signedDelivery(secret: string, signing: Signing = {}) {
	const { body = eventBody(), id = newId(), ts = nowSeconds() } = signing;
	return { body, headers: signedHeaders(secret, body, { id, ts }) };
}

export const deliverSigned = (url: string, secret: string, signing?: Signing) => {
	const { body, headers } = signedDelivery(secret, signing);
	return deliver(url, body, headers);
};

export async function faultyProxy(sandboxUrl: string) {
	const faults: Array<{
		method: string;
		path: RegExp;
		count: number;
		delayMs?: number;
		status?: number;
		body?: unknown;
		applied?: boolean;
	}> = [];
	const requests: Array<{ method: string; path: string }> = [];
	const server = await scriptedServer((req, res) => {
		void (async () => {
			const [method, path] = [req.method ?? 'GET', (req.url ?? '').split('?')[0]];
			requests.push({ method, path });
			const body = await bodyOf(req);
			const fault = faults.find((f) => f.count > 0 && f.method === method && f.path.test(path));
			if (fault) fault.count--;
			await new Promise((resolve) => setTimeout(resolve, fault?.delayMs ?? 0));
			if (fault?.status === undefined || fault.applied) {
				const { authorization = '', 'content-type': type = 'application/json' } = req.headers;
				const headers = { authorization, 'content-type': type };
				const init = { method, headers, body: body.length > 0 ? body : undefined };
				const got = await fetch(`${sandboxUrl}${req.url}`, init);
				if (fault?.status === undefined) {
					res.writeHead(got.status, { 'content-type': 'application/json' });
					return void res.end(await got.text());
				}
			}
			const error = { error: { code: 'INJECTED_FAULT', message: 'injected by the test' } };
			answer(res, fault.status, fault.body ?? error);
		})();
	});
	running.push(server);
	return { baseUrl: server.baseUrl, requests, faults };
}

/** The calling file's sandbox (useHarness: no data, a limit not reached), redelivering quickly. */
export const useTriggerSandbox = () => useHarness({ deliveryRetryDelaysMs: [50, 100] });

export const until = <T>(
	what: string,
	probe: () => Promise<T | undefined | false> | T | undefined | false,
) => pollUntil(what, async () => await probe(), 10_000, 20);

/** The fields of an endpoint that activation changes and deactivation puts back. */
export const endpointSettings = ({ url, description, filter_types, disabled }: IDataObject) => ({
	url,
	description,
	filter_types,
	disabled,
});

export const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
export const newId = () => `msg_${randomBytes(8).toString('hex')}`;
export const nowSeconds = () => Math.floor(Date.now() / 1000);
export const eventBody = (type = 'payable.paid', data: IDataObject = { id: 'p1', amount: 100 }) =>
	JSON.stringify({
		id: `evt_${randomBytes(6).toString('hex')}`,
		type,
		created_at: new Date().toISOString(),
		data,
	});

const realNow = Date.now.bind(Date);
/** The trigger reads `Date.now` once per delivery; `jest.restoreAllMocks()` puts it back. */
export function advanceClock(ms: number): void {
	const offsetMs = Date.now() - realNow() + ms;
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offsetMs);
}

/** A trigger served over HTTP, its webhook URLs on that server; activated unless told not to. */
export async function servedTrigger(
	parameters: IDataObject,
	credentials: ICredentialDataDecryptedObject,
	{ activate = true, ...options }: HarnessOptions & { activate?: boolean } = {},
) {
	const t = new TriggerHarness(parameters, credentials, options);
	const served = await t.serve();
	running.push(served);
	t.webhookBaseUrl = served.baseUrl;
	if (activate) await t.activate();
	return { t, served };
}

/** Verifies with the credential's secret (none when ''), as when the service hands out none. */
export async function credentialTrigger(
	options: IDataObject = {},
	{
		events = ['*'],
		secret = newSecret(),
		nodeName,
	}: { events?: string[]; secret?: string; nodeName?: string } = {},
) {
	const { t: harness, served } = await servedTrigger(
		{ events, options },
		{ apiKey: 'svc_unused', baseUrl: 'http://127.0.0.1:9', webhookSigningSecret: secret },
		{
			activate: false,
			nodeName,
			staticData: { production: { secretSource: secret ? 'credential' : 'none' } },
		},
	);
	return { harness, served, url: `${served.baseUrl}/any`, secret };
}
