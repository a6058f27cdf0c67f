import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { BusinessFinance } from '../../nodes/BusinessFinance/BusinessFinance.node';
import { startSandbox, type RequestRecord } from '../../sandbox';
import { createHttpClient } from '../../scripts/http-client';
import { runListSearch, runNode } from '../helpers/n8n';

const route = (r: RequestRecord) => `${r.method} ${r.path} ${r.status}`;

interface RunOptions extends Omit<Parameters<typeof runNode>[0], 'nodeType' | 'parameters'> {
	/** Another key than the working one, or another service (a scripted server). */
	apiKey?: string;
	baseUrl?: string;
}

type NodeTestEnv = Awaited<ReturnType<typeof startEnv>>;

async function startEnv() {
	const sb = await startSandbox({ port: 0, host: '127.0.0.1', seed: 'none', rateLimit: 100_000 });
	const nodeType = new BusinessFinance();
	const http = createHttpClient(sb.baseUrl, { apiKey: sb.apiKey });
	const creds = (apiKey = sb.apiKey, baseUrl = sb.baseUrl) => ({
		businessFinanceApi: { apiKey, baseUrl },
	});
	const run = async (parameters: INodeParameters, opts: RunOptions = {}) =>
		await runNode({
			...opts,
			nodeType,
			parameters,
			credentials: creds(opts.apiKey, opts.baseUrl),
		});
	/** `/v1` requests the sandbox received in this test, but for `api()` setup calls. */
	const requests = async () => await sb.admin.getRequests();
	const runOk = async (parameters: INodeParameters, opts?: RunOptions) => {
		const res = await run(parameters, opts);
		if (res.error) throw res.error;
		return { items: res.items, requests: await requests() };
	};
	return {
		sb,
		run,
		runOk,
		/** Exactly one request `call` (`METHOD /path status`) and one paired item holding `output`. */
		runOne: async (parameters: INodeParameters, call: string, body: unknown, output: object) => {
			const { items, requests: sent } = await runOk(parameters);
			expect(sent.map(route)).toEqual([call]);
			if (body !== undefined) expect(sent[0].body).toEqual(body);
			expect(items).toEqual([{ json: expect.objectContaining(output), pairedItem: { item: 0 } }]);
			return items[0].json;
		},
		/** The vendor list search of the `vendorId` locator. */
		search: async (filter?: string, paginationToken?: string) =>
			await runListSearch({
				nodeType,
				method: 'searchVendors',
				filter,
				paginationToken,
				credentials: creds(),
			}),
		requests,
		/** Calls the API directly (setup only), with the working key; `requests()` will not show it. */
		api: async <T = IDataObject>(method: string, path: string, body?: unknown) => {
			const res = await http.request(method, path, { body });
			if (res.status < 200 || res.status >= 300)
				throw new Error(`setup ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
			await sb.admin.clearRequests();
			return res.body.data as T;
		},
		close: async () => await sb.close(),
	};
}

/** Emptied before each test; filled in `beforeAll`, so read it inside tests and hooks only. */
export function useEnv(): NodeTestEnv {
	const env = {} as NodeTestEnv;
	beforeAll(async () => {
		Object.assign(env, await startEnv());
	});
	afterAll(async () => {
		await env.close();
	});
	beforeEach(async () => {
		await env.sb.admin.reset('none');
	});
	return env;
}

/** A resource locator value as a saved workflow holds it. */
export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Valid payment details (ABA check digit, IBAN mod-97, EVM address). */
export const VALID = {
	routing: '011000015',
	account: '000123456789',
	iban: 'DE89370400440532013000',
	swift: 'DEUTDEFF',
	evm: '0x52908400098527886E0F7030069857D2E4169EE7',
};

export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
