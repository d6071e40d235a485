import type { QueueTable } from './leased-queue.js';

/**
 * The queue tables. A new kind of claimable work is a new description here (its table needs
 * `status`, `locked_by`, `locked_until`, `attempts`, `updated_at` and a due column, plus a
 * partial index on the due column over its waiting and held statuses), then a `leasedQueue`
 * of it in its repo module and a place in the publisher's round (publisher/claim.ts QUEUES).
 */

/** A thread is the job of publishing its posts; each post's network state is saved on the post row. */
export const THREADS: QueueTable<'threads', 'id'> = {
  table: 'threads',
  kind: 'thread',
  key: ['id'],
  waiting: 'READY',
  held: 'PUBLISHING',
  dueAt: 'scheduled_at',
  notBefore: 'next_attempt_at',
  // A thread waiting for approval, or rejected, is never published (decisions.md "Teams").
  gate: { column: 'approval_state', open: 'APPROVED' },
  takenOverAtLeaseEnd: false,
  handBackDueNow: false,
  version: 'version',
  containers: { table: 'posts', parent: 'thread_id' },
};

/** Follow-up jobs (repost, plug, analytics, followers); the plug's reply keeps its network state on the job row. */
export const JOBS: QueueTable<'jobs', 'id'> = {
  table: 'jobs',
  kind: 'job',
  key: ['id'],
  waiting: 'PENDING',
  held: 'RUNNING',
  dueAt: 'run_at',
  takenOverAtLeaseEnd: false,
  handBackDueNow: false,
  containers: { table: 'jobs', parent: null },
};

/** Follow-up replies: the row is its own job and keeps the reply's network state. */
export const FOLLOW_UPS: QueueTable<'follow_ups', 'id'> = {
  table: 'follow_ups',
  kind: 'follow_up',
  key: ['id'],
  waiting: 'PENDING',
  held: 'PUBLISHING',
  dueAt: 'run_at',
  takenOverAtLeaseEnd: false,
  handBackDueNow: false,
  containers: { table: 'follow_ups', parent: null },
};

/** One email to one user (an event's, or a digest). */
export const EMAILS: QueueTable<'email_notifications', 'id'> = {
  table: 'email_notifications',
  kind: 'email',
  key: ['id'],
  waiting: 'PENDING',
  held: 'SENDING',
  dueAt: 'run_at',
  takenOverAtLeaseEnd: true,
  handBackDueNow: true,
  containers: null,
};

/** One event to one endpoint. */
export const WEBHOOK_DELIVERIES: QueueTable<'webhook_deliveries', 'webhook_id' | 'event_id'> = {
  table: 'webhook_deliveries',
  kind: 'webhook_delivery',
  key: ['webhook_id', 'event_id'],
  waiting: 'PENDING',
  held: 'SENDING',
  dueAt: 'run_at',
  takenOverAtLeaseEnd: true,
  handBackDueNow: true,
  containers: null,
};
