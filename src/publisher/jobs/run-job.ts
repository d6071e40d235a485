import type { JobRow, ProviderRow, ThreadJobKind } from '../../db/schema/index.js';
import { LeaseLostError } from '../../networks/platform.js';
import { jobQueue } from '../../repos/jobs.js';
import { runDue } from '../claim.js';
import type { PublishDeps } from '../deps.js';
import { failOrRetryJob } from './outcome.js';
import { runAnalytics } from './run-analytics.js';
import { runFollowers } from './run-followers.js';
import { runPlug } from './run-plug.js';
import { runRepost } from './run-repost.js';
import { type JobTarget, loadJobTarget, loadProviderTarget } from './target.js';

type JobRunner = (deps: PublishDeps, job: JobRow, target: JobTarget) => Promise<void>;

const THREAD_RUNNERS: Record<ThreadJobKind, JobRunner> = { REPOST: runRepost, PLUG: runPlug, ANALYTICS: runAnalytics };

/** Claims a batch of due follow-up jobs and runs them one by one; returns how many were claimed. */
export function runDueJobs(deps: PublishDeps, limit: number): Promise<number> {
  return runDue(deps, jobQueue, limit, (job) => runClaimedJob(deps, job), { what: 'follow-up job', ids: (job) => ({ jobId: job.id }) });
}

async function runClaimedJob(deps: PublishDeps, job: JobRow): Promise<void> {
  let provider: ProviderRow | null = null;
  try {
    await runJob(deps, job, (read) => {
      provider = read;
    });
  } catch (err) {
    // Another worker holds the job now and finishes it; this one must not record an outcome.
    if (err instanceof LeaseLostError) deps.ctx.logger.info({ jobId: job.id }, err.message);
    else await failOrRetryJob(deps, job, err, provider);
  }
}

/** Loads what the job works on, reports its provider row (read before any network call), runs it. */
async function runJob(deps: PublishDeps, job: JobRow, onProvider: (provider: ProviderRow) => void): Promise<void> {
  if (job.kind === 'FOLLOWERS') {
    const target = await loadProviderTarget(deps, job.provider_id!);
    onProvider(target.provider);
    return runFollowers(deps, job, target);
  }
  const target: JobTarget | null = await loadJobTarget(deps, job);
  if (!target) return;
  onProvider(target.provider);
  return THREAD_RUNNERS[job.kind](deps, job, target);
}
