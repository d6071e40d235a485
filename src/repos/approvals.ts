import { sql } from 'kysely';
import type { ApprovalState } from '../db/schema/index.js';
import type { DbOrTrx } from './types.js';
import { changeWithEvent } from './webhook-outbox.js';

/** The `data` of an approval event: the thread and its approval as Get Thread shows it. */
const eventData = sql`jsonb_build_object('threadId', t.id, 'scheduledAt', t.scheduled_at, 'approval',
  jsonb_build_object('state', t.approval_state, 'by', t.approval_by, 'at', t.approval_at, 'note', t.approval_note))`;

/**
 * Records an editor's (or a reviewer's) decision on a PENDING thread, with its event
 * (thread.approved / thread.rejected) in the same statement. False when the thread was not
 * pending (nothing changed).
 */
export async function decideThread(
  trx: DbOrTrx,
  threadId: string,
  decision: { state: Exclude<ApprovalState, 'PENDING'>; by: string; note: string | null },
  now: Date,
): Promise<boolean> {
  const changed = sql`
    UPDATE threads AS t SET approval_state = ${decision.state}, approval_by = ${decision.by}, approval_at = ${now},
      approval_note = ${decision.note}, version = t.version + 1, updated_at = ${now}
    WHERE t.id = ${threadId} AND t.approval_state = 'PENDING'
    RETURNING t.account_id, t.team_id, ${eventData} AS data`;
  return (await changeWithEvent(trx, decision.state === 'APPROVED' ? 'thread.approved' : 'thread.rejected', changed, now)) > 0;
}

/** The thread.approval_requested event of a thread that waits for approval now (none otherwise). */
export async function announceApprovalRequested(db: DbOrTrx, threadIds: string[], now: Date): Promise<void> {
  for (const id of threadIds) {
    await changeWithEvent(
      db,
      'thread.approval_requested',
      sql`SELECT t.account_id, t.team_id, ${eventData} AS data FROM threads AS t WHERE t.id = ${id} AND t.approval_state = 'PENDING'`,
      now,
    );
  }
}
