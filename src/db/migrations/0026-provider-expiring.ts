import { type Kysely, sql } from 'kysely';

// Frozen. PROVIDER_EXPIRING (decisions.md "LinkedIn"): the email that an account's token runs out
// within its network's notice period and cannot be refreshed, a kind of email_notifications row.
// It follows the user's choice for PROVIDER_EXPIRED, so email_preferences has no column for it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE email_notifications DROP CONSTRAINT email_notifications_kind_check`.execute(db);
  await sql`ALTER TABLE email_notifications ADD CONSTRAINT email_notifications_kind_check
    CHECK (kind IN ('THREAD_FAILED', 'FOLLOW_UP_FAILED', 'PROVIDER_EXPIRED', 'PROVIDER_EXPIRING', 'PROVIDER_REVOKED', 'DIGEST'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM email_notifications WHERE kind = 'PROVIDER_EXPIRING'`.execute(db);
  await sql`ALTER TABLE email_notifications DROP CONSTRAINT email_notifications_kind_check`.execute(db);
  await sql`ALTER TABLE email_notifications ADD CONSTRAINT email_notifications_kind_check
    CHECK (kind IN ('THREAD_FAILED', 'FOLLOW_UP_FAILED', 'PROVIDER_EXPIRED', 'PROVIDER_REVOKED', 'DIGEST'))`.execute(db);
}
