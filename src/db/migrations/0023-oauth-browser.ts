import { type Kysely, sql } from 'kysely';

// Frozen. A connect's state is honoured only in the browser that started it: browser_hash is the
// HMAC of that browser's connect cookie (null: started with an API key, until the callback binds
// the browser that came back). code_enc keeps the network's code (encrypted) while the signed-in
// user confirms a connect an API key started.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE oauth_states ADD COLUMN browser_hash text, ADD COLUMN code_enc text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE oauth_states DROP COLUMN browser_hash, DROP COLUMN code_enc`.execute(db);
}
