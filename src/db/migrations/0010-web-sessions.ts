import { type Kysely, sql } from 'kysely';

// Frozen. The web app's sign-in: browser sessions and one-time sign-in links. Only a keyed hash
// (HMAC-SHA-256 under SKEIN_SECRET) of each token is stored, as for API keys, so a copy of the
// database signs nobody in. accounts.password_hash exists since 0001 (argon2id from now on).
const UP = `
    CREATE TABLE sessions (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX sessions_account_idx ON sessions (account_id);
    CREATE TABLE sign_in_links (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    );
    CREATE INDEX sign_in_links_account_idx ON sign_in_links (account_id)
`;

const DOWN = `
    DROP TABLE sign_in_links;
    DROP TABLE sessions
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
