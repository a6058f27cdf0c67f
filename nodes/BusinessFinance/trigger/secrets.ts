/**
 * Where the trigger gets the secret to verify a delivery with: the endpoint's secret from the
 * service (cached in the n8n process's memory, fetched by one request at a time per endpoint, a
 * failure remembered for a while), else the credential's "Webhook Signing Secret".
 *
 * Every delivery to the webhook URL may be an attacker's, so what one can cost is bounded here:
 * at most one fetch in flight per endpoint (concurrent deliveries wait for it), after a signature
 * mismatch a new fetch only when the last one is `REFRESH_INTERVAL_MS` old (secret rotation),
 * and after a failed fetch none for `FAILURE_MEMORY_MS`.
 *
 * The secret is deliberately not written to the workflow's static data (n8n stores that
 * unencrypted with the workflow and shows it in exports); after a restart it is fetched again.
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../transport';
import { fetchEndpointSecret, type SecretFetchLimits } from './endpoints';
import type { SecretSource } from './state';

type Ctx = IHookFunctions | IWebhookFunctions;

/** Least time between two fetches of one endpoint's secret while a secret is cached. */
export const REFRESH_INTERVAL_MS = 60_000;
/** After a failed fetch (and nothing cached), no new fetch for this long. */
export const FAILURE_MEMORY_MS = 30_000;
/**
 * Most a delivery's secret fetch takes, rate-limit waits and requests together: the service is
 * waiting for the delivery's answer, and a secret route that hangs must not hold it.
 */
const RECEIVE_DEADLINE_MS = 5_000;
const RECEIVE_LIMITS: SecretFetchLimits = {
	waitBudgetMs: RECEIVE_DEADLINE_MS,
	deadlineMs: RECEIVE_DEADLINE_MS,
};
/** Most endpoints whose secret is kept; the least recently used is dropped first. */
const MAX_ENDPOINTS = 1000;

/** The clock of this module (tests move it instead of waiting a minute). */
export const clock = { nowMs: (): number => Date.now() };

interface FetchOutcome {
	secret?: string;
	error?: unknown;
}

interface EndpointSecret {
	secret?: string;
	/** When the last fetch started, successful or not. */
	lastFetchMs?: number;
	/** The last fetch brought no secret (error, or the service has no such route). */
	failed?: boolean;
	inFlight?: Promise<FetchOutcome>;
}

const endpoints = new Map<string, EndpointSecret>();

export function secretKey(ctx: Ctx, endpointId: string): string {
	return `${ctx.getWorkflow().id ?? ''}|${ctx.getNode().id}|${endpointId}`;
}

export function forgetSecret(key: string): void {
	endpoints.delete(key);
}

/** Forgets every endpoint's secret, as a restart of n8n does (tests). */
export function forgetAllSecrets(): void {
	endpoints.clear();
}

function entryFor(key: string): EndpointSecret {
	const entry = endpoints.get(key) ?? {};
	endpoints.delete(key); // re-inserted last: most recently used
	endpoints.set(key, entry);
	while (endpoints.size > MAX_ENDPOINTS) endpoints.delete(endpoints.keys().next().value as string);
	return entry;
}

/** Starts a fetch, or joins the one in flight: never two at a time for one endpoint. */
function fetchOnce(
	ctx: Ctx,
	entry: EndpointSecret,
	endpointId: string,
	limits?: SecretFetchLimits,
): Promise<FetchOutcome> {
	if (entry.inFlight) return entry.inFlight;
	entry.lastFetchMs = clock.nowMs();
	const run = async (): Promise<FetchOutcome> => {
		try {
			const secret = await fetchEndpointSecret.call(ctx, endpointId, limits);
			entry.failed = secret === undefined;
			if (secret !== undefined) entry.secret = secret;
			return { secret };
		} catch (error) {
			entry.failed = true;
			ctx.logger.warn(
				`Business Finance Trigger: could not fetch the signing secret of webhook endpoint ${endpointId}: ${error instanceof Error ? error.message : String(error)}`,
			);
			return { error };
		} finally {
			entry.inFlight = undefined;
		}
	};
	entry.inFlight = run();
	return entry.inFlight;
}

/** When a new fetch may start for this endpoint (an attacker's mismatch included). */
function nextFetchAtMs(entry: EndpointSecret): number {
	if (entry.lastFetchMs === undefined) return 0;
	const pause = entry.failed && !entry.secret ? FAILURE_MEMORY_MS : REFRESH_INTERVAL_MS;
	return entry.lastFetchMs + pause;
}

/**
 * The endpoint's secret for a delivery: cached, else fetched within the bounds above.
 * `afterMismatch`: the cached one did not match; fetch again if the bounds allow (rotation).
 */
async function endpointSecret(
	ctx: Ctx,
	endpointId: string,
	afterMismatch: boolean,
): Promise<string | undefined> {
	const entry = entryFor(secretKey(ctx, endpointId));
	if (entry.inFlight) return (await entry.inFlight).secret ?? entry.secret;
	const wanted = afterMismatch || entry.secret === undefined;
	if (!wanted || clock.nowMs() < nextFetchAtMs(entry)) return entry.secret;
	return (await fetchOnce(ctx, entry, endpointId, RECEIVE_LIMITS)).secret ?? entry.secret;
}

/** The credential's "Webhook Signing Secret", when set. */
export async function credentialSecret(ctx: Ctx): Promise<string | undefined> {
	try {
		const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
		const secret = credentials?.webhookSigningSecret;
		return typeof secret === 'string' && secret.trim().length > 0 ? secret.trim() : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Activation: fetches the endpoint's secret now (joining a fetch in flight) and tells where
 * deliveries will be verified from. Throws what the service answered when that is an error other
 * than "no such route" (404/405), so that activation can report it.
 */
export async function secretSourceAtActivation(
	ctx: IHookFunctions,
	endpointId: string,
): Promise<SecretSource> {
	const entry = entryFor(secretKey(ctx, endpointId));
	const outcome = await fetchOnce(ctx, entry, endpointId);
	if (outcome.error !== undefined) throw outcome.error;
	if (outcome.secret) return 'endpoint';
	return (await credentialSecret(ctx)) ? 'credential' : 'none';
}

export type SecretVerdict = 'verified' | 'mismatch' | 'no_secret';

/**
 * Checks a delivery with the secret its registration calls for. `matches` is the signature check
 * (synchronous, no network). The credential's secret is used when the endpoint's cannot be had.
 */
export async function checkWithSecret(
	ctx: IWebhookFunctions,
	registration: { endpointId?: string; secretSource?: SecretSource },
	matches: (secret: string) => boolean,
): Promise<SecretVerdict> {
	const { endpointId, secretSource } = registration;
	if (endpointId && secretSource !== 'credential' && secretSource !== 'none') {
		const cached = await endpointSecret(ctx, endpointId, false);
		if (cached !== undefined) {
			if (matches(cached)) return 'verified';
			const fresh = await endpointSecret(ctx, endpointId, true);
			return fresh !== undefined && fresh !== cached && matches(fresh) ? 'verified' : 'mismatch';
		}
	}
	const fallback = await credentialSecret(ctx);
	if (fallback === undefined) return 'no_secret';
	return matches(fallback) ? 'verified' : 'mismatch';
}
