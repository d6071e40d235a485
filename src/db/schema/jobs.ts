import type { ColumnType, Generated, Selectable } from 'kysely';

export type JobKind = 'REPOST' | 'PLUG' | 'ANALYTICS';
export type JobStatus = 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED';

/** Follow-up work on a published thread; at most one job of each kind per thread. */
export interface JobsTable {
  /** UUIDv7. The plug reply is published under this id (Bluesky derives its record key from it). */
  id: string;
  kind: JobKind;
  thread_id: string;
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
  network_post_id: string | null;
  network_cid: string | null;
  permalink: string | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: Date;
}
export type JobRow = Selectable<JobsTable>;
