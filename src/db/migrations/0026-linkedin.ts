import { type Kysely, sql } from 'kysely';

// Frozen. LinkedIn's last pieces (decisions.md "LinkedIn"):
// - PROVIDER_EXPIRING, the email that an account's token runs out within its network's notice
//   period and cannot be refreshed, a kind of email_notifications row. It follows the user's
//   choice for PROVIDER_EXPIRED, so email_preferences has no column for it.
// - connect_picks: the accounts a sign-in offered (LinkedIn's member and the pages it
//   administers), kept encrypted with their tokens for a few minutes until the user who
//   connected picks the ones to add. Single-use.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE email_notifications DROP CONSTRAINT email_notifications_kind_check`.execute(db);
  await sql`ALTER TABLE email_notifications ADD CONSTRAINT email_notifications_kind_check
    CHECK (kind IN ('THREAD_FAILED', 'FOLLOW_UP_FAILED', 'PROVIDER_EXPIRED', 'PROVIDER_EXPIRING', 'PROVIDER_REVOKED', 'DIGEST'))`.execute(db);
  await sql`CREATE TABLE connect_picks (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      team_id text REFERENCES teams (id) ON DELETE CASCADE,
      kind text NOT NULL,
      accounts_enc text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE connect_picks`.execute(db);
  await sql`DELETE FROM email_notifications WHERE kind = 'PROVIDER_EXPIRING'`.execute(db);
  await sql`ALTER TABLE email_notifications DROP CONSTRAINT email_notifications_kind_check`.execute(db);
  await sql`ALTER TABLE email_notifications ADD CONSTRAINT email_notifications_kind_check
    CHECK (kind IN ('THREAD_FAILED', 'FOLLOW_UP_FAILED', 'PROVIDER_EXPIRED', 'PROVIDER_REVOKED', 'DIGEST'))`.execute(db);
}
