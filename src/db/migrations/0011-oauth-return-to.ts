import { type Kysely, sql } from 'kysely';

// Frozen. Where Meta's redirect back ends: null answers JSON (the API flow), 'web' sends the
// browser to the web app's accounts page (a connect the web app started).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE oauth_states ADD COLUMN return_to text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE oauth_states DROP COLUMN return_to`.execute(db);
}
