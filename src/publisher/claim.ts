import type { Db } from '../db/database.js';
import type { ThreadRow } from '../db/schema/index.js';
import type { Metrics } from '../metrics/metrics.js';
import { nextFollowUpDueAt, renewFollowUpLeasesOf } from '../repos/follow-ups.js';
import { nextJobDueAt, renewJobLeasesOf } from '../repos/jobs.js';
import { type ClaimSpread, claimDueThreads as claimThreadRows, nextThreadDueAt, renewThreadLease, renewThreadLeasesOf } from '../repos/threads.js';
import { nextDeliveryDueAt, renewDeliveryLeasesOf } from '../repos/webhook-deliveries.js';

/**
 * Claims up to `limit` due threads for `workerId` and marks their unpublished posts PUBLISHING,
 * in one statement (see repos/threads.ts; `spread` spreads it over providers), committed before
 * any network call is made. The threads come back in schedule order. Threads
 * taken from an expired lease are counted in `metrics`.
 */
export async function claimDueThreads(
  db: Db,
  workerId: string,
  now: Date,
  leaseMs: number,
  limit: number,
  spread?: ClaimSpread,
  metrics?: Metrics,
): Promise<ThreadRow[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const { rows: claimed, takeovers } = await claimThreadRows(db, workerId, now, leaseUntil, limit, spread);
  metrics?.leaseTakeovers('thread', takeovers);
  claimed.sort((a, b) => Number(a.scheduled_at) - Number(b.scheduled_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return claimed;
}

/**
 * The worker's heartbeat: extends every lease it holds, the thread being published, the threads
 * claimed with it and waiting their turn, the follow-up replies, the jobs and the webhook deliveries it runs.
 */
export async function renewWorkerLeases(db: Db, workerId: string, now: Date, leaseMs: number): Promise<void> {
  const until = new Date(now.getTime() + leaseMs);
  await renewThreadLeasesOf(db, workerId, until);
  await renewJobLeasesOf(db, workerId, until);
  await renewFollowUpLeasesOf(db, workerId, until);
  await renewDeliveryLeasesOf(db, workerId, until);
}

/** Extends the lease while a worker still holds it; false when it was lost to another worker. */
export async function renewLease(db: Db, threadId: string, workerId: string, now: Date, leaseMs: number): Promise<boolean> {
  return renewThreadLease(db, threadId, workerId, new Date(now.getTime() + leaseMs));
}

/**
 * The next moment anything becomes claimable: a scheduled thread, a retry after backoff, a
 * follow-up reply, job or webhook delivery, or a lease that runs out. Null when nothing is pending. The idle loop sleeps
 * until then (at most one poll interval), so a thread goes out at its second, not at a poll.
 */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const times = await Promise.all([nextThreadDueAt(db), nextJobDueAt(db), nextFollowUpDueAt(db), nextDeliveryDueAt(db)]);
  const known = times.filter((t): t is Date => t !== null);
  return known.length ? new Date(Math.min(...known.map((t) => t.getTime()))) : null;
}
