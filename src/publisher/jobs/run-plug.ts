import type { JobRow } from '../../db/schema/index.js';
import { type PostToPublish, PublishError } from '../../networks/platform.js';
import { saveAnalytics } from '../../networks/post-analytics.js';
import { jobQueue, saveJobPublished } from '../../repos/jobs.js';
import type { PublishDeps } from '../deps.js';
import { fencedProgress, queueProgressStore } from '../lease.js';
import { completeJob, failJob, rescheduleJob } from './outcome.js';
import { nextPlugCheck, PLUG_GIVE_UP_AFTER_MS } from './schedule.js';
import { type JobTarget, publishedRef } from './target.js';

/**
 * The auto-plug: once the first post has `auto_plug_min_likes` likes, `auto_plug_text` is
 * published once as a reply to the last post. Until then the likes are checked on the schedule
 * of nextPlugCheck; after PLUG_GIVE_UP_AFTER_MS the job gives up (FAILED, MIN_LIKES_NOT_REACHED).
 *
 * Exactly once: the reply is published under the job's own UUIDv7 id (Bluesky derives its
 * record key from it) and every step's network state is saved on the job row through
 * onProgress, fenced by the job's lease, so a retry after a crash or a lost response finishes
 * that same reply and a worker that lost the job cannot post a second one.
 */
export async function runPlug(deps: PublishDeps, job: JobRow, target: JobTarget): Promise<void> {
  const { thread, posts } = target;
  if (thread.auto_plug_text === null || thread.auto_plug_min_likes === null) return completeJob(deps, job);
  if (!plugStarted(job)) {
    const likes = await firstPostLikes(deps, target);
    if (likes < thread.auto_plug_min_likes) return waitForLikes(deps, job, target, likes);
  }
  const { ctx } = deps;
  const replyTo = { root: publishedRef(posts[0]), parent: publishedRef(posts.at(-1)) };
  const saved = { containerId: job.network_container_id, networkPostId: job.network_post_id, cid: job.network_cid };
  const fenced = fencedProgress(queueProgressStore(deps, jobQueue, job, job.id), saved);
  await fenced.confirmLease();
  const published = await target.platform.publishPost({
    account: target.account,
    post: plugPost(job.id, thread.auto_plug_text, job.created_at),
    replyTo,
    progress: saved,
    ...fenced,
  });
  await saveJobPublished(ctx.db, job.id, published, ctx.clock.now());
  await completeJob(deps, job);
}

/** Once any network state is saved the decision to post was made: finish it, whatever the likes say now. */
function plugStarted(job: JobRow): boolean {
  return job.network_container_id !== null || job.network_post_id !== null;
}

/** Likes of the first post; the counts fetched are kept as that post's analytics too. */
async function firstPostLikes(deps: PublishDeps, target: JobTarget): Promise<number> {
  const first = target.posts[0]!;
  const counts = await target.platform.fetchAnalytics(target.account, publishedRef(first));
  const stored = await saveAnalytics(deps.ctx, first.id, counts);
  return stored.likes ?? 0;
}

async function waitForLikes(deps: PublishDeps, job: JobRow, target: JobTarget, likes: number): Promise<void> {
  const firstPublishedAt = target.posts[0]!.published_at ?? target.thread.published_at ?? job.created_at;
  const next = nextPlugCheck(firstPublishedAt, deps.ctx.clock.now());
  if (next) return rescheduleJob(deps, job, next);
  const days = PLUG_GIVE_UP_AFTER_MS / 86_400_000;
  const minLikes = target.thread.auto_plug_min_likes;
  return failJob(
    deps,
    job,
    new PublishError('permanent', 'MIN_LIKES_NOT_REACHED', `The first post had ${likes} of ${minLikes} likes after ${days} days; the plug was not posted.`),
  );
}

function plugPost(id: string, text: string, writtenAt: Date): PostToPublish {
  return { id, text, topic: null, media: [], spoilerRanges: [], isSpoilerMedia: false, writtenAt };
}
