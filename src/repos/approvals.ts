import { sql } from 'kysely';
import type { ApprovalState } from '../db/schema/index.js';
import { ROLES, roleAtLeast } from '../lib/roles.js';
import { emailOutbox, teamMembers } from './email.js';
import type { DbOrTrx } from './types.js';
import { changeWithEventRows } from './webhook-outbox.js';

/** The `data` of an approval event: the thread and its approval as Get Thread shows it. */
const eventData = sql`jsonb_build_object('threadId', t.id, 'scheduledAt', t.scheduled_at, 'approval',
  jsonb_build_object('state', t.approval_state, 'by', t.approval_by, 'at', t.approval_at, 'note', t.approval_note))`;

/** Who decides approvals: the editors, admins and owners of the thread's team (decisions.md "Teams"). */
const APPROVERS = ROLES.filter((role) => roleAtLeast(role, 'editor'));

/** The email of the member who asked (src.asked_by), for the emails that name them. */
const withAsker = sql`src.data || jsonb_build_object('askedBy', (SELECT x.email FROM accounts AS x WHERE x.id = src.asked_by))`;

/**
 * Records an editor's (or a reviewer's) decision on a PENDING thread, with its event
 * (thread.approved / thread.rejected) in the same statement, and its email (THREAD_APPROVED /
 * THREAD_REJECTED) to the member who asked, still in the team, unless they decided it
 * themselves. False when the thread was not pending (nothing changed).
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
    RETURNING t.account_id, t.team_id, t.approval_asked_by AS asked_by, ${eventData} AS data`;
  const approved = decision.state === 'APPROVED';
  const rows = await changeWithEventRows(trx, approved ? 'thread.approved' : 'thread.rejected', changed, now, (_src, eventId) => [
    emailOutbox('em_decided', approved ? 'THREAD_APPROVED' : 'THREAD_REJECTED', 'src', eventId, now, {
      to: (src) => sql`a.id = ${sql.ref(`${src}.asked_by`)} AND ${teamMembers(src)} AND a.email <> ${decision.by}::text`,
    }),
  ]);
  return rows.length > 0;
}

/**
 * The thread.approval_requested event of each thread that waits for approval now (none
 * otherwise), and the APPROVAL_REQUESTED email to the team's approvers. The email is keyed by the
 * thread and its approval round, not the event: a waiting thread changed again fires the event
 * again but emails no one twice for the same request (decisions.md "Teams"), whoever wrote it.
 */
export async function announceApprovalRequested(db: DbOrTrx, threadIds: string[], now: Date): Promise<void> {
  for (const id of threadIds) {
    await changeWithEventRows(
      db,
      'thread.approval_requested',
      sql`SELECT t.account_id, t.team_id, t.id AS thread_id, t.approval_round AS round, t.approval_asked_by AS asked_by, ${eventData} AS data
          FROM threads AS t WHERE t.id = ${id} AND t.approval_state = 'PENDING'`,
      now,
      (_src, eventId) => [
        emailOutbox('em_asked', 'APPROVAL_REQUESTED', 'src', eventId, now, {
          to: (src) => sql`${teamMembers(src, APPROVERS)} AND a.id IS DISTINCT FROM ${sql.ref(`${src}.asked_by`)}`,
          key: sql<string>`'thread.approval_requested.' || src.thread_id || '.' || src.round::text`,
          data: withAsker,
        }),
      ],
    );
  }
}
