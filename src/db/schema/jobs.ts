import type { ColumnType, Generated, Selectable } from 'kysely';

/** Thread jobs: REPOST, PLUG, ANALYTICS (`thread_id` set). Provider jobs: FOLLOWERS (`provider_id` set). */
export type JobKind = 'REPOST' | 'PLUG' | 'ANALYTICS' | 'FOLLOWERS';
export type ThreadJobKind = Exclude<JobKind, 'FOLLOWERS'>;
type JobStatus = 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED';

/**
 * Work a worker claims with a lease: follow-up work on a published thread (at most one job of
 * each kind per thread), or a provider's recurring work (at most one of each kind per provider).
 */
export interface JobsTable {
  /** UUIDv7. The plug reply is published under this id (Bluesky derives its record key from it). */
  id: string;
  kind: JobKind;
  /** Set for thread jobs, null for provider jobs. */
  thread_id: string | null;
  /** Set for provider jobs, null for thread jobs. */
  provider_id: string | null;
  status: JobStatus;
  /** When the job is next due (PENDING), or was due when it was claimed (RUNNING). */
  run_at: Date;
  /** Claims since the last successful run: drives backoff and the give-up limit. */
  attempts: Generated<number>;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  // Network state of the plug reply, saved as it becomes known so a retry resumes it.
  network_container_id: string | null;
  /** When network_container_id was saved (migration 0014); null with it, and for containers saved before. */
  network_container_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  network_post_id: string | null;
  network_cid: string | null;
  permalink: string | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: Date;
}
export type JobRow = Selectable<JobsTable>;
