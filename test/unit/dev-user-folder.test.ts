/** A new folder's privacy is checked in a real n8n: test/e2e/n8n.e2e.test.ts ("secrets"). */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { devOwner, OWNER_PASSWORD_FILE, privateUserFolder } from '../../scripts/n8n';
import { N8nApi } from '../../scripts/n8n/http';
import { answer, bodyOf, scriptedServer, type ScriptedServer } from '../helpers/scripted-server';

let root: string;
beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-user-folder-test-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('the user folder', () => {
	it('is tightened to 0700 when it exists open to others (a dev folder from before)', () => {
		const folder = path.join(root, 'dev');
		fs.mkdirSync(path.join(folder, '.n8n'), { recursive: true, mode: 0o755 });
		fs.chmodSync(folder, 0o755);
		fs.chmodSync(path.join(folder, '.n8n'), 0o775);
		privateUserFolder(folder);
		expect(modeOf(folder)).toBe(0o700);
		expect(modeOf(path.join(folder, '.n8n'))).toBe(0o700);
	});
});

describe('the owner password', () => {
	it('meets n8n’s rules (8 to 64 characters, a number, an uppercase letter), is its folder’s own and kept', () => {
		const a = devOwner(path.join(root, 'a')).password;
		expect(a).toMatch(/^(?=.*\d)(?=.*[A-Z]).{8,64}$/);
		expect(devOwner(path.join(root, 'a')).password).toBe(a);
		const b = devOwner(path.join(root, 'b')).password;
		expect(a).not.toBe(b);
		expect([a, b]).not.toContain('BusinessFinance1!');
	});

	it('a password file widened by hand is put back to 0600', () => {
		const folder = path.join(root, 'a');
		const { password } = devOwner(folder);
		fs.chmodSync(path.join(folder, OWNER_PASSWORD_FILE), 0o644);
		expect(devOwner(folder).password).toBe(password);
		expect(modeOf(path.join(folder, OWNER_PASSWORD_FILE))).toBe(0o600);
	});
});

let server: ScriptedServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** A stand-in for n8n's owner login and password change, its owner set up with `password`. */
async function fakeN8n(password: string) {
	const state = { password, changes: 0 };
	server = await scriptedServer((req, res) => {
		void bodyOf(req).then((raw) => {
			const body = raw.length ? JSON.parse(raw.toString()) : {};
			const signedIn = req.headers.cookie === `n8n-auth=${state.password}`;
			if (req.url === '/rest/settings')
				return answer(res, 200, { data: { userManagement: { showSetupOnFirstLoad: false } } });
			if (req.url === '/rest/login' && body.password === state.password)
				return answer(res, 200, {}, { 'set-cookie': `n8n-auth=${state.password}; Path=/` });
			if (req.url === '/rest/me/password' && signedIn && body.currentPassword === state.password) {
				state.password = body.newPassword;
				state.changes++;
				return answer(res, 200, { data: { success: true } });
			}
			answer(res, 401, { message: 'Wrong username or password.' });
		});
	});
	return { baseUrl: server.baseUrl, state };
}

describe('setupOwner on an n8n whose owner exists', () => {
	it('an owner with the former shared password gets the folder’s own, once', async () => {
		const { baseUrl, state } = await fakeN8n('BusinessFinance1!');
		const folder = path.join(root, 'dev');
		await new N8nApi(baseUrl, folder).setupOwner();
		expect(state.password).toBe(devOwner(folder).password);
		// A later start signs in with it; the password is not changed again.
		await new N8nApi(baseUrl, folder).setupOwner();
		expect(state.changes).toBe(1);
	});

	it('an owner with some other password is a failed login, left as it is', async () => {
		const { baseUrl, state } = await fakeN8n('SomeoneElse1');
		const api = new N8nApi(baseUrl, path.join(root, 'dev'));
		await expect(api.setupOwner()).rejects.toThrow(/login \(POST \/rest\/login\) -> 401/);
		expect(state).toEqual({ password: 'SomeoneElse1', changes: 0 });
	});
});
