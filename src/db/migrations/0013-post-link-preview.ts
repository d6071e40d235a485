import { type Kysely, sql } from 'kysely';

// Frozen. Whether a Bluesky post with a link and no media gets a link card (true unless the
// post says linkPreview: false).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE posts ADD COLUMN link_preview boolean NOT NULL DEFAULT true`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE posts DROP COLUMN link_preview`.execute(db);
}
