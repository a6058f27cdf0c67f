/**
 * End-to-end tests in n8n's queue mode: n8n 2.40.7 (provisioned by `npm run provision`) as main +
 * 2 workers + 2 webhook processors with Redis and PostgreSQL 17 (installed when missing by
 * scripts/provision-queue.sh), against the in-process sandbox. One environment for the run.
 * `npm run test:e2e:queue` = `jest --config test/e2e-queue/jest.config.js --runInBand`.
 */
const path = require('path');

module.exports = {
	rootDir: path.resolve(__dirname, '..', '..'),
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e-queue'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	// Installs Redis / PostgreSQL when missing and builds the package; the teardown ends whatever
	// a failed or killed run left running.
	globalSetup: '<rootDir>/test/e2e-queue/global-setup.ts',
	globalTeardown: '<rootDir>/test/e2e-queue/global-teardown.ts',
	testTimeout: 180000,
	slowTestThreshold: 60,
};
