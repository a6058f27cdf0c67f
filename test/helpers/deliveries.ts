/**
 * Signed deliveries of distinct receivable.paid events, and sending them at a concurrency: the
 * bursts of bench/ and of the e2e suites' overlap tests.
 */
import { signedHeaders } from './standardWebhooks';

export type Delivery = ReturnType<typeof signedDeliveries>[number];

/** `copy`: the same events under new webhook-ids (what the trigger's memory has not seen). */
export function signedDeliveries(secret: string, prefix: string, count: number, copy = '') {
	const ts = Math.floor(Date.now() / 1000);
	return Array.from({ length: count }, (_, i) => {
		const id = `evt_${prefix}_${i}`;
		const body = JSON.stringify({
			id,
			type: 'receivable.paid',
			created_at: new Date().toISOString(),
			data: { id: `rcv_${prefix}_${i}`, status: 'paid', amount: 1250, currency: 'USD' },
		});
		return {
			id,
			body,
			headers: signedHeaders(secret, body, { id: `msg_${prefix}_${i}${copy}`, ts }),
		};
	});
}

export interface Answer {
	status: number;
	ms: number;
}

export async function send(
	url: string,
	deliveries: Delivery[],
	concurrency: number,
): Promise<Answer[]> {
	const answers: Answer[] = [];
	let next = 0;
	const worker = async () => {
		while (next < deliveries.length) {
			const { body, headers } = deliveries[next++];
			const started = performance.now();
			const status = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body,
			})
				.then(async (res) => {
					await res.arrayBuffer();
					return res.status;
				})
				.catch(() => 0); // no answer at all
			answers.push({ status, ms: performance.now() - started });
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return answers;
}
