/**
 * n8n's two HTTP APIs as the instance owner: the internal REST API (`/rest/...`, the editor's,
 * with the session cookie of a login) and the public API (`/api/v1/...`, with an API key the
 * owner creates). The owner is created on first use, so the editor needs no sign-up step; its
 * password is the user folder's own (user-folder.ts).
 */
import { devOwner, type DevOwner } from './user-folder';

/**
 * The password every dev owner had before it was the user folder's own: a dev folder set up then
 * still has it, and the first start after the change replaces it (setupOwner).
 */
const FORMER_SHARED_PASSWORD = 'BusinessFinance1!';

interface HttpAnswer {
	status: number;
	headers: Headers;
	/** The parsed JSON body (undefined when empty or not JSON). */
	body: any;
	text: string;
}

/** A client of one n8n instance, signed in as the owner on first use. */
export class N8nApi {
	/** `n8n-auth=...` (empty until a login or the owner setup). */
	private cookie = '';
	/** The public API key; calls made at once wait for one key instead of creating several. */
	private apiKey?: Promise<string>;

	constructor(
		readonly baseUrl: string,
		/** The n8n's `N8N_USER_FOLDER`, which keeps the owner's password. */
		private readonly userFolder: string,
	) {}

	/** Who this client signs in as: the owner `npm run dev` prints and the editor test signs in as. */
	owner(): DevOwner {
		return devOwner(this.userFolder);
	}

	/** Internal REST (`/rest/...`) as the owner; returns the answer's `data`. */
	async rest(method: string, urlPath: string, body?: unknown): Promise<any> {
		if (!this.cookie) await this.login();
		const fullPath = `/rest${urlPath}`;
		const answer = await this.request(method, fullPath, body, { cookie: this.cookie });
		failUnlessOk(answer, `${method} ${fullPath}`);
		return answer.body?.data ?? answer.body;
	}

	/** Public REST API (`/api/v1/...`) with the owner's API key (created on first use). */
	async api(method: string, urlPath: string, body?: unknown): Promise<any> {
		this.apiKey ??= this.createApiKey().catch((error) => {
			this.apiKey = undefined; // the next call tries again
			throw error;
		});
		const fullPath = `/api/v1${urlPath}`;
		const headers = { 'x-n8n-api-key': await this.apiKey };
		const answer = await this.request(method, fullPath, body, headers);
		return failUnlessOk(answer, `${method} ${fullPath}`).body;
	}

	/**
	 * Creates the owner when the instance has none (idempotent), then logs in; an owner that still
	 * has the former shared password gets the user folder's own.
	 */
	async setupOwner(): Promise<void> {
		const settings = await this.request('GET', '/rest/settings');
		if (settings.body?.data?.userManagement?.showSetupOnFirstLoad !== false) {
			const answer = await this.request('POST', '/rest/owner/setup', this.owner());
			this.takeAuthCookie(failUnlessOk(answer, 'owner setup (POST /rest/owner/setup)', 1000));
		}
		if (this.cookie) return;
		try {
			await this.login();
		} catch (error) {
			if (!(await this.replaceFormerPassword())) throw error;
		}
	}

	/** Signs in with the former shared password and, if it works, sets the folder's own. */
	private async replaceFormerPassword(): Promise<boolean> {
		const answer = await this.loginAnswer(FORMER_SHARED_PASSWORD);
		if (answer.status >= 300) return false;
		this.takeAuthCookie(answer);
		const newPassword = this.owner().password;
		await this.rest('PATCH', '/me/password', {
			currentPassword: FORMER_SHARED_PASSWORD,
			newPassword,
		});
		this.cookie = ''; // n8n ends the sessions of the old password
		await this.login();
		return true;
	}

	private async login(): Promise<void> {
		const answer = await this.loginAnswer(this.owner().password);
		this.takeAuthCookie(failUnlessOk(answer, 'login (POST /rest/login)', 1000));
		if (!this.cookie) throw new Error('login answered without an n8n-auth cookie');
	}

	private async loginAnswer(password: string): Promise<HttpAnswer> {
		const { email } = this.owner();
		return await this.request('POST', '/rest/login', {
			emailOrLdapLoginId: email,
			email,
			password,
		});
	}

	private takeAuthCookie(answer: HttpAnswer): void {
		const auth = answer.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
	}

	/** A public API key with every scope the instance offers (2.x asks for scopes). */
	private async createApiKey(): Promise<string> {
		const scopes: string[] | undefined = await this.rest('GET', '/api-keys/scopes').catch(
			() => undefined,
		);
		const created = await this.rest('POST', '/api-keys', {
			label: `bf-scripts-${Date.now()}`,
			expiresAt: null,
			...(scopes ? { scopes } : {}),
		});
		const key = created?.rawApiKey ?? created?.apiKey;
		if (!key)
			throw new Error(`POST /rest/api-keys answered without a key: ${JSON.stringify(created)}`);
		return key;
	}

	/**
	 * One request. A GET whose kept-alive connection n8n reset is sent once more (fetch then opens
	 * a new connection): n8n 1.123.81 was seen resetting one while a large run ended
	 * (docs/benchmarks.md), and a GET changes nothing, so sending it again is safe.
	 */
	private async request(
		method: string,
		urlPath: string,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<HttpAnswer> {
		try {
			return await this.send(method, urlPath, body, headers);
		} catch (error) {
			const reset = (error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET';
			if (method !== 'GET' || !reset) throw error;
			return await this.send(method, urlPath, body, headers);
		}
	}

	private async send(
		method: string,
		urlPath: string,
		body: unknown,
		headers: Record<string, string>,
	): Promise<HttpAnswer> {
		const res = await fetch(`${this.baseUrl}${urlPath}`, {
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
