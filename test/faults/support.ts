/**
 * Support for the fault suite: the node test environment (test/node/support.ts: an in-process
 * sandbox and the real node through WorkflowExecute, a limit the tests do not reach), a transport
 * made anew for each test, and plain readers of the sandbox's state (every vendor, the request log).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type * as TransportModule from '../../nodes/BusinessFinance/transport';
import { VALID, type NodeTestEnv } from '../node/support';

/**
 * The nodes' transport, made anew by `fresh()`: one per n8n process would carry one test's rate
 * limit into the next. The node imports it unchanged; only which transport answers is swapped.
 */
jest.mock('../../nodes/BusinessFinance/transport', () => {
	const actual = jest.requireActual<typeof TransportModule>(
		'../../nodes/BusinessFinance/transport',
	);
	let current = actual.createTransport();
	return {
		...actual,
		apiRequest(this: never, ...args: Parameters<typeof current.apiRequest>) {
			return current.apiRequest.apply(this, args);
		},
		apiRequestAllItems(this: never, ...args: Parameters<typeof current.apiRequestAllItems>) {
			return current.apiRequestAllItems.apply(this, args);
		},
		renewTransport: () => (current = actual.createTransport()),
	};
});

function renewTransport(): void {
	(
		jest.requireMock('../../nodes/BusinessFinance/transport') as { renewTransport: () => void }
	).renewTransport();
}

export { startEnv } from '../node/support';
export type { NodeTestEnv };

export interface LoggedRequest {
	method: string;
	path: string;
	query: IDataObject;
	body: unknown;
	status: number;
}

/** No data, no faults, empty logs, fresh rate-limit counters on both sides (a new transport). */
export async function fresh(env: NodeTestEnv): Promise<void> {
	await env.sb.admin.reset('none');
	await env.sb.admin.setRateLimit({ limit: 100_000, windowSeconds: 60, retryAfter: false });
	renewTransport();
	await env.sb.admin.clearRequests();
}

/** Every vendor id on the service, read directly (not through the node). */
export async function allVendors(env: NodeTestEnv): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const res = await fetch(`${env.sb.baseUrl}/v1/vendors?page=${page}&limit=100`, {
			headers: { authorization: `Bearer ${env.sb.apiKey}` },
		});
		if (res.status !== 200) throw new Error(`setup: GET /v1/vendors answered ${res.status}`);
		const body = (await res.json()) as { data: IDataObject[]; meta: { has_more: boolean } };
		out.push(...body.data);
		if (!body.meta.has_more) return out;
	}
}

export async function requestLog(env: NodeTestEnv): Promise<LoggedRequest[]> {
	return (await env.sb.admin.getRequests()) as unknown as LoggedRequest[];
}

/** Vendor create parameters for item `$json.name` (a valid crypto vendor). */
export const vendorCreate = {
	resource: 'vendor',
	operation: 'create',
	name: '={{ $json.name }}',
	paymentMethod: 'crypto',
	additionalFields: { walletAddress: VALID.evm, walletChain: 'ethereum' },
};

export const vendorList = { resource: 'vendor', operation: 'getAll', returnAll: true, filters: {} };

/** Node parameters with a rate-limit wait budget in seconds. */
export const withBudget = (parameters: INodeParameters, seconds: number): INodeParameters => ({
	...parameters,
	options: { rateLimitWaitSeconds: seconds },
});
