/** `npm run sandbox -- [flags]`: starts the sandbox (demo data by default) until Ctrl-C. */
import { startSandbox } from './index';
import type { SandboxOptions } from './types';

const USAGE = `Usage: npm run sandbox -- [options]
  --port <n>             port (default 4010; 0 = a free port)
  --host <addr>          listen address (default 127.0.0.1)
  --api-key <svc_...>    the working API key (default svc_sandbox_demo_key)
  --rate-limit <n>       requests per window per key (default 100)
  --rate-window <s>      window length in seconds (default 60)
  --retry-after          also send Retry-After on 429
  --seed demo|none       initial data (default demo)
  --help`;

function fail(message: string): never {
	console.error(`${message}\n\n${USAGE}`);
	process.exit(2);
}

function num(flag: string, v: string | undefined): number {
	const n = Number(v);
	if (v === undefined || v.trim() === '' || !Number.isFinite(n)) fail(`${flag} needs a number`);
	return n;
}

/** Each flag sets its option; `value()` takes the flag's value (`--flag=v` or the next word). */
const FLAGS: Record<string, (o: SandboxOptions, value: () => string | undefined) => void> = {
	'--port': (o, value) => (o.port = num('--port', value())),
	'--host': (o, value) => (o.host = value() ?? fail('--host needs a value')),
	'--api-key': (o, value) => (o.apiKey = value() ?? fail('--api-key needs a value')),
	'--rate-limit': (o, value) => (o.rateLimit = num('--rate-limit', value())),
	'--rate-window': (o, value) => (o.rateWindowSeconds = num('--rate-window', value())),
	'--retry-after': (o) => (o.retryAfter = true),
	'--seed': (o, value) => {
		const seed = value();
		o.seed = seed === 'demo' || seed === 'none' ? seed : fail('--seed must be demo or none');
	},
};

export function parseArgs(argv: string[]): SandboxOptions {
	const o: SandboxOptions = { port: 4010, seed: 'demo' };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s, 2);
		if (flag === '--help' || flag === '-h') {
			console.log(USAGE);
			process.exit(0);
		}
		const set = FLAGS[flag] ?? fail(`Unknown option ${argv[i]}`);
		set(o, () => (inline !== undefined ? inline : argv[++i]));
	}
	return o;
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const sb = await startSandbox(options);
	console.log(`Business Finance sandbox listening on ${sb.baseUrl}  (API under ${sb.baseUrl}/v1)`);
	console.log(`  API key:      ${sb.apiKey}`);
	console.log(`  expired key:  ${sb.keys.expired}   (401 API_KEY_EXPIRED)`);
	console.log(`  revoked key:  ${sb.keys.revoked}   (401 INVALID_API_KEY)`);
	console.log(
		`  seed: ${options.seed}; admin routes under ${sb.baseUrl}/_admin (see sandbox/API.md)`,
	);
	console.log('Press Ctrl-C to stop.');
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) process.exit(1);
		stopping = true;
		console.log(`\n${signal}: stopping the sandbox`);
		sb.close().then(
			() => process.exit(0),
			(e) => {
				console.error(e);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
	main().catch((e) => {
		console.error(e instanceof Error ? e.message : e);
		process.exit(1);
	});
}
