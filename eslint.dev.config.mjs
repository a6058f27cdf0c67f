import { config } from '@n8n/node-cli/eslint';

// Lints the code that never ships (see "files" in package.json): tests, the sandbox, benchmarks
// and dev scripts, with n8n's rule set minus what only matters inside n8n Cloud. They may use Node
// built-ins, timers, child processes and the console. `npm run lint` runs this config over those
// folders and n8n's unchanged default (eslint.config.mjs, which `npx n8n-node cloud-support`
// checks) over nodes/ and credentials/.
export default [
	...config,
	{
		files: ['test/**/*.ts', 'sandbox/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-dangerous-functions': 'off', // child processes: CLI tests, e2e n8n, benchmarks
			'@n8n/community-nodes/require-node-api-error': 'off', // NodeApiError is for node code
			'no-console': 'off',
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-require-imports': 'off',
			'import-x/no-named-as-default-member': 'off',
			// The MCP client's subpaths come through its package's "./*" exports, which this
			// resolver does not read; TypeScript resolves them (npm run typecheck).
			'import-x/no-unresolved': ['error', { ignore: ['^@modelcontextprotocol/sdk/'] }],
		},
	},
];
