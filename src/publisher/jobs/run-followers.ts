import type { JobRow } from '../../db/schema/index.js';
import { saveFollowerCount } from '../../repos/followers.js';
import { jobQueue } from '../../repos/jobs.js';
import { renewLease } from '../claim.js';
import type { PublishDeps } from '../publish-thread.js';
import { rescheduleJob } from './outcome.js';
import { nextFollowersRun } from './schedule.js';
import type { ProviderTarget } from './target.js';

/**
 * The daily follower count: one call, stored as the count of the current UTC day, then the
 * next run is booked for the next UTC day. Runs for ever while the provider is ACTIVE.
 */
export async function runFollowers(deps: PublishDeps, job: JobRow, target: ProviderTarget): Promise<void> {
  const { ctx } = deps;
  if (!(await renewLease(deps, jobQueue, job))) return;
  const count = await target.platform.fetchFollowers(target.account);
  const fetchedAt = ctx.clock.now();
  await saveFollowerCount(ctx.db, target.provider.id, count, fetchedAt);
  await rescheduleJob(deps, job, nextFollowersRun(fetchedAt, job.id));
}
