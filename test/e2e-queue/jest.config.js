/** `npm run test:e2e:queue`: --runInBand, one queue-mode environment for the run. */
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
