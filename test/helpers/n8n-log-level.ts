/**
 * Runs before every unit test file (jest.config.js `setupFiles`): n8n's logger (winston, created
 * by n8n-core on first use) reads N8N_LOG_LEVEL, and node errors it logs would otherwise print
 * between test results. `BF_N8N_LOG_LEVEL=debug npx jest <file>` shows them when a test needs to.
 */
process.env.N8N_LOG_LEVEL = process.env.BF_N8N_LOG_LEVEL || 'silent';
