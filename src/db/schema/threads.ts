import type { ColumnType, Generated, Selectable } from 'kysely';
import type { RepeatUnit } from '../../lib/recurrence.js';
import type { ReplyControl as NetworkReplyControl } from '../../networks/network.js';

export type PublishStatus = 'READY' | 'PUBLISHING' | 'PUBLISHED' | 'FAILED';

/** Who may reply to a thread (decisions.md "Network options"): the networks' list (src/networks/network.ts). */
export type ReplyControl = NetworkReplyControl;

export interface ThreadsTable {
  id: string;
  /** Creator; for a personal-workspace thread also the owner. */
  account_id: string;
  team_id: string | null;
  provider_id: string;
  status: PublishStatus;
  /** Null for a draft. */
  scheduled_at: Date | null;
  auto_repost_delay_hours: number | null;
  /** Snapshot of the workspace's auto-plug at create time, or null. */
  auto_plug_text: string | null;
  auto_plug_min_likes: number | null;
  reply_control: Generated<ReplyControl>;
  /** BLUESKY: a postgate that disables quotes on every post. */
  quotes_disabled: Generated<boolean>;
  /**
   * Get Thread's ETag: raised by every change to the thread, its posts, tags or schedule and by
   * each status change of the publisher; edits with If-Match compare it on the locked row.
   */
  version: Generated<number>;
  // Job columns for the publisher: the thread row is the job.
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  published_at: Date | null;
  /**
   * When the thread's first post went out, set as the thread completes (migration 0036). Threads
   * completed before 0036 have it only where it was more than a day before `published_at`: the
   * late ones, which analytics reads apart (repos/analytics.ts heldThreads).
   */
  first_published_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Recurring threads (migration 0017): the series and this occurrence's number in it (from 1), or null. */
  series_id: ColumnType<string | null, string | null | undefined, string | null>;
  series_occurrence: ColumnType<number | null, number | null | undefined, number | null>;
  /** The repeat rule, on the waiting occurrence only (lib/recurrence.ts, repos/series.ts); null when it does not repeat. */
  repeat_every: ColumnType<number | null, number | null | undefined, number | null>;
  repeat_unit: ColumnType<RepeatUnit | null, RepeatUnit | null | undefined, RepeatUnit | null>;
  /** `YYYY-MM-DD`: no occurrence on a later local date. */
  repeat_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** Occurrences in all, the first included. */
  repeat_count: ColumnType<number | null, number | null | undefined, number | null>;
  repeat_zone: ColumnType<string | null, string | null | undefined, string | null>;
  /** The local date-time (`YYYY-MM-DDThh:mm:ss.sss` in repeat_zone) this occurrence was meant for. */
  repeat_local: ColumnType<string | null, string | null | undefined, string | null>;
  /** The series' day of month. */
  repeat_day: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * Approvals (migration 0028): null when none is asked; PENDING and REJECTED threads are never
   * claimed. `by` is the deciding account's email or a review link's reviewer name.
   */
  approval_state: ColumnType<ApprovalState | null, ApprovalState | null | undefined, ApprovalState | null>;
  approval_by: ColumnType<string | null, string | null | undefined, string | null>;
  approval_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  approval_note: ColumnType<string | null, string | null | undefined, string | null>;
  /** Approval requests so far (migration 0032): one more each time the thread turns PENDING; its emails are keyed by it. */
  approval_round: ColumnType<number, number | undefined, number>;
  /** The member whose change asked for the approval (told of the decision); null when none asked. */
  approval_asked_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: Date;
}

export type ApprovalState = 'PENDING' | 'APPROVED' | 'REJECTED';
export type ThreadRow = Selectable<ThreadsTable>;
