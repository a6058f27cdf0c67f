import {
	type ICredentialDataDecryptedObject,
	type IHttpRequestOptions,
	Workflow,
} from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../nodes/BusinessFinance/helpers/constants';
import { type ApiRequestOptions, createTransport } from '../../nodes/BusinessFinance/transport';
import { businessFinanceApiTest } from '../../nodes/BusinessFinance/transport/credential';
import { systemClock } from '../../nodes/BusinessFinance/transport/deadline';
import type { Limiters } from '../../nodes/BusinessFinance/transport/limiter';
import { limitOf, NODE, quietLogger, type Transport } from './transport-fakes';
import { makeNodeTypes, TestCredentialsHelper } from '../helpers/n8n';
import { scriptedServer, type ScriptedServer } from '../helpers/scripted-server';

// n8n-core keeps these behind its package entry; they are what a real execution uses.
const {
	httpRequestWithAuthentication,
} = require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helpers/authentication');
const {
	CredentialTestContext,
} = require('n8n-core/dist/execution-engine/node-execution-context/credentials-test-context');

/** The credential's Test button as n8n runs it (n8n-core's legacy `request` helper). */
export const testCredential = async (data: ICredentialDataDecryptedObject) =>
	await businessFinanceApiTest.call(new CredentialTestContext({}), {
		id: '1',
		name: 'c',
		type: CREDENTIAL_NAME,
		data,
	});

// Where n8n's expression engine resolves the credential's `authenticate` (`={{$credentials...}}`).
const workflow = new Workflow({
	id: 'wf',
	nodes: [],
	connections: {},
	active: false,
	nodeTypes: makeNodeTypes({}),
});

/** An execution context as n8n-core builds one (abort `execution` to cancel). */
export function realContext(
	credentials: ICredentialDataDecryptedObject,
	execution = new AbortController(),
) {
	const additionalData = {
		// applies the credential's own `authenticate` as n8n does (test/helpers/n8n.ts)
		credentialsHelper: new TestCredentialsHelper({}),
	};
	const ctx: any = {
		getNode: () => NODE,
		getCredentials: async (type: string) => {
			if (type !== CREDENTIAL_NAME) throw new Error(`unexpected credential type ${type}`);
			return { ...credentials };
		},
		getExecutionCancelSignal: () => execution.signal,
		logger: quietLogger,
	};
	ctx.helpers = {
		httpRequestWithAuthentication(this: unknown, type: string, options: IHttpRequestOptions) {
			return httpRequestWithAuthentication.call(
				this,
				type,
				options,
				workflow,
				NODE,
				additionalData,
			);
		},
	};
	return ctx;
}

export const HTTP_KEY = 'svc_dummy+http/test=key_0123456789';
export const okHeaders = () => limitOf(100, 99, String(Math.floor(Date.now() / 1000) + 60));
export const LIST = { data: [], meta: { page: 1, limit: 100, total: 0, has_more: false } };

/** Closed after the test by useScriptedServer. */
export let server: ScriptedServer;
let running: ScriptedServer | undefined;

export async function serve(handler: Parameters<typeof scriptedServer>[0]): Promise<void> {
	server = running = await scriptedServer(handler);
}

export function useScriptedServer(): void {
	afterEach(async () => {
		await running?.close();
		running = undefined;
	});
}

export function transportWithShiftableClock(requestTimeoutMs?: number): {
	t: Transport;
	later: (ms: number) => void;
	/** Callers waiting on the key's limiter (none may be left behind). */
	waiting: () => number;
} {
	let offsetMs = 0;
	const clock = { ...systemClock, now: () => Date.now() + offsetMs, random: () => 0.5 };
	const limiters: Limiters = new Map();
	return {
		t: createTransport({ clock, requestTimeoutMs, limiters }),
		later: (ms) => (offsetMs += ms),
		waiting: () => [...limiters.values()].reduce((n, l) => n + l.waiting, 0),
	};
}

export const creds = (over: Partial<ICredentialDataDecryptedObject> = {}) => ({
	apiKey: HTTP_KEY,
	baseUrl: server.baseUrl,
	...over,
});

export const getVendors = (t: Transport, options?: ApiRequestOptions) =>
	t.apiRequest.call(realContext(creds()), 'GET', '/v1/vendors', undefined, undefined, options);

export async function timed<T>(promise: Promise<T>): Promise<{ ms: number; result: T }> {
	const started = Date.now();
	const result = await promise;
	return { ms: Date.now() - started, result };
}
