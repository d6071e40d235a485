import { type Kysely, sql } from 'kysely';

// Frozen. Follower counts: one row per provider and UTC day. The daily fetch is a job of the
// jobs table, generalised here: a job belongs to a thread (REPOST, PLUG, ANALYTICS) or to a
// provider (FOLLOWERS), never both, so one claim, lease, heartbeat and hand-back serve all.
const UP = `
    ALTER TABLE jobs ALTER COLUMN thread_id DROP NOT NULL;
    ALTER TABLE jobs ADD COLUMN provider_id text REFERENCES providers (id) ON DELETE CASCADE;
    ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
    ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check CHECK (kind IN ('REPOST', 'PLUG', 'ANALYTICS', 'FOLLOWERS'));
    ALTER TABLE jobs ADD CONSTRAINT jobs_subject_check CHECK (
      CASE WHEN kind = 'FOLLOWERS' THEN provider_id IS NOT NULL AND thread_id IS NULL
           ELSE thread_id IS NOT NULL AND provider_id IS NULL END);
    ALTER TABLE jobs ADD CONSTRAINT jobs_provider_kind_key UNIQUE (provider_id, kind);
    CREATE TABLE follower_counts (
      provider_id text NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
      day date NOT NULL,
      count integer NOT NULL CHECK (count >= 0),
      fetched_at timestamptz NOT NULL,
      PRIMARY KEY (provider_id, day)
    )
`;

const DOWN = `
    DROP TABLE follower_counts;
    DELETE FROM jobs WHERE kind = 'FOLLOWERS';
    ALTER TABLE jobs DROP CONSTRAINT jobs_provider_kind_key;
    ALTER TABLE jobs DROP CONSTRAINT jobs_subject_check;
    ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
    ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check CHECK (kind IN ('REPOST', 'PLUG', 'ANALYTICS'));
    ALTER TABLE jobs DROP COLUMN provider_id;
    ALTER TABLE jobs ALTER COLUMN thread_id SET NOT NULL
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
