import type { Updateable } from 'kysely';
import type { JobRow, JobsTable, ProviderRow } from '../../db/schema/index.js';
import type { PublishError } from '../../networks/platform.js';
import { jobQueue } from '../../repos/jobs.js';
import { markProviderExpired } from '../../repos/providers.js';
import type { PublishDeps } from '../deps.js';
import { asPublishError, lastError } from '../failures.js';
import { jobBackoffMs, MAX_JOB_ATTEMPTS, nextFollowersRun } from './schedule.js';

/**
 * How a run ends. Every change releases the lease and is guarded by it: a worker that lost its
 * lease (it stalled, another one took the job over) changes nothing.
 */
async function releaseJob(deps: PublishDeps, job: JobRow, changes: Updateable<JobsTable>): Promise<void> {
  await jobQueue.release(deps.ctx.db, job, deps.workerId, changes, deps.ctx.clock.now());
}

/** The job did what it was for (or its schedule is over). */
export function completeJob(deps: PublishDeps, job: JobRow): Promise<void> {
  return releaseJob(deps, job, { status: 'DONE', last_error: null });
}

/** A successful run of a recurring job: due again at `runAt`, with a fresh failure count. */
export function rescheduleJob(deps: PublishDeps, job: JobRow, runAt: Date): Promise<void> {
  return releaseJob(deps, job, { status: 'PENDING', run_at: runAt, attempts: 0, last_error: null });
}

export function failJob(deps: PublishDeps, job: JobRow, error: PublishError): Promise<void> {
  return releaseJob(deps, job, { status: 'FAILED', last_error: lastError(error) });
}

/**
 * A run that threw: transient errors come back after a backoff until MAX_JOB_ATTEMPTS, permanent
 * ones stop the job, and an auth error also marks the provider EXPIRED, as publishing does. The
 * daily FOLLOWERS job, out of transient attempts, skips to the next day instead of failing.
 * Anything not a PublishError (a database fault, a bug) counts as transient. `provider` is the
 * row as read before the run's network calls (null when the run failed before reading it).
 */
export async function failOrRetryJob(deps: PublishDeps, job: JobRow, err: unknown, provider: ProviderRow | null): Promise<void> {
  const { ctx } = deps;
  const error = asPublishError(err);
  ctx.logger.warn(
    { jobId: job.id, threadId: job.thread_id, providerId: job.provider_id, job: job.kind, kind: error.kind, code: error.code, attempts: job.attempts },
    `follow-up job failed: ${error.message}`,
  );
  if (error.kind === 'transient' && job.attempts < MAX_JOB_ATTEMPTS) {
    const runAt = new Date(ctx.clock.now().getTime() + jobBackoffMs(job.attempts, error.options.retryAfterMs));
    return releaseJob(deps, job, { status: 'PENDING', run_at: runAt, last_error: lastError(error) });
  }
  if (error.kind === 'transient' && job.kind === 'FOLLOWERS') {
    // A daily job does not give up for good: that day's count is skipped, the next day tries again.
    const runAt = nextFollowersRun(ctx.clock.now(), job.id);
    return releaseJob(deps, job, { status: 'PENDING', run_at: runAt, attempts: 0, last_error: lastError(error) });
  }
  if (error.kind === 'auth' && provider) await markProviderExpired(ctx.db, provider.id, provider.access_token_enc, ctx.clock.now());
  return failJob(deps, job, error);
}
