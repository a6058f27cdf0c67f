import * as http from 'http';
import axios from 'axios';
import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';
import { BusinessFinance } from '../nodes/BusinessFinance/BusinessFinance.node';
import { API_MAX_PAGE_SIZE } from '../nodes/BusinessFinance/helpers/constants';
import { runNode, type RunNodeResult } from '../test/helpers/n8n';
import { BenchBaseline } from './baseline-node';
import type { SandboxProcess } from './sandbox-process';

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';

export const nodeType = new BusinessFinance();
export const baselineType = new BenchBaseline();

export const listParams: INodeParameters = {
	resource: 'vendor',
	operation: 'getAll',
	returnAll: true,
	filters: {},
	options: { rateLimitWaitSeconds: 600 },
};
export const createParams: INodeParameters = {
	resource: 'vendor',
	operation: 'create',
	name: '={{ $json.name }}',
	paymentMethod: 'crypto',
	additionalFields: { walletAddress: EVM, walletChain: 'ethereum' },
	options: { rateLimitWaitSeconds: 600 },
};
export const baselineListParams: INodeParameters = { mode: 'list' };
export const baselineCreateParams: INodeParameters = {
	mode: 'create',
	name: '={{ $json.name }}',
	walletAddress: EVM,
};

export const createItems = (m: number): IDataObject[] =>
	Array.from({ length: m }, (_, i) => ({ name: `Bench vendor ${i + 1}` }));

export async function runTheNode(
	sb: SandboxProcess,
	parameters: INodeParameters,
	items: IDataObject[],
	type: INodeType = nodeType,
): Promise<{ ms: number; res: RunNodeResult }> {
	const started = performance.now();
	const res = await runNode({
		nodeType: type,
		parameters,
		items,
		continueOnFail: true,
		credentials: { businessFinanceApi: { apiKey: sb.apiKey, baseUrl: sb.baseUrl } },
	});
	return { ms: performance.now() - started, res };
}

export const errorItems = (res: RunNodeResult): number =>
	(res.error ? 1 : 0) +
	res.items.filter((i) => typeof (i.json as IDataObject).error === 'string').length;

export const distinctIds = (res: RunNodeResult): number =>
	new Set(res.items.map((i) => (i.json as IDataObject).id)).size;

function plainClient(sb: SandboxProcess) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	return axios.create({
		baseURL: sb.baseUrl,
		httpAgent: agent,
		headers: { Authorization: `Bearer ${sb.apiKey}`, Accept: 'application/json' },
		validateStatus: () => true,
	});
}

export async function plainList(
	sb: SandboxProcess,
): Promise<{ ms: number; ids: number; requests: number }> {
	const client = plainClient(sb);
	const started = performance.now();
	let ids = 0;
	let requests = 0;
	for (let page = 1; ; page++) {
		const r = await client.get('/v1/vendors', { params: { page, limit: API_MAX_PAGE_SIZE } });
		requests++;
		if (r.status !== 200) throw new Error(`plain loop: GET page ${page} answered ${r.status}`);
		ids += r.data.data.length;
		if (!r.data.meta.has_more) break;
	}
	return { ms: performance.now() - started, ids, requests };
}

export async function plainCreate(sb: SandboxProcess, m: number): Promise<number> {
	const client = plainClient(sb);
	const started = performance.now();
	for (const item of createItems(m)) {
		const r = await client.post('/v1/vendors', {
			name: item.name,
			payment_method: 'crypto',
			wallet_address: EVM,
			wallet_chain: 'ethereum',
		});
		if (r.status !== 201) throw new Error(`plain loop: POST answered ${r.status}`);
	}
	return performance.now() - started;
}
