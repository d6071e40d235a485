import type { JobRow, PostRow } from '../../db/schema/index.js';
import { PublishError } from '../../platforms/platform.js';
import { fillInPermalink as savePermalinkIfMissing } from '../../repos/posts.js';
import type { PublishDeps } from '../publish-thread.js';
import { renewJobLease } from './claim.js';
import { completeJob, rescheduleJob } from './outcome.js';
import { saveAnalytics } from './post-analytics.js';
import { nextAnalyticsRun, spreadOf } from './schedule.js';
import { type JobTarget, publishedRef } from './target.js';

/**
 * Refreshes the analytics of every post of the thread (one batch per thread), then books the
 * next refresh. A post the network refuses for good (deleted there) is skipped so the others
 * keep refreshing; the job fails only when every post is refused. A transient error ends the
 * run, and the retry refreshes the whole batch again. A post whose permalink could not be read
 * when it was published gets it here.
 */
export async function runAnalytics(deps: PublishDeps, job: JobRow, target: JobTarget): Promise<void> {
  const { ctx } = deps;
  let refused: PublishError | null = null;
  let refreshed = 0;
  for (const post of target.posts) {
    if (!(await renewJobLease(ctx.db, job.id, deps.workerId, ctx.clock.now(), ctx.config.publisher.leaseMs))) return;
    try {
      await saveAnalytics(ctx, post.id, await target.platform.fetchAnalytics(target.account, publishedRef(post)));
      refreshed++;
      if (!post.permalink) await fillInPermalink(deps, target, post);
    } catch (err) {
      if (!(err instanceof PublishError && err.kind === 'permanent')) throw err;
      ctx.logger.info({ jobId: job.id, postId: post.id, code: err.code }, `analytics of a post skipped: ${err.message}`);
      refused = err;
    }
  }
  if (refused && refreshed === 0) throw refused;
  const publishedAt = target.thread.published_at ?? job.created_at;
  const next = nextAnalyticsRun(publishedAt, ctx.clock.now(), spreadOf(job.id));
  await (next ? rescheduleJob(deps, job, next) : completeJob(deps, job));
}

/** Best effort: a failed lookup is tried again at the next refresh. */
async function fillInPermalink(deps: PublishDeps, target: JobTarget, post: PostRow): Promise<void> {
  const { ctx } = deps;
  try {
    const permalink = await target.platform.lookUpPermalink(target.account, publishedRef(post));
    if (permalink) await savePermalinkIfMissing(ctx.db, post.id, permalink, ctx.clock.now());
  } catch (err) {
    ctx.logger.info({ postId: post.id, err }, 'the permalink of a published post could not be read; trying again at the next refresh');
  }
}
