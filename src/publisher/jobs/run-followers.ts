import type { JobRow } from '../../db/schema/index.js';
import { saveFollowerCount } from '../../repos/followers.js';
import { jobQueue } from '../../repos/jobs.js';
import { saveProviderLimits } from '../../repos/providers.js';
import { renewLease } from '../claim.js';
import type { PublishDeps } from '../deps.js';
import { rescheduleJob } from './outcome.js';
import { nextFollowersRun } from './schedule.js';
import type { ProviderTarget } from './target.js';

/**
 * The daily follower count: one call, stored as the count of the current UTC day, then the
 * next run is booked for the next UTC day. Runs for ever while the provider is ACTIVE. A network
 * whose servers set their own limits (Mastodon) has them read again here too.
 */
export async function runFollowers(deps: PublishDeps, job: JobRow, target: ProviderTarget): Promise<void> {
  const { ctx } = deps;
  if (!(await renewLease(deps, jobQueue, job))) return;
  const count = await target.platform.fetchFollowers(target.account);
  const fetchedAt = ctx.clock.now();
  await saveFollowerCount(ctx.db, target.provider.id, count, fetchedAt);
  if (target.platform.fetchLimits) await rereadLimits(deps, target, fetchedAt);
  await rescheduleJob(deps, job, nextFollowersRun(fetchedAt, job.id));
}

/** The server's limits, read again; a failed read keeps the ones last read (and the count stands). */
async function rereadLimits(deps: PublishDeps, target: ProviderTarget, readAt: Date): Promise<void> {
  try {
    const limits = await target.platform.fetchLimits!(target.account);
    await saveProviderLimits(deps.ctx.db, target.provider.id, limits, readAt);
  } catch (err) {
    deps.ctx.logger.warn(
      { providerId: target.provider.id, err: err instanceof Error ? err.message : String(err) },
      "the server's limits could not be read again; the last ones are kept",
    );
  }
}
