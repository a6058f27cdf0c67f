// The owner is created on first use, so the editor needs no sign-up step.
import { devOwner, type DevOwner } from './user-folder';

/**
 * The password every dev owner had before it was the user folder's own: a dev folder set up then
 * still has it, and the first start after the change replaces it (setupOwner).
 */
const FORMER_SHARED_PASSWORD = 'BusinessFinance1!';

interface HttpAnswer {
	status: number;
	headers: Headers;
	body: any;
	text: string;
}

export class N8nApi {
	private cookie = '';
	/** A promise, so calls made at once wait for one key instead of creating several. */
	private apiKey?: Promise<string>;

	constructor(
		readonly baseUrl: string,
		private readonly userFolder: string,
	) {}

	owner(): DevOwner {
		return devOwner(this.userFolder);
	}

	async rest(method: string, urlPath: string, body?: unknown): Promise<any> {
		if (!this.cookie) await this.login();
		const fullPath = `/rest${urlPath}`;
		const answer = await this.request(method, fullPath, body, { cookie: this.cookie });
		failUnlessOk(answer, `${method} ${fullPath}`);
		return answer.body?.data ?? answer.body;
	}

	/** The node types the editor loads: `/types/nodes.json`, served to a signed-in user only. */
	async nodeTypes(): Promise<Array<{ name: string; displayName: string }>> {
		if (!this.cookie) await this.login();
		const answer = await this.request('GET', '/types/nodes.json', undefined, {
			cookie: this.cookie,
		});
		return failUnlessOk(answer, 'GET /types/nodes.json').body;
	}

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

	/**
	 * A GET whose kept-alive connection n8n reset is sent once more: n8n 1.123.81 was seen resetting
	 * one while a large run ended (docs/benchmarks.md), and a GET changes nothing.
	 */
	private async request(
		method: string,
		urlPath: string,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<HttpAnswer> {
		const send = async (): Promise<HttpAnswer> => {
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
		};
		try {
			return await send();
		} catch (error) {
			const reset = (error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET';
			if (method !== 'GET' || !reset) throw error;
			return await send();
		}
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
