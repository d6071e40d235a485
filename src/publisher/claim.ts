import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { Metrics } from '../metrics/metrics.js';
import { emailQueue } from '../repos/email.js';
import { followUpQueue } from '../repos/follow-ups.js';
import { jobQueue } from '../repos/jobs.js';
import type { Claimed, Lease, LeasedQueue, QueueColumn, QueueKey, QueueKind, QueueTableName } from '../repos/queue/leased-queue.js';
import { threadQueue } from '../repos/thread-queue.js';
import { deliveryQueue } from '../repos/webhook-deliveries.js';

/**
 * How the publisher claims and keeps its work, the same for every queue (repos/queue/): one
 * claim statement committed before any network call, every lease it holds renewed by one
 * heartbeat, and the idle loop woken when the next row of any queue falls due.
 */

/** Every queue the publisher works on. */
const QUEUES = [threadQueue, jobQueue, followUpQueue, deliveryQueue, emailQueue] as const;

/** Who claims, when, and for how long. */
export interface Claimer {
  db: Db;
  workerId: string;
  now: Date;
  leaseMs: number;
  /** Counts the rows taken over from an expired lease. */
  metrics?: Metrics;
}

interface ClaimableQueue<Row, Options extends unknown[]> {
  readonly table: { readonly kind: QueueKind };
  claim(db: Db, lease: Lease, limit: number, ...options: Options): Promise<Claimed<Row>>;
}

/**
 * Claims up to `limit` due rows of `queue` for the worker (and whatever that queue's claim
 * takes besides: the threads' spread over providers), under a lease of `leaseMs`.
 */
export async function claimDue<Row, Options extends unknown[]>(
  queue: ClaimableQueue<Row, Options>,
  claimer: Claimer,
  limit: number,
  ...options: Options
): Promise<Row[]> {
  const lease = { workerId: claimer.workerId, now: claimer.now, until: new Date(claimer.now.getTime() + claimer.leaseMs) };
  const { rows, takeovers } = await queue.claim(claimer.db, lease, limit, ...options);
  claimer.metrics?.leaseTakeovers(queue.table.kind, takeovers);
  return rows;
}

/**
 * Claims up to `limit` due rows of `queue` and runs each, one after another or, with `atOnce`,
 * all together (each waits on a different endpoint); a worker that is stopping hands each
 * back instead. A run that could not record its outcome (a database fault) is logged and left
 * alone: its lease runs out and the row is claimed again. Returns how many were claimed.
 */
export async function runDue<K extends string, Row extends QueueKey<K>>(
  deps: { ctx: AppContext; workerId: string; stopping?: () => boolean },
  queue: ClaimableQueue<Row, []> & { handBack(db: Db, key: QueueKey<K>, workerId: string, now: Date): Promise<boolean> },
  limit: number,
  run: (row: Row) => Promise<void>,
  report: { what: string; ids: (row: Row) => Record<string, string> },
  atOnce = false,
): Promise<number> {
  const { ctx } = deps;
  const rows = await claimDue(queue, claimerOf(deps), limit);
  const runOne = async (row: Row) => {
    try {
      if (deps.stopping?.()) await queue.handBack(ctx.db, row, deps.workerId, ctx.clock.now());
      else await run(row);
    } catch (err) {
      ctx.logger.error({ err, ...report.ids(row) }, `a ${report.what} stopped on an unexpected error`);
    }
  };
  if (atOnce) await Promise.all(rows.map(runOne));
  else for (const row of rows) await runOne(row);
  return rows.length;
}

/** The worker of `deps` claiming now, under the configured lease. */
export function claimerOf(deps: { ctx: AppContext; workerId: string }): Claimer {
  const { ctx } = deps;
  return { db: ctx.claimDb, workerId: deps.workerId, now: ctx.clock.now(), leaseMs: ctx.config.publisher.leaseMs, metrics: ctx.metrics };
}

/** When a lease taken or renewed now runs out. */
export function leaseUntil(ctx: AppContext): Date {
  return new Date(ctx.clock.now().getTime() + ctx.config.publisher.leaseMs);
}

/** Extends the lease on one row while the worker still holds it; false when it was lost to another worker. */
export function renewLease<T extends QueueTableName, K extends QueueColumn<T>>(
  deps: { ctx: AppContext; workerId: string },
  queue: Omit<LeasedQueue<T, K>, 'claim'>,
  key: QueueKey<K>,
): Promise<boolean> {
  return queue.renew(deps.ctx.db, key, deps.workerId, leaseUntil(deps.ctx));
}

/**
 * The worker's heartbeat: extends every lease it holds, the thread being published, the threads
 * claimed with it and waiting their turn, the jobs, the follow-up replies and the webhook deliveries it runs.
 */
export async function renewWorkerLeases(db: Db, workerId: string, now: Date, leaseMs: number): Promise<void> {
  const until = new Date(now.getTime() + leaseMs);
  for (const queue of QUEUES) await queue.renewAllOf(db, workerId, until);
}

/**
 * The next moment anything becomes claimable: a scheduled thread, a retry after backoff, a
 * follow-up reply, job or webhook delivery, or a lease that runs out. Null when nothing is pending. The idle loop sleeps
 * until then (at most one poll interval), so a thread goes out at its second, not at a poll.
 */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const times = await Promise.all(QUEUES.map((queue) => queue.nextDueAt(db)));
  const known = times.filter((t): t is Date => t !== null);
  return known.length ? new Date(Math.min(...known.map((t) => t.getTime()))) : null;
}
