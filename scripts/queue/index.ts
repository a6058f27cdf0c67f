// n8n's queue mode on loopback; what it looks like and why: docs/queue-mode.md.
export * from './environment';
export * from './installed';
