import type { Db } from '../../db/database.js';
import type { JobRow } from '../../db/schema/index.js';
import type { Metrics } from '../../metrics/metrics.js';
import { claimDueJobs as claimJobRows, renewJobLease as renewJobRowLease } from '../../repos/jobs.js';

/**
 * Claims up to `limit` due jobs for `workerId` in one statement (see repos/jobs.ts), under a
 * lease of `leaseMs`. The statement commits before any network call is made. Jobs taken from an
 * expired lease are counted in `metrics`.
 */
export async function claimDueJobs(db: Db, workerId: string, now: Date, leaseMs: number, limit: number, metrics?: Metrics): Promise<JobRow[]> {
  const { rows, takeovers } = await claimJobRows(db, workerId, now, new Date(now.getTime() + leaseMs), limit);
  metrics?.leaseTakeovers('job', takeovers);
  return rows;
}

/** Extends the lease while this worker still holds it; false when it was lost to another worker. */
export function renewJobLease(db: Db, jobId: string, workerId: string, now: Date, leaseMs: number): Promise<boolean> {
  return renewJobRowLease(db, jobId, workerId, new Date(now.getTime() + leaseMs));
}
