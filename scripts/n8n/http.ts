// The owner is created on first use, so the editor needs no sign-up step.
import { createHttpClient, type HttpClient, type HttpResponse } from '../http-client';
import { devOwner, type DevOwner } from './user-folder';

/**
 * The password every dev owner had before it was the user folder's own: a dev folder set up then
 * still has it, and the first start after the change replaces it (setupOwner).
 */
const FORMER_SHARED_PASSWORD = 'BusinessFinance1!';

export class N8nApi {
	private cookie = '';
	/** A promise, so calls made at once wait for one key instead of creating several. */
	private apiKey?: Promise<string>;
	private readonly http: HttpClient;

	constructor(
		readonly baseUrl: string,
		private readonly userFolder: string,
	) {
		const headers = { 'browser-id': 'bf-dev-scripts' };
		this.http = createHttpClient(baseUrl, { headers, retryResetGet: true });
	}

	owner(): DevOwner {
		return devOwner(this.userFolder);
	}

	async rest(method: string, urlPath: string, body?: unknown): Promise<any> {
		const answer = await this.signedIn(method, `/rest${urlPath}`, body);
		return answer.body?.data ?? answer.body;
	}

	/** The node types the editor loads: `/types/nodes.json`, served to a signed-in user only. */
	async nodeTypes(): Promise<Array<{ name: string; displayName: string }>> {
		return (await this.signedIn('GET', '/types/nodes.json')).body;
	}

	private async signedIn(method: string, fullPath: string, body?: unknown) {
		if (!this.cookie) await this.login();
		const headers = { cookie: this.cookie };
		const answer = await this.http.request(method, fullPath, { body, headers });
		return failUnlessOk(answer, `${method} ${fullPath}`);
	}

	async api(method: string, urlPath: string, body?: unknown): Promise<any> {
		this.apiKey ??= this.createApiKey().catch((error) => {
			this.apiKey = undefined; // the next call tries again
			throw error;
		});
		const fullPath = `/api/v1${urlPath}`;
		const headers = { 'x-n8n-api-key': await this.apiKey };
		const answer = await this.http.request(method, fullPath, { body, headers });
		return failUnlessOk(answer, `${method} ${fullPath}`).body;
	}

	async setupOwner(): Promise<void> {
		const settings = await this.http.get('/rest/settings');
		if (settings.body?.data?.userManagement?.showSetupOnFirstLoad !== false) {
			const answer = await this.http.post('/rest/owner/setup', this.owner());
			this.takeAuthCookie(failUnlessOk(answer, 'owner setup (POST /rest/owner/setup)', 1000));
		}
		if (this.cookie) return;
		try {
			await this.login();
		} catch (error) {
			if (!(await this.replaceFormerPassword())) throw error;
		}
	}

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

	private async loginAnswer(password: string): Promise<HttpResponse> {
		const { email } = this.owner();
		return await this.http.post('/rest/login', {
			emailOrLdapLoginId: email,
			email,
			password,
		});
	}

	private takeAuthCookie(answer: HttpResponse): void {
		const auth = answer.setCookies.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
	}

	/** 2.x asks for scopes. */
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
}

function failUnlessOk(answer: HttpResponse, what: string, keep = 2000): HttpResponse {
	if (answer.status >= 300)
		throw new Error(`${what} -> ${answer.status}: ${answer.text.slice(0, keep)}`);
	return answer;
}
