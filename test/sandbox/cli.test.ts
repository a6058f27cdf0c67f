/** `npm run sandbox` (flags from issue 2), started as the npm script does, on port 0. */
import * as path from 'path';

import { startGroup, stopGroup } from '../../scripts/process-group';
import { createHttpClient } from '../../scripts/http-client';
import { expectError, expectRateHeaders } from './support';

const FLAG_KEY = ['svc', 'cli_flag_key_42'].join('_');

/** `ts-node sandbox/cli.ts <args>`, once it has printed its address and the key. */
const startCli = (args: string[]) =>
	startGroup(
		'sandbox CLI',
		process.execPath,
		[require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'sandbox/cli.ts', ...args],
		{
			env: process.env,
			cwd: path.resolve(__dirname, '..', '..'),
			readyFor: 'the CLI to print its address and key',
			isReady: async (cli) =>
				/http:\/\/127\.0\.0\.1:\d+/.test(cli.log()) && cli.log().includes(FLAG_KEY),
			timeoutMs: 60_000, // ts-node start-up: ~3 s on an idle machine, far more on a loaded one
			pollMs: 50,
		},
	);

// One process only: ts-node start-up dominates this file's time (demo data and the admin routes
// are covered in-process by faults-admin.test.ts).
test('flags set the key, rate limit, window, Retry-After and seed; prints URL and key; Ctrl-C stops it', async () => {
	const flags = `--port 0 --host 127.0.0.1 --api-key ${FLAG_KEY} --rate-limit 3 --rate-window 30`;
	const cli = await startCli(`${flags} --retry-after --seed none`.split(' '));
	try {
		const baseUrl = /http:\/\/127\.0\.0\.1:(\d+)/.exec(cli.log())![0];
		expect(baseUrl).not.toMatch(/:0$/);
		const api = createHttpClient(baseUrl, { apiKey: FLAG_KEY });
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
		await stopGroup(cli, 'SIGKILL');
	}
}, 150000);
