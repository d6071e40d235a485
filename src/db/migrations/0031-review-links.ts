import { type Kysely, sql } from 'kysely';

// Frozen. Review links (decisions.md "Teams"): a client without an account reviews a team's
// threads in a range through a link. The link's token is never stored: only its SHA-256 (hex),
// looked up by the unique index, so a copy of the database opens no link. `provider_ids` null
// means every account of the team. A revoked link is deleted; an expired one stays listed
// (its creator sees it expired) and opens nothing.
const UP = `
    CREATE TABLE review_links (
      id text PRIMARY KEY,
      team_id text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      range_from timestamptz NOT NULL,
      range_to timestamptz NOT NULL,
      provider_ids jsonb,
      can_approve boolean NOT NULL,
      expires_at timestamptz NOT NULL,
      created_by text REFERENCES accounts (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL,
      CHECK (range_from < range_to)
    );
    CREATE INDEX review_links_team_idx ON review_links (team_id, created_at)
`;

const DOWN = `
    DROP TABLE review_links
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
