/**
 * Telling "the service has no such route" from "no such record" in the answer to an assumed
 * route (docs/api-decisions.md, "Assumed routes"). Both may come back as 404: the sandbox answers
 * `NOT_FOUND` to both, another service may answer its web framework's HTML page, its own 404, or
 * 405 when the path exists with other methods (as `/v1/vendors/{id}` does for PATCH).
 */

/** Words with which a service's 404 message speaks of a route rather than a record. */
const ROUTE_WORDS = /\b(route|path|endpoint|url|cannot get)\b/i;

export interface FailedAnswer {
	status?: number;
	/** The service's error code, when the body had the API's `{error: {code, message}}` shape. */
	code?: string;
	/** The service's own message, if it sent one. */
	serviceMessage?: string;
}

/**
 * True when the answer says the route does not exist: a 405 or 501; a 404 that is not in the
 * API's error shape (an HTML page, plain text, an empty body: the API itself always answers in
 * its shape, so that came from a framework or proxy in front of it); or a 404 whose code or
 * message speaks of a route, path or endpoint. Any other 404 means the record was not found.
 */
export function answerMeansNoRoute(answer: FailedAnswer): boolean {
	const { status, code, serviceMessage } = answer;
	if (status === 405 || status === 501) return true;
	if (status !== 404) return false;
	if (!code) return true;
	return ROUTE_WORDS.test(code.replace(/_/g, ' ')) || ROUTE_WORDS.test(serviceMessage ?? '');
}
