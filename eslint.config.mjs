import { config } from '@n8n/node-cli/eslint';

// nodes/ and credentials/ get n8n's cloud-eligible rule set unchanged (the one
// @n8n/scan-community-package applies). Tests, the sandbox, benchmarks and dev scripts never
// ship (see "files" in package.json) and may use Node built-ins, timers and the console.
export default [
	...config,
	{
		files: ['test/**/*.ts', 'sandbox/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-dangerous-functions': 'off', // child processes: CLI tests, e2e n8n, benchmarks
			// NodeApiError / NodeOperationError need a node; scripts that start services have none.
			'@n8n/community-nodes/require-node-api-error': 'off',
			'no-console': 'off',
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-require-imports': 'off',
			'import-x/no-named-as-default-member': 'off',
		},
	},
];
