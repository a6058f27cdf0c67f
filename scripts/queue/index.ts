// n8n's queue mode on loopback; what it looks like and why: docs/queue-mode.md.
export { ensureQueueServices, requireQueueServices, type QueueServicePrograms } from './installed';
export { QueueEnvironment } from './environment';
