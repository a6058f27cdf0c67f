/**
 * End-to-end tests: a real n8n (2.40.7, or BF_N8N_VERSION; provisioned by `npm run provision`) started once per file
 * with this package installed as a community package, run against the in-process sandbox.
 * `npm run test:e2e` = `jest --config test/e2e/jest.config.js --runInBand`.
 */
const path = require('path');

module.exports = {
	rootDir: path.resolve(__dirname, '..', '..'),
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	// n8n takes 30-60 s to start on a busy 2-core machine and each `n8n execute` boots a CLI.
	testTimeout: 240000,
	slowTestThreshold: 60,
};
