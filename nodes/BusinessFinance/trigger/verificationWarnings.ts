/**
 * Tells n8n's log why deliveries fail verification (else only `401`s the user never sees): one
 * warning per trigger per interval (the URL is public), with counts per cause and the likely
 * one; never a value a request sent.
 */
import { mayWarn, WARNING_INTERVAL_MS } from '../helpers/warnings';
import { nodeMemory, type FailureCause, type NodeMemory, type TriggerLog } from './memory';

const CAUSES: Record<FailureCause, string> = {
	no_secret:
		"no signing secret is stored to verify deliveries with: the service hands out none for the endpoint and the credential's Webhook Signing Secret is empty. Copy the endpoint's signing secret (whsec_...) from the service's dashboard into the credential",
	wrong_secret:
		"wrong secret: the signature does not match the secret the trigger verifies with (the endpoint's secret from the service, or the credential's Webhook Signing Secret when the service hands out none). Check that the credential holds this endpoint's secret, and that the sender is the service, not someone else who knows the URL",
	other_scheme:
		'a different signing scheme: the trigger expects Standard Webhooks signing, the headers webhook-id, webhook-timestamp and webhook-signature (or their svix-* names) with a "v1,<base64 HMAC-SHA256>" signature. Check how the service signs its deliveries, and that the sender is the service, not someone else who knows the URL',
	clock:
		"a timestamp outside the trigger's Timestamp Tolerance: n8n's clock or the service's is off, or the deliveries are retried late",
};

/** `key`: state.ts `nodeKey` (workflow, node and mode). */
type FailedTrigger = TriggerLog & { key: string };

type Failures = NonNullable<NodeMemory['failures']>;

/** Counts a delivery answered `401`; logs a warning if none was logged for the interval. */
export function noteVerificationFailure(
	trigger: FailedTrigger,
	cause: FailureCause,
	nowMs: number,
	detail?: string,
): void {
	const memory = nodeMemory(trigger.key, Math.floor(nowMs / 1000), trigger.logger);
	const entry = (memory.failures ??= { counts: {}, details: {} });
	entry.counts[cause] = (entry.counts[cause] ?? 0) + 1;
	if (detail) entry.details[cause] = detail;
	if (!mayWarn(entry, nowMs)) return;
	trigger.logger.warn(warning(trigger, entry));
	entry.counts = {};
	entry.details = {};
}

function warning(trigger: FailedTrigger, entry: Failures): string {
	const counted = (Object.entries(entry.counts) as Array<[FailureCause, number]>).sort(
		([, a], [, b]) => b - a,
	);
	const total = counted.reduce((sum, [, n]) => sum + n, 0);
	const [likely, ...others] = counted.map(([cause, n]) => {
		const detail = entry.details[cause] ? ` (${entry.details[cause]})` : '';
		return `(${deliveries(n)}): ${CAUSES[cause]}${detail}.`;
	});
	const also = others.map((text) => ` Also ${text}`).join('');
	return `Business Finance Trigger "${trigger.nodeName}" (workflow ${trigger.workflowId}): ${deliveries(total)} failed signature verification and ${total === 1 ? 'was' : 'were'} answered 401, starting no execution. Likely cause ${likely}${also} Said at most once every ${WARNING_INTERVAL_MS / 1000} s.`;
}

const deliveries = (n: number) => `${n} deliver${n === 1 ? 'y' : 'ies'}`;
