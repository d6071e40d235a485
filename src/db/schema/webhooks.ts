import type { ColumnType, Selectable } from 'kysely';

export const WEBHOOK_EVENT_TYPES = [
  'post.published',
  'thread.published',
  'thread.failed',
  'follow_up.published',
  'follow_up.failed',
  'provider.expired',
  /** A recurring thread's next occurrence was made (repos/series.ts). */
  'thread.scheduled',
  /** Approvals (decisions.md "Teams"): a writer's thread waits; an editor decided. */
  'thread.approval_requested',
  'thread.approved',
  'thread.rejected',
  /** A member commented on a thread (decisions.md "Teams"). */
  'comment.created',
  'ping',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** An endpoint of a workspace (team_id, or account_id's personal one) and the event types it gets. */
export interface WebhooksTable {
  id: string;
  /** The account that made it; the workspace is team_id, or this account's personal one. */
  account_id: string;
  team_id: string | null;
  url: string;
  events: WebhookEventType[];
  /** The signing secret, AES-256-GCM (lib/crypto.ts): signing needs the plain text back. */
  secret_enc: string;
  created_at: ColumnType<Date, Date | string, never>;
}
export type WebhookRow = Selectable<WebhooksTable>;
