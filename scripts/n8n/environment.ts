import * as path from 'path';
import { freePort } from '../ports';
import type { Runtime } from './runtime';

type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface N8nOptions {
	userFolder: string;
	port: number;
	logLevel?: LogLevel;
	extraEnv?: Record<string, string>;
}

/**
 * Anything n8n would fetch from the internet goes to a dead loopback proxy; loopback itself (the
 * sandbox, n8n) is reached directly.
 */
const OFFLINE_ENV: Record<string, string> = {
	HTTP_PROXY: 'http://127.0.0.1:9',
	HTTPS_PROXY: 'http://127.0.0.1:9',
	http_proxy: 'http://127.0.0.1:9',
	https_proxy: 'http://127.0.0.1:9',
	NO_PROXY: '127.0.0.1,localhost,::1',
	no_proxy: '127.0.0.1,localhost,::1',
};

/**
 * `<userFolder>/.n8n/config` holds the encryption key of every credential: n8n writes it 0600 and
 * tightens a wider one only when this is true, which 1.x does not do by default. Set after
 * `extraEnv`: no n8n the scripts start turns it off.
 */
const PRIVATE_ENV: Record<string, string> = {
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
};

const QUIET_ENV: Record<string, string> = {
	N8N_SECURE_COOKIE: 'false',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_VERIFIED_PACKAGES_ENABLED: 'false',
	N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
	N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
	// 2.x activates ("publishes") workflows through an outbox polled every 15 s; poll faster so
	// an activation through the API takes effect within a second.
	N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '500',
};

/** Each n8n process, CLI included, opens a task-runner broker: on a port of its own. */
export async function n8nEnv(runtime: Runtime, options: N8nOptions): Promise<NodeJS.ProcessEnv> {
	const base = `http://127.0.0.1:${options.port}`;
	return withoutRepositorySettings({
		...process.env,
		PATH: `${path.dirname(runtime.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: options.userFolder,
		N8N_PORT: String(options.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${base}/`,
		N8N_WEBHOOK_URL: `${base}/`,
		N8N_LOG_LEVEL: options.logLevel ?? 'info',
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		...QUIET_ENV,
		...OFFLINE_ENV,
		...options.extraEnv,
		...PRIVATE_ENV,
	});
}

/**
 * The repository's own npm, ts-node and jest settings must not leak into n8n: `n8n start` exits
 * silently with NODE_ENV=test (which jest sets).
 */
function withoutRepositorySettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	for (const name of Object.keys(env)) {
		const leaks =
			name === 'NODE_ENV' ||
			name === 'NODE_OPTIONS' ||
			name.startsWith('TS_NODE_') ||
			name.startsWith('JEST_');
		if (leaks) delete env[name];
	}
	return env;
}
