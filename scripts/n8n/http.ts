/**
 * n8n's two HTTP APIs as the instance owner: the internal REST API (`/rest/...`, the editor's,
 * with the session cookie of a login) and the public API (`/api/v1/...`, with an API key the
 * owner creates). The owner is created on first use, so the editor needs no sign-up step.
 */

/** The owner `npm run dev` and the e2e suite create (dev only; printed by `npm run dev`). */
export const DEV_OWNER = {
	email: 'dev@business-finance.local',
	firstName: 'Dev',
	lastName: 'Owner',
	password: 'BusinessFinance1!',
};

type Owner = typeof DEV_OWNER;

interface HttpAnswer {
	status: number;
	headers: Headers;
	/** The parsed JSON body (undefined when empty or not JSON). */
	body: any;
	text: string;
}

/** What a signed-in client of one n8n instance holds; filled in as it signs in. */
export interface N8nSession {
	baseUrl: string;
	/** `n8n-auth=...` (empty until a login or the owner setup). */
	cookie: string;
	/** Public API key (empty until the first public API call). */
	apiKey: string;
	/** The key being created: calls made at once wait for one key instead of creating several. */
	apiKeyCreation?: Promise<string>;
}

export function newSession(baseUrl: string): N8nSession {
	return { baseUrl, cookie: '', apiKey: '' };
}

async function request(
	baseUrl: string,
	method: string,
	urlPath: string,
	body?: unknown,
	headers: Record<string, string> = {},
): Promise<HttpAnswer> {
	const res = await fetch(`${baseUrl}${urlPath}`, {
		method,
		headers: {
			'browser-id': 'bf-dev-scripts',
			...(body !== undefined ? { 'content-type': 'application/json' } : {}),
			...headers,
		},
		body: body !== undefined ? JSON.stringify(body) : undefined,
	});
	const text = await res.text();
	return { status: res.status, headers: res.headers, body: parseJson(text), text };
}

function parseJson(text: string): any {
	try {
		return text ? JSON.parse(text) : undefined;
	} catch {
		return undefined;
	}
}

function failUnlessOk(answer: HttpAnswer, what: string, keep = 2000): HttpAnswer {
	if (answer.status >= 300)
		throw new Error(`${what} -> ${answer.status}: ${answer.text.slice(0, keep)}`);
	return answer;
}

/** Internal REST (`/rest/...`) as the owner; returns the answer's `data`. */
export async function rest(session: N8nSession, method: string, urlPath: string, body?: unknown) {
	if (!session.cookie) await login(session);
	const fullPath = `/rest${urlPath}`;
	const answer = await request(session.baseUrl, method, fullPath, body, { cookie: session.cookie });
	failUnlessOk(answer, `${method} ${fullPath}`);
	return answer.body?.data ?? answer.body;
}

/** Public REST API (`/api/v1/...`) with the owner's API key (created on first use). */
export async function publicApi(
	session: N8nSession,
	method: string,
	urlPath: string,
	body?: unknown,
): Promise<any> {
	if (!session.apiKey) {
		session.apiKeyCreation ??= createApiKey(session).catch((error) => {
			session.apiKeyCreation = undefined; // the next call tries again
			throw error;
		});
		session.apiKey = await session.apiKeyCreation;
	}
	const fullPath = `/api/v1${urlPath}`;
	const headers = { 'x-n8n-api-key': session.apiKey };
	const answer = await request(session.baseUrl, method, fullPath, body, headers);
	return failUnlessOk(answer, `${method} ${fullPath}`).body;
}

/** Creates the owner when the instance has none (idempotent), then logs in. */
export async function setupOwner(session: N8nSession, owner: Owner = DEV_OWNER): Promise<void> {
	const settings = await request(session.baseUrl, 'GET', '/rest/settings');
	if (settings.body?.data?.userManagement?.showSetupOnFirstLoad !== false) {
		const answer = await request(session.baseUrl, 'POST', '/rest/owner/setup', owner);
		failUnlessOk(answer, 'owner setup (POST /rest/owner/setup)', 1000);
		takeAuthCookie(session, answer);
	}
	if (!session.cookie) await login(session, owner);
}

async function login(session: N8nSession, owner: Owner = DEV_OWNER): Promise<void> {
	const answer = await request(session.baseUrl, 'POST', '/rest/login', {
		emailOrLdapLoginId: owner.email,
		email: owner.email,
		password: owner.password,
	});
	failUnlessOk(answer, 'login (POST /rest/login)', 1000);
	takeAuthCookie(session, answer);
	if (!session.cookie) throw new Error('login answered without an n8n-auth cookie');
}

function takeAuthCookie(session: N8nSession, answer: HttpAnswer): void {
	const auth = answer.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
	if (auth) session.cookie = auth.split(';')[0];
}

/** A public API key with every scope the instance offers (2.x asks for scopes). */
async function createApiKey(session: N8nSession): Promise<string> {
	const scopes: string[] | undefined = await rest(session, 'GET', '/api-keys/scopes').catch(
		() => undefined,
	);
	const created = await rest(session, 'POST', '/api-keys', {
		label: `bf-scripts-${Date.now()}`,
		expiresAt: null,
		...(scopes ? { scopes } : {}),
	});
	const key = created?.rawApiKey ?? created?.apiKey;
	if (!key)
		throw new Error(`POST /rest/api-keys answered without a key: ${JSON.stringify(created)}`);
	return key;
}
