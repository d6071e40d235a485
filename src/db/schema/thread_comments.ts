import type { ColumnType } from 'kysely';

/** A team's note on a thread or one of its posts (migration 0028): never published. */
export interface ThreadCommentsTable {
  id: string;
  thread_id: string;
  post_id: string | null;
  /** The member who wrote it; null for a review link's reviewer (or a member since deleted). */
  author_account_id: string | null;
  /** The member's email, or the name a reviewer gave. */
  author_name: string;
  text: string;
  created_at: ColumnType<Date, Date | string, never>;
}
