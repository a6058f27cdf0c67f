// A real n8n with this package installed, for scripts/dev.ts and test/e2e; what it relies on
// about n8n is in docs/n8n-notes.md.
export * from './community-package';
export * from './data-tables';
export * from './environment';
export * from './hot-reload';
export * from './http';
export * from './import';
export * from './runtime';
export * from './server';
export * from './user-folder';
