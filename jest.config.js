/**
 * Unit and integration tests: real HTTP against the in-process sandbox. `npm run test:e2e` runs
 * test/e2e and `npm run test:editor` test/editor, each with its own config.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/editor/'],
	// n8n's logger silent unless BF_N8N_LOG_LEVEL asks for it.
	setupFiles: ['<rootDir>/test/helpers/n8n-log-level.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json', isolatedModules: true }],
	},
	testTimeout: 30000,
};
