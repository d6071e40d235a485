import { type Kysely, sql } from 'kysely';

// Frozen. Team notices (decisions.md "Teams"; docs/decisions.md "Teams: roles and approvals"):
// - four email kinds: APPROVAL_REQUESTED (to the team's editors, admins and owners),
//   THREAD_REJECTED and THREAD_APPROVED (to the writer who asked), COMMENT_MENTION (to a member
//   a comment names), each with its user's choice in email_preferences. The new columns are
//   filled for the rows there with the defaults (repos/email.ts EMAIL_DEFAULTS), which then keep
//   no default of their own: every save writes every column.
// - threads.approval_round counts the approval requests of a thread (one more each time it turns
//   PENDING), so an approval request's emails are keyed by it and sent once however often the
//   waiting thread is changed; approval_asked_by is the member whose change asked (the writer
//   told of the decision). A thread waiting or decided now counts as its first request, asked by
//   its author.
const KINDS_BEFORE = `'THREAD_FAILED', 'FOLLOW_UP_FAILED', 'PROVIDER_EXPIRED', 'PROVIDER_EXPIRING', 'PROVIDER_REVOKED', 'DIGEST'`;
const NEW_KINDS = `'APPROVAL_REQUESTED', 'THREAD_APPROVED', 'THREAD_REJECTED', 'COMMENT_MENTION'`;
const COLUMNS: Array<[string, 'immediate' | 'off']> = [
  ['approval_requested', 'immediate'],
  ['thread_rejected', 'immediate'],
  ['thread_approved', 'off'],
  ['comment_mention', 'immediate'],
];

async function kindCheck(db: Kysely<any>, kinds: string): Promise<void> {
  await sql`ALTER TABLE email_notifications DROP CONSTRAINT email_notifications_kind_check`.execute(db);
  await sql`ALTER TABLE email_notifications ADD CONSTRAINT email_notifications_kind_check CHECK (kind IN (${sql.raw(kinds)}))`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await kindCheck(db, `${KINDS_BEFORE}, ${NEW_KINDS}`);
  for (const [column, fill] of COLUMNS) {
    await sql`ALTER TABLE email_preferences ADD COLUMN ${sql.raw(column)} text NOT NULL DEFAULT ${sql.lit(fill)}
      CHECK (${sql.raw(column)} IN ('immediate', 'daily', 'off'))`.execute(db);
    await sql`ALTER TABLE email_preferences ALTER COLUMN ${sql.raw(column)} DROP DEFAULT`.execute(db);
  }
  await sql`ALTER TABLE threads ADD COLUMN approval_round integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE threads ADD COLUMN approval_asked_by text REFERENCES accounts (id) ON DELETE SET NULL`.execute(db);
  await sql`UPDATE threads SET approval_round = 1, approval_asked_by = account_id WHERE approval_state IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE threads DROP COLUMN approval_asked_by`.execute(db);
  await sql`ALTER TABLE threads DROP COLUMN approval_round`.execute(db);
  for (const [column] of COLUMNS) await sql`ALTER TABLE email_preferences DROP COLUMN ${sql.raw(column)}`.execute(db);
  await sql`DELETE FROM email_notifications WHERE kind IN (${sql.raw(NEW_KINDS)})`.execute(db);
  await kindCheck(db, KINDS_BEFORE);
}
