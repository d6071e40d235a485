import { type Kysely, sql } from 'kysely';

// Frozen. Uploaded media (decisions.md "Media: uploads, images, video, link cards"): one row per
// stored file of a workspace; the bytes live in the media storage (SKEIN_DATA_DIR/media or an
// S3 bucket) under storage_key. Named media_files because `media` is a post's list of items.
const UP = `
    CREATE TABLE media_files (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      team_id text REFERENCES teams (id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('IMAGE', 'VIDEO')),
      mime_type text NOT NULL,
      ext text NOT NULL,
      bytes integer NOT NULL,
      width integer,
      height integer,
      duration_ms integer,
      sha256 text NOT NULL,
      storage_key text NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX media_files_workspace_idx ON media_files (team_id, account_id, created_at DESC, id DESC)
`;

const DOWN = `
    DROP TABLE media_files
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
