/**
 * `npm run sandbox` (sandbox/cli.ts): flags from issue 2 (--port, --host, --api-key, --rate-limit,
 * --rate-window, --retry-after, --seed), prints the base URL and the key, stops on Ctrl-C (SIGINT).
 * Started as the npm script does (ts-node, transpile only), on port 0.
 */
import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';

import { createHttpClient } from '../helpers/http';
import { eventually, expectError } from './support';

const ROOT = path.resolve(__dirname, '..', '..');

interface Cli {
	child: ChildProcess;
	output: () => string;
	baseUrl: string;
	exited: Promise<number | null>;
}

async function startCli(args: string[]): Promise<Cli> {
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

function runBad(args: string[]): Promise<{ code: number | null; out: string }> {
	const child = spawn(
		process.execPath,
		[require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'sandbox/cli.ts', '--port', '0', ...args],
		{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let out = '';
	child.stdout.on('data', (c: Buffer) => (out += c.toString()));
	child.stderr.on('data', (c: Buffer) => (out += c.toString()));
	return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

// The three processes start in parallel (ts-node start-up dominates the time of this file).
let flagged: Cli;
let defaults: Cli;
let bad: Promise<{ code: number | null; out: string }>;

beforeAll(async () => {
	bad = runBad(['--seed', 'lots']);
	[flagged, defaults] = await Promise.all([
		startCli([
			'--port', '0',
			'--host', '127.0.0.1',
			'--api-key', FLAG_KEY,
			'--rate-limit', '3',
			'--rate-window', '30',
			'--retry-after',
			'--seed', 'none',
		]),
		startCli(['--port', '0']),
	]);
}, 90000);

afterAll(async () => {
	for (const cli of [flagged, defaults]) {
		if (cli && cli.child.exitCode === null) {
			cli.child.kill('SIGKILL');
			await cli.exited;
		}
	}
	await bad;
});

describe('npm run sandbox', () => {
	test('flags set the key, rate limit, window, Retry-After and seed; prints URL and key; Ctrl-C stops it', async () => {
		const cli = flagged;
		expect(cli.output()).toContain(FLAG_KEY);
		const api = createHttpClient(cli.baseUrl, { apiKey: FLAG_KEY });
		const first = await api.get('/v1/vendors');
		expect(first.status).toBe(200);
		expect(first.body.meta.total).toBe(0);
		expect(first.headers['x-ratelimit-limit']).toBe('3');
		const reset = Number(first.headers['x-ratelimit-reset']);
		expect(reset).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 31);
		await api.get('/v1/vendors');
		await api.get('/v1/vendors');
		const limited = await api.get('/v1/vendors');
		expectError(limited, 429, 'RATE_LIMITED');
		expect(limited.headers['retry-after']).toMatch(/^\d+$/);
		expectError(await api.get('/v1/vendors', { apiKey: 'svc_sandbox_demo_key' }), 401, 'INVALID_API_KEY');

		cli.child.kill('SIGINT');
		const code = await cli.exited;
		expect(code).toBe(0);
		await expect(api.get('/v1/vendors')).rejects.toThrow();
	});

	test('the default key and seed: svc_sandbox_demo_key with demo data', async () => {
		expect(defaults.output()).toContain('svc_sandbox_demo_key');
		const api = createHttpClient(defaults.baseUrl, { apiKey: 'svc_sandbox_demo_key' });
		const vendors = await api.get('/v1/vendors');
		expect(vendors.status).toBe(200);
		expect(vendors.body.meta.total).toBeGreaterThan(0);
		const txs = await api.get('/v1/treasury/transactions');
		expect(txs.body.meta.total).toBeGreaterThan(0);
	});

	test('a bad flag value exits non-zero with a message, without listening', async () => {
		const { code, out } = await bad;
		expect(code !== 0 && code !== null).toBe(true);
		expect(out).toContain('--seed');
		expect(out).not.toMatch(/listening/i);
	});
});
