import type { AppContext } from '../context.js';
import { scheduleFollowerJobs } from '../repos/followers.js';
import { endAllLeases } from '../repos/leases.js';
import { PublisherLoop } from './loop.js';
import { refreshExpiringTokens } from './token-refresh.js';

export interface RunningPublisher {
  stop(): Promise<void>;
}

const TOKEN_REFRESH_EVERY_MS = 3600_000;

/**
 * The claim loop plus the hourly refresh of the long-lived tokens (Threads, LinkedIn) that are close to expiry. On the
 * embedded database, the leases of the process that ran before (it crashed) end first.
 */
export async function startPublisher(ctx: AppContext): Promise<RunningPublisher> {
  await takeOverWorkOfDeadProcesses(ctx);
  // Every ACTIVE account without a follower count for the current UTC day gets one at once (decisions.md).
  await scheduleFollowerJobs(ctx.db, ctx.clock.now());
  const loop = new PublisherLoop(ctx);
  const refreshTokens = () => refreshExpiringTokens(ctx).catch((err) => ctx.logger.error({ err }, 'refreshing tokens failed'));
  void refreshTokens();
  const timer = setInterval(refreshTokens, TOKEN_REFRESH_EVERY_MS);
  timer.unref();
  loop.start();
  ctx.logger.info({ workerId: loop.workerId }, 'publisher started');
  return {
    stop: async () => {
      clearInterval(timer);
      await loop.stop();
    },
  };
}

/**
 * On the embedded database only one process can hold the data folder (see db/pglite/data-dir-lock.ts), so
 * every lease found at start belongs to a process that is gone: end them all, and its threads,
 * follow-ups and jobs are taken over by the first claim instead of after a lease period. Runs before this
 * process claims anything. On PostgreSQL other workers may be alive: their leases run out.
 */
export async function takeOverWorkOfDeadProcesses(
  ctx: AppContext,
): Promise<{ threads: number; jobs: number; followUps: number; webhookDeliveries: number } | null> {
  if (ctx.dbKind !== 'pglite') return null;
  const ended = await endAllLeases(ctx.db, ctx.clock.now());
  if (ended.threads || ended.jobs || ended.followUps || ended.webhookDeliveries || ended.emails) {
    ctx.logger.info(ended, 'resuming the threads, follow-ups, jobs, webhook deliveries and emails of the previous process, which did not stop cleanly');
  }
  return ended;
}
