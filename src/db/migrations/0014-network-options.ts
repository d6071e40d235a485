import { type Kysely, sql } from 'kysely';

// Frozen. The network options of decisions.md "Network options": who may reply and whether
// quotes are allowed belong to the thread; a quote, a poll, languages and a content warning to
// a post. Their defaults are the stored defaults, so existing rows read as before.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE threads
    ADD COLUMN reply_control text NOT NULL DEFAULT 'everyone'
      CHECK (reply_control IN ('everyone', 'following', 'followers', 'mentioned', 'nobody')),
    ADD COLUMN quotes_disabled boolean NOT NULL DEFAULT false`.execute(db);
  await sql`ALTER TABLE posts
    ADD COLUMN quote text,
    ADD COLUMN poll jsonb,
    ADD COLUMN langs jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN content_warning text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE posts DROP COLUMN quote, DROP COLUMN poll, DROP COLUMN langs, DROP COLUMN content_warning`.execute(db);
  await sql`ALTER TABLE threads DROP COLUMN reply_control, DROP COLUMN quotes_disabled`.execute(db);
}
