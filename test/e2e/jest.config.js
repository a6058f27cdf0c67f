// A real n8n (BF_N8N_VERSION, default package.json's config.n8nVersion; `npm run provision`) per file: run with --runInBand.
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
