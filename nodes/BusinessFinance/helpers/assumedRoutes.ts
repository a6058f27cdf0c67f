/** "No such route" or "no such record" from an assumed route (docs/api-decisions.md). */

/** Words with which a service's 404 message speaks of a route rather than a record. */
const ROUTE_WORDS = /\b(route|path|endpoint|url|cannot get)\b/i;

interface FailedAnswer {
	status?: number;
	/** The service's error code, when the body had the API's `{error: {code, message}}` shape. */
	code?: string;
	/** The service's own message, if it sent one. */
	serviceMessage?: string;
}

/**
 * A 405 or 501; a 404 not in the API's error shape (a framework's or proxy's), or speaking of a
 * route. Any other 404 means the record was not found.
 */
export function answerMeansNoRoute({ status, code, serviceMessage }: FailedAnswer): boolean {
	if (status === 405 || status === 501) return true;
	if (status !== 404) return false;
	if (!code) return true;
	return ROUTE_WORDS.test(code.replace(/_/g, ' ')) || ROUTE_WORDS.test(serviceMessage ?? '');
}
