/**
 * The secret a delivery is verified with, as decided at activation: the endpoint's (never checked
 * with another, which may be another endpoint's) or the credential's. What a delivery can cost is
 * bounded per endpoint (docs/trigger.md, "Signing secret and verification"). Never in static data.
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { mayWarn } from '../helpers/warnings';
import { CREDENTIAL_NAME } from '../helpers/constants';
import { settledWithin } from '../transport';
import { type Ctx, fetchEndpointSecret, type SecretFetchLimits } from './endpoints';
import {
	endpointMemory,
	type EndpointMemory,
	type Registration,
	type SecretSource,
} from './memory';
import { endpointKey } from './state';

/** Least time between two fetches of one endpoint's secret while a secret is cached. */
const REFRESH_INTERVAL_MS = 60_000;
/** After a failed fetch (and nothing cached), no new fetch for this long. */
const FAILURE_MEMORY_MS = 30_000;
/** Most a delivery waits for the secret, fetched or joined: the service waits for the answer. */
const RECEIVE_DEADLINE_MS = 5_000;

/** What one fetch learned, written to the entry. */
function learn(entry: EndpointMemory, secret: string | undefined): void {
	entry.failed = entry.unsupported = secret === undefined;
	if (secret !== undefined) entry.secret = secret;
}

/** Starts a delivery's fetch, with what is left of its deadline for every wait and request. */
function startFetch(
	ctx: Ctx,
	entry: EndpointMemory,
	endpointId: string,
	nowMs: number,
	deadlineAtMs: number,
) {
	entry.lastFetchMs = nowMs;
	const leftMs = Math.max(0, deadlineAtMs - Date.now());
	const limits: SecretFetchLimits = { waitBudgetMs: leftMs, deadlineMs: leftMs };
	entry.inFlight = (async () => {
		try {
			learn(entry, await fetchEndpointSecret.call(ctx, endpointId, limits));
		} catch (error) {
			entry.failed = true;
			ctx.logger.warn(
				`Business Finance Trigger: could not fetch the signing secret of webhook endpoint ${endpointId}: ${error instanceof Error ? error.message : String(error)}`,
			);
		} finally {
			entry.inFlight = undefined;
		}
	})();
}

/** When a new fetch may start for this endpoint (an attacker's mismatch included). */
function nextFetchAtMs(entry: EndpointMemory): number {
	if (entry.lastFetchMs === undefined) return 0;
	const pause = entry.failed && !entry.secret ? FAILURE_MEMORY_MS : REFRESH_INTERVAL_MS;
	return entry.lastFetchMs + pause;
}

/** Cached, else fetched or joined before the deadline; `afterMismatch`: fetch again (rotation). */
async function endpointSecret(
	ctx: Ctx,
	endpointId: string,
	afterMismatch: boolean,
	nowMs: number,
): Promise<EndpointMemory> {
	const entry = endpointMemory(endpointKey(ctx, endpointId));
	const wanted = afterMismatch || entry.secret === undefined;
	const deadlineAtMs = nowMs + RECEIVE_DEADLINE_MS;
	if (!entry.inFlight && wanted && nowMs >= nextFetchAtMs(entry)) {
		startFetch(ctx, entry, endpointId, nowMs, deadlineAtMs);
	}
	if (entry.inFlight) await settledWithin(entry.inFlight, deadlineAtMs - Date.now());
	return entry;
}

/** The credential's "Webhook Signing Secret", when set. */
async function credentialSecret(ctx: Ctx): Promise<string | undefined> {
	try {
		const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
		const secret = credentials?.webhookSigningSecret;
		return typeof secret === 'string' && secret.trim().length > 0 ? secret.trim() : undefined;
	} catch {
		return undefined;
	}
}

/** Activation fetches the secret on its own; throws errors but 404/405 (activation reports them) */
export async function secretSourceAtActivation(
	ctx: IHookFunctions,
	endpointId: string,
	startedMs = Date.now(),
): Promise<SecretSource> {
	const secret = await fetchEndpointSecret.call(ctx, endpointId);
	// Learned only once answered: a delivery meanwhile fetches on its own (with its deadline).
	const entry = endpointMemory(endpointKey(ctx, endpointId));
	if (!entry.inFlight) entry.lastFetchMs = startedMs;
	learn(entry, secret);
	if (secret) return 'endpoint';
	return (await credentialSecret(ctx)) ? 'credential' : 'none';
}

/** `unavailable`: the endpoint's secret cannot be had now (answered so the service retries). */
type SecretVerdict = 'verified' | 'mismatch' | 'no_secret' | 'unavailable';

/**
 * Checks a delivery with the secret its registration calls for. Without a recorded source
 * (activation still running): the endpoint's, the credential's only if the service has none.
 */
export async function checkWithSecret(
	ctx: IWebhookFunctions,
	registration: Registration,
	matches: (secret: string) => boolean,
	nowMs: number,
): Promise<SecretVerdict> {
	const { endpointId, secretSource } = registration;
	if (!endpointId || secretSource === 'credential' || secretSource === 'none') {
		return await checkWithCredential(ctx, matches);
	}
	const entry = await endpointSecret(ctx, endpointId, false, nowMs);
	const cached = entry.secret;
	if (cached !== undefined) {
		if (matches(cached)) return 'verified';
		const fresh = (await endpointSecret(ctx, endpointId, true, nowMs)).secret;
		return fresh !== undefined && fresh !== cached && matches(fresh) ? 'verified' : 'mismatch';
	}
	if (secretSource === undefined && entry.unsupported)
		return await checkWithCredential(ctx, matches);
	logUnavailable(ctx, entry, endpointId, nowMs);
	return 'unavailable';
}

async function checkWithCredential(
	ctx: IWebhookFunctions,
	matches: (secret: string) => boolean,
): Promise<SecretVerdict> {
	const secret = await credentialSecret(ctx);
	if (secret === undefined) return 'no_secret';
	return matches(secret) ? 'verified' : 'mismatch';
}

/** Says why deliveries get 503, at most once per interval per endpoint (floods). */
function logUnavailable(
	ctx: IWebhookFunctions,
	entry: EndpointMemory,
	endpointId: string,
	nowMs: number,
): void {
	if (!mayWarn(entry, nowMs)) return;
	const why = entry.unsupported
		? "the service no longer hands it out (deactivate and activate the workflow to verify with the credential's Webhook Signing Secret instead)"
		: 'it could not be fetched from the service in time';
	ctx.logger.warn(
		`Business Finance Trigger "${ctx.getNode().name}": deliveries to webhook endpoint ${endpointId} are answered 503, so that the service retries them, because its signing secret is unavailable: ${why}`,
	);
}
