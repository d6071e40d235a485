import type { ColumnType } from 'kysely';

/** What a user gets for one kind of event: an email at once, a line in the daily digest, or nothing. */
export type EmailDelivery = 'immediate' | 'daily' | 'off';
/** The kinds a user chooses the delivery of (email_preferences' columns). */
export type EmailKind =
  | 'THREAD_FAILED'
  | 'FOLLOW_UP_FAILED'
  | 'PROVIDER_EXPIRED'
  | 'PROVIDER_REVOKED'
  | 'APPROVAL_REQUESTED'
  | 'THREAD_REJECTED'
  | 'THREAD_APPROVED'
  | 'COMMENT_MENTION';
/** The kinds of event emails: each a chosen kind, or one that follows a chosen kind's choice (PROVIDER_EXPIRING: PROVIDER_EXPIRED's). */
export type NotificationKind = EmailKind | 'PROVIDER_EXPIRING';

/** A user's email choices; no row: the defaults (repos/email.ts EMAIL_DEFAULTS). */
export interface EmailPreferencesTable {
  account_id: string;
  thread_failed: EmailDelivery;
  follow_up_failed: EmailDelivery;
  provider_expired: EmailDelivery;
  provider_revoked: EmailDelivery;
  approval_requested: EmailDelivery;
  thread_rejected: EmailDelivery;
  thread_approved: EmailDelivery;
  comment_mention: EmailDelivery;
  digest: boolean;
  updated_at: Date;
}

type EmailStatus = 'PENDING' | 'SENDING' | 'SENT' | 'FAILED' | 'DAILY' | 'SKIPPED';

/** One email to one user (an event's, or a digest), a row of the leased email queue; or, `DAILY`, an event kept for the digest. */
export interface EmailNotificationsTable {
  id: string;
  account_id: string;
  kind: NotificationKind | 'DIGEST';
  event_id: string | null;
  /** A digest's local day in the user's zone (`YYYY-MM-DD`). */
  digest_day: ColumnType<string | null, string | null | undefined, never>;
  digest_id: string | null;
  data: ColumnType<Record<string, unknown>, string, string>;
  status: EmailStatus;
  /** Claims so far: the attempt number of the one in flight. */
  attempts: ColumnType<number, number | undefined, number>;
  run_at: Date;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  sent_at: Date | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: Date;
}
