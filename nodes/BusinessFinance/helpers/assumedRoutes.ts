/** "No such route" or "no such record" from an assumed route (docs/api-decisions.md). */
import type { ApiErrorInfo } from '../transport';

/** Words with which a service's 404 message speaks of a route rather than a record. */
const ROUTE_WORDS = /\b(route|path|endpoint|url|cannot get)\b/i;

/**
 * A 405 or 501; a 404 not in the API's error shape (a framework's or proxy's), or speaking of a
 * route. Any other 404 means the record was not found.
 */
export function answerMeansNoRoute({ status, code, serviceMessage }: ApiErrorInfo): boolean {
	if (status === 405 || status === 501) return true;
	if (status !== 404) return false;
	if (!code) return true;
	return ROUTE_WORDS.test(code.replace(/_/g, ' ')) || ROUTE_WORDS.test(serviceMessage ?? '');
}
