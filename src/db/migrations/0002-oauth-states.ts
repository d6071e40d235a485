import { type Kysely, sql } from 'kysely';

// Frozen. Pending OAuth connects: the `state` sent to Meta names who asked and for which
// workspace, since Meta's redirect back carries no API key.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE oauth_states (
      state text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      team_id text REFERENCES teams (id) ON DELETE CASCADE,
      kind text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE oauth_states`.execute(db);
}
