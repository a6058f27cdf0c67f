/**
 * n8n's queue mode on loopback, for `npm run test:e2e:queue` and the queue-mode benchmark. What
 * the environment looks like and why is in docs/queue-mode.md.
 *
 * installed.ts       Redis and PostgreSQL 17 programs (scripts/provision-queue.sh installs them)
 * redis.ts           a private Redis
 * postgres.ts        a private PostgreSQL cluster with n8n's database (as an unprivileged user
 *                    when we are root)
 * load-balancer.ts   the balancer in front of the webhook processors (routing a test can steer)
 * n8n-processes.ts   n8n main, workers and webhook processors, and the variables they share
 * environment.ts     QueueEnvironment: all of the above behind one handle
 */
export { ensureQueueServices, requireQueueServices, type QueueServicePrograms } from './installed';
export { QueueEnvironment } from './environment';
