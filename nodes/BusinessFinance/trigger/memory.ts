/**
 * What this n8n process remembers for its triggers beside their static data, as two records: one
 * per trigger node and mode (state.ts `nodeKey`), one per endpoint a node uses (`endpointKey`).
 * Each kind has one cap, the least recently used record dropped first, so that no flood of
 * deliveries grows memory without bound. Webhook-ids that could still verify are forgotten only
 * beyond a cap, and the log says so (docs/trigger.md). No secret is ever written to static data.
 */
import type { IDataObject, Logger } from 'n8n-workflow';

import { BoundedMap } from '../helpers/boundedMap';
import { mayWarn, WARNING_INTERVAL_MS } from '../helpers/warnings';

/** The caps per n8n process: trigger nodes (per node and mode), and webhook endpoints. */
export const MAX_NODES = 500;
export const MAX_ENDPOINTS = 1000;

/** Where deliveries are verified from, as decided at activation. */
export type SecretSource = 'endpoint' | 'credential' | 'none';

/** What a delivery needs to know of its registration. */
export interface Registration {
	endpointId?: string;
	secretSource?: SecretSource;
}

/** Why a delivery was refused, from what the trigger can tell. */
export type FailureCause = 'no_secret' | 'wrong_secret' | 'other_scheme' | 'clock';

/** The trigger a delivery is for, as n8n's log names it, and that log. */
export interface TriggerLog {
	nodeName: string;
	workflowId: string;
	logger: Pick<Logger, 'warn'>;
}

/** Counts forgotten webhook-ids between warnings: a flood of them makes one line per interval. */
interface ForgottenIds {
	forgotten: number;
	warnedAtMs?: number;
}

export interface NodeMemory {
	/** Announced by an activation still running: a delivery before n8n saves the static data. */
	registration?: Registration;
	/** Verified webhook-ids → Unix second until which a copy may verify (duplicates.ts). */
	seen?: ForgottenIds & { ids: BoundedMap<string, number>; trigger: TriggerLog };
	/** Deliveries refused since the last warning (verificationWarnings.ts). */
	failures?: {
		warnedAtMs?: number;
		counts: Partial<Record<FailureCause, number>>;
		/** The verifier's reason for the latest failure of each cause (fixed texts, no values). */
		details: Partial<Record<FailureCause, string>>;
	};
}

export interface EndpointMemory {
	/** The signing secret as last fetched (secrets.ts). */
	secret?: string;
	/** When the last fetch started, successful or not. */
	lastFetchMs?: number;
	/** The last fetch brought no secret; `unsupported`: the service hands out none (404/405). */
	failed?: boolean;
	unsupported?: boolean;
	/** A delivery's fetch in flight (activation's are never joined). */
	inFlight?: Promise<void>;
	/** When n8n's log last said that deliveries are answered 503 for lack of the secret. */
	warnedAtMs?: number;
	/** The user's own settings of an adopted endpoint (ownership.ts): outlive a failed activation. */
	original?: IDataObject;
}

const nodes = new BoundedMap<string, NodeMemory>(MAX_NODES);
const endpoints = new BoundedMap<string, EndpointMemory>(MAX_ENDPOINTS);
/** Nodes dropped beyond MAX_NODES take their own counts with them: one count for all of them. */
const droppedNodes: ForgottenIds = { forgotten: 0 };

/** The node's record as it is, without making it the most recently used. */
export const peekNode = (key: string): NodeMemory | undefined => nodes.get(key);

/**
 * The node's record, created when missing, the most recently used from now on. A node dropped
 * for it is named in `logger` when ids it could still be retried with go with it.
 */
export function nodeMemory(
	key: string,
	nowSeconds: number,
	logger: TriggerLog['logger'],
): NodeMemory {
	const memory = nodes.get(key) ?? {};
	const dropped = nodes.set(key, memory)?.[1].seen;
	dropped?.ids.dropOldestWhile((until) => until < nowSeconds);
	if (dropped?.ids.size) {
		droppedNodes.forgotten += dropped.ids.size;
		const named = { ...dropped.trigger, logger };
		warnForgotten(droppedNodes, named, `${MAX_NODES} triggers per n8n process`, nowSeconds);
	}
	return memory;
}

/** Logs that ids which may still be retried were forgotten: at most once per interval per count. */
export function warnForgotten(
	count: ForgottenIds,
	node: TriggerLog,
	bound: string,
	nowSeconds: number,
): void {
	if (!mayWarn(count, nowSeconds * 1000)) return;
	node.logger.warn(
		`Business Finance Trigger "${node.nodeName}" (workflow ${node.workflowId}): the duplicate memory is full (${bound}), so ${count.forgotten} webhook-id(s) the service may still retry were forgotten; a retry of one of those deliveries will run its workflow again. Said at most once every ${WARNING_INTERVAL_MS / 1000} s.`,
	);
	count.forgotten = 0;
}

/** The endpoint's record, created when missing, the most recently used from now on. */
export function endpointMemory(key: string): EndpointMemory {
	const memory = endpoints.get(key) ?? {};
	endpoints.set(key, memory);
	return memory;
}

export const peekEndpoint = (key: string): EndpointMemory | undefined => endpoints.get(key);

/** Deactivation released the endpoint: its secret and settings are no longer this node's. */
export const forgetEndpoint = (key: string): void => void endpoints.delete(key);
