/**
 * `npm run sandbox` (sandbox/cli.ts): flags from issue 2 (--port, --host, --api-key, --rate-limit,
 * --rate-window, --retry-after, --seed), prints the base URL and the key, stops on Ctrl-C (SIGINT).
 * Started as the npm script does (ts-node, transpile only), on port 0.
 */
import { spawn } from 'child_process';
import * as path from 'path';

import { createHttpClient } from '../helpers/http';
import { eventually, expectError, expectRateHeaders } from './support';

const ROOT = path.resolve(__dirname, '..', '..');

async function startCli(args: string[]) {
	const child = spawn(
		process.execPath,
		[require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'sandbox/cli.ts', ...args],
		{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let out = '';
	child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
	child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const text = await eventually(
		async () => out,
		(o) => /http:\/\/127\.0\.0\.1:\d+/.test(o) || child.exitCode !== null,
		60000, // ts-node start-up: ~3 s on an idle machine, far more on a loaded one
	);
	const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
	if (!match || match[1] === '0') {
		child.kill('SIGKILL');
		throw new Error(`the CLI printed no usable base URL:\n${text}`);
	}
	return { child, output: () => out, baseUrl: match[0], exited };
}

const FLAG_KEY = ['svc', 'cli_flag_key_42'].join('_');

// One process only: ts-node start-up dominates this file's time (demo data and the admin routes
// are covered in-process by faults-admin.test.ts).
test('flags set the key, rate limit, window, Retry-After and seed; prints URL and key; Ctrl-C stops it', async () => {
	const flags = `--port 0 --host 127.0.0.1 --api-key ${FLAG_KEY} --rate-limit 3 --rate-window 30`;
	const cli = await startCli(`${flags} --retry-after --seed none`.split(' '));
	try {
		// stdout arrives in chunks: the key line may follow the URL line a little later
		expect(
			await eventually(
				async () => cli.output(),
				(o) => o.includes(FLAG_KEY),
				10000,
			),
		).toContain(FLAG_KEY);
		const api = createHttpClient(cli.baseUrl, { apiKey: FLAG_KEY });
		const first = await api.get('/v1/vendors');
		expect(first.status).toBe(200);
		expect(first.body.meta.total).toBe(0);
		const { limit, reset } = expectRateHeaders(first);
		expect(limit).toBe(3);
		expect(reset).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 31);
		await api.get('/v1/vendors');
		await api.get('/v1/vendors');
		const limited = await api.get('/v1/vendors');
		expectError(limited, 429, 'RATE_LIMITED');
		expect(limited.headers['retry-after']).toMatch(/^\d+$/);
		expectError(
			await api.get('/v1/vendors', { apiKey: 'svc_sandbox_demo_key' }),
			401,
			'INVALID_API_KEY',
		);

		cli.child.kill('SIGINT');
		expect(await cli.exited).toBe(0);
		await expect(api.get('/v1/vendors')).rejects.toThrow();
	} finally {
		if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
		await cli.exited;
	}
}, 150000);
