/**
 * Support for the fault suite: the node test environment (test/node/support.ts: an in-process
 * sandbox and the real node through WorkflowExecute), plus what the fault tests add: a complete
 * serialisation of a run (errors with stack, context and cause included) to search for secrets,
 * and plain readers of the sandbox's state (every vendor id, events, the request log).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type * as TransportModule from '../../nodes/BusinessFinance/transport';
import { startEnv, VALID, type NodeTestEnv } from '../node/support';

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

export { VALID };
export type { NodeTestEnv };

export interface LoggedRequest {
	method: string;
	path: string;
	query: IDataObject;
	body: unknown;
	status: number;
}

/** A sandbox with a limit the tests do not reach; each test starts from `fresh()`. */
export async function startFaultEnv(): Promise<NodeTestEnv> {
	return await startEnv();
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

/**
 * JSON of everything reachable from `value`, including what JSON.stringify leaves out: an
 * Error's non-enumerable `message`, `stack` and `cause`, getters' values are not invoked.
 * Cycles are cut. Used to prove a secret appears nowhere in a run.
 */
export function serialiseEverything(value: unknown): string {
	const seen = new WeakSet<object>();
	const walk = (v: unknown, depth: number): unknown => {
		if (v === null || typeof v !== 'object') {
			if (typeof v === 'function') return `[function ${(v as { name?: string }).name ?? ''}]`;
			if (typeof v === 'bigint') return String(v);
			return v;
		}
		if (seen.has(v as object) || depth > 60) return '[seen]';
		seen.add(v as object);
		if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
		if (v instanceof Map)
			return [...v.entries()].map(([k, x]) => [walk(k, depth + 1), walk(x, depth + 1)]);
		if (v instanceof Set) return [...v.values()].map((x) => walk(x, depth + 1));
		if (Buffer.isBuffer(v)) return (v as Buffer).toString('utf8');
		const out: Record<string, unknown> = {};
		for (const key of Object.getOwnPropertyNames(v)) {
			const desc = Object.getOwnPropertyDescriptor(v, key);
			if (!desc || !('value' in desc)) continue; // do not run getters
			out[key] = walk(desc.value, depth + 1);
		}
		return out;
	};
	return JSON.stringify(walk(value, 0));
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
