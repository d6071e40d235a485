import type { JobRow } from '../../db/schema/index.js';
import { refreshPostsAnalytics } from '../../networks/post-analytics.js';
import { jobQueue } from '../../repos/jobs.js';
import { renewLease } from '../claim.js';
import type { PublishDeps } from '../deps.js';
import { completeJob, rescheduleJob } from './outcome.js';
import { nextAnalyticsRun, spreadOf } from './schedule.js';
import type { JobTarget } from './target.js';

/**
 * Refreshes the analytics of every post of the thread (one batch per thread, see
 * refreshPostsAnalytics), then books the next refresh. A post the network refuses for good
 * (deleted there) is skipped so the others keep refreshing; the job fails only when every post
 * is refused. A transient error ends the run, and the retry refreshes the whole batch again.
 */
export async function runAnalytics(deps: PublishDeps, job: JobRow, target: JobTarget): Promise<void> {
  const { ctx } = deps;
  const renew = () => renewLease(deps, jobQueue, job);
  const result = await refreshPostsAnalytics(ctx, { platform: target.platform, account: target.account, posts: target.posts, beforeEach: renew });
  if (result.stopped) return;
  if (result.refused && result.refreshed === 0) throw result.refused;
  const publishedAt = target.thread.published_at ?? job.created_at;
  const next = nextAnalyticsRun(publishedAt, ctx.clock.now(), spreadOf(job.id));
  await (next ? rescheduleJob(deps, job, next) : completeJob(deps, job));
}
