/** `npm run test:editor` needs `npm run provision` and scripts/install-chromium.sh. */
const path = require('path');

module.exports = {
	rootDir: path.resolve(__dirname, '..', '..'),
	testEnvironment: 'node',
	roots: ['<rootDir>/test/editor'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	// Starting n8n takes 30-60 s on a busy 2-core machine; each step in the browser a few seconds.
	testTimeout: 240000,
	slowTestThreshold: 60,
};
