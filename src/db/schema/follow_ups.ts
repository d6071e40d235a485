import type { ColumnType, Generated, Selectable } from 'kysely';

type FollowUpStatus = 'PENDING' | 'PUBLISHING' | 'PUBLISHED' | 'FAILED';

/** One image of a follow-up, as given (the thread's network's content rules apply). */
interface FollowUpMedia {
  url: string;
  altText: string | null;
}

/**
 * A reply published `delay_minutes` after the thread's last post, as a reply to it. The row is
 * its own job: claimed with a lease like a thread, its network state saved as it becomes known.
 */
export interface FollowUpsTable {
  /** UUIDv7. The reply is published under this id (Bluesky derives its record key from it). */
  id: string;
  thread_id: string;
  text: string;
  media: ColumnType<FollowUpMedia[], string, string>;
  delay_minutes: number;
  status: FollowUpStatus;
  /** The thread's last post's publishedAt plus the delay; null until that post is published. */
  due_at: Date | null;
  /** When it is next claimable: `due_at`, then later after a transient failure. */
  run_at: Date | null;
  /** Claims since it was created: drives backoff and the give-up limit. */
  attempts: Generated<number>;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  // Network state of the reply, saved as it becomes known so a retry resumes it.
  network_container_id: string | null;
  /** When network_container_id was saved (migration 0014); null with it, and for containers saved before. */
  network_container_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  network_post_id: string | null;
  network_cid: string | null;
  permalink: string | null;
  published_at: Date | null;
  error_code: string | null;
  error_message: string | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: Date;
}
export type FollowUpRow = Selectable<FollowUpsTable>;
