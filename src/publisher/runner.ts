import type { AppContext } from '../context.js';
import { scheduleFollowerJobs } from '../repos/followers.js';
import { IDEMPOTENCY_TTL_MS } from '../repos/idempotency.js';
import { endAllLeases } from '../repos/leases.js';
import { vacuumAnalyze } from '../repos/maintenance.js';
import { purgeExpired } from '../repos/retention.js';
import { PublisherLoop } from './loop.js';
import { refreshExpiringTokens } from './token-refresh.js';

export interface RunningPublisher {
  stop(): Promise<void>;
}

const HOURLY_MS = 3600_000;
/** The embedded database's own vacuum: an hour after start (not during it), then daily. */
const EMBEDDED_VACUUM_FIRST_MS = HOURLY_MS;
const EMBEDDED_VACUUM_EVERY_MS = 24 * HOURLY_MS;

/**
 * The claim loop plus, every hour, the refresh of the long-lived tokens (Threads, LinkedIn) that are close to expiry
 * and the deletion of what is past its keeping (retention). On the embedded database, the leases of the process
 * that ran before (it crashed) end first.
 */
export async function startPublisher(ctx: AppContext): Promise<RunningPublisher> {
  await takeOverWorkOfDeadProcesses(ctx);
  // Every ACTIVE account without a follower count for the current UTC day gets one at once (decisions.md).
  await scheduleFollowerJobs(ctx.db, ctx.clock.now());
  const loop = new PublisherLoop(ctx);
  const hourly = async () => {
    await refreshExpiringTokens(ctx).catch((err) => ctx.logger.error({ err }, 'refreshing tokens failed'));
    await purgeOld(ctx).catch((err) => ctx.logger.error({ err }, 'deleting what is past its keeping failed'));
  };
  void hourly();
  const timer = setInterval(hourly, HOURLY_MS);
  timer.unref();
  const stopVacuum = ctx.dbKind === 'pglite' ? scheduleEmbeddedVacuum(ctx) : () => {};
  loop.start();
  ctx.logger.info({ workerId: loop.workerId }, 'publisher started');
  return {
    stop: async () => {
      clearInterval(timer);
      stopVacuum();
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

/** Finished webhook events, emails and idempotency keys past their keeping (config.retention); each worker may run it, the deletes do not clash. */
async function purgeOld(ctx: AppContext): Promise<void> {
  const purged = await purgeExpired(ctx.db, ctx.clock.now(), { ...ctx.config.retention, idempotencyMs: IDEMPOTENCY_TTL_MS });
  if (purged.webhookEvents || purged.emails || purged.idempotencyKeys) ctx.logger.info(purged, 'deleted what is past its keeping');
}

/** VACUUM (ANALYZE) of the embedded database on a schedule, since it runs no autovacuum; returns what stops it. */
function scheduleEmbeddedVacuum(ctx: AppContext): () => void {
  let every: NodeJS.Timeout | null = null;
  const vacuum = async () => {
    const started = performance.now();
    await vacuumAnalyze(ctx.db)
      .then(() => ctx.logger.info({ ms: Math.round(performance.now() - started) }, 'embedded database vacuumed'))
      .catch((err) => ctx.logger.error({ err }, 'vacuuming the embedded database failed'));
  };
  const first = setTimeout(() => {
    void vacuum();
    every = setInterval(vacuum, EMBEDDED_VACUUM_EVERY_MS);
    every.unref();
  }, EMBEDDED_VACUUM_FIRST_MS);
  first.unref();
  return () => {
    clearTimeout(first);
    if (every) clearInterval(every);
  };
}
