import { type Kysely, sql } from 'kysely';

// Frozen. Mastodon, the third network (decisions.md "Mastodon"): a provider kind; the server's
// limits read from /api/v2/instance, kept on the provider; the app Skein registers once per
// server (its secret encrypted); an OAuth state's server and PKCE verifier.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE providers DROP CONSTRAINT providers_kind_check`.execute(db);
  await sql`ALTER TABLE providers ADD CONSTRAINT providers_kind_check CHECK (kind IN ('THREADS', 'BLUESKY', 'MASTODON'))`.execute(db);
  await sql`ALTER TABLE providers ADD COLUMN network_limits jsonb, ADD COLUMN limits_read_at timestamptz`.execute(db);
  await sql`ALTER TABLE oauth_states ADD COLUMN instance text, ADD COLUMN code_verifier_enc text`.execute(db);
  await sql`
    CREATE TABLE mastodon_apps (
      instance text PRIMARY KEY,
      client_id text NOT NULL,
      client_secret_enc text NOT NULL,
      redirect_uri text NOT NULL,
      scopes text NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE mastodon_apps`.execute(db);
  await sql`ALTER TABLE oauth_states DROP COLUMN instance, DROP COLUMN code_verifier_enc`.execute(db);
  await sql`ALTER TABLE providers DROP COLUMN network_limits, DROP COLUMN limits_read_at`.execute(db);
  await sql`DELETE FROM providers WHERE kind = 'MASTODON'`.execute(db);
  await sql`ALTER TABLE providers DROP CONSTRAINT providers_kind_check`.execute(db);
  await sql`ALTER TABLE providers ADD CONSTRAINT providers_kind_check CHECK (kind IN ('THREADS', 'BLUESKY'))`.execute(db);
}
