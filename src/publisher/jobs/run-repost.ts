import type { JobRow } from '../../db/schema/index.js';
import { jobQueue } from '../../repos/jobs.js';
import { renewLease } from '../claim.js';
import type { PublishDeps } from '../deps.js';
import { completeJob } from './outcome.js';
import { type JobTarget, publishedRef } from './target.js';

/**
 * Reposts the thread's first post. Both platforms make a repost idempotent (Bluesky: a record
 * key derived from the post; Threads: the account's recent posts are checked for the repost
 * first), so a run repeated after a crash or a lost answer leaves one repost, not two.
 */
export async function runRepost(deps: PublishDeps, job: JobRow, target: JobTarget): Promise<void> {
  const first = publishedRef(target.posts[0]);
  if (!(await renewLease(deps, jobQueue, job))) return;
  await target.platform.repost(target.account, first);
  await completeJob(deps, job);
}
