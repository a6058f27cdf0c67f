/**
 * Unit and integration tests: real HTTP against the in-process sandbox. test/e2e, test/e2e-queue
 * and test/editor have their own configs (`npm run test:e2e`, `test:e2e:queue`, `test:editor`).
 */
// West of UTC, unless the caller chose a zone: a timestamp read as n8n's local time instead of UTC
// then shows (test/polling/cursor.test.ts checks that the zone is in force).
process.env.TZ ??= 'America/New_York';

module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e', '<rootDir>/test/editor/'],
	// n8n's logger silent unless BF_N8N_LOG_LEVEL asks for it.
	setupFiles: ['<rootDir>/test/helpers/n8n-log-level.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	testTimeout: 30000,
};
