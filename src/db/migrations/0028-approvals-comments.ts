import { type Kysely, sql } from 'kysely';

// Frozen. Approvals (decisions.md "Teams"): a thread a writer schedules waits for an editor's
// approval. `approval_state` null means none is asked (an editor's thread, or a personal one).
// The publisher's due index and per-provider claim index leave out the threads that wait or were
// rejected, with the very condition the claim writes (repos/queue/leased-queue.ts isDue, the
// THREADS gate), so a pile of pending threads past their time costs the claim nothing.
// Comments: notes of a team on a thread or one of its posts, never published.
const UP = `
    ALTER TABLE threads ADD COLUMN approval_state text CHECK (approval_state IN ('PENDING', 'APPROVED', 'REJECTED'));
    ALTER TABLE threads ADD COLUMN approval_by text;
    ALTER TABLE threads ADD COLUMN approval_at timestamptz;
    ALTER TABLE threads ADD COLUMN approval_note text;
    DROP INDEX threads_due_idx;
    CREATE INDEX threads_due_idx ON threads (scheduled_at) WHERE status IN ('READY', 'PUBLISHING') AND scheduled_at IS NOT NULL AND (approval_state IS NULL OR approval_state = 'APPROVED');
    DROP INDEX threads_claim_idx;
    CREATE INDEX threads_claim_idx ON threads (provider_id, scheduled_at, id) WHERE status IN ('READY', 'PUBLISHING') AND scheduled_at IS NOT NULL AND (approval_state IS NULL OR approval_state = 'APPROVED');
    CREATE INDEX threads_pending_approval_idx ON threads (team_id, scheduled_at) WHERE approval_state = 'PENDING';
    CREATE TABLE thread_comments (
      id text PRIMARY KEY,
      thread_id text NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      post_id text REFERENCES posts (id) ON DELETE CASCADE,
      author_account_id text REFERENCES accounts (id) ON DELETE SET NULL,
      author_name text NOT NULL,
      text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 5000),
      created_at timestamptz NOT NULL
    );
    CREATE INDEX thread_comments_thread_idx ON thread_comments (thread_id, created_at, id)
`;

const DOWN = `
    DROP TABLE thread_comments;
    DROP INDEX threads_pending_approval_idx;
    DROP INDEX threads_claim_idx;
    CREATE INDEX threads_claim_idx ON threads (provider_id, scheduled_at, id) WHERE status IN ('READY', 'PUBLISHING') AND scheduled_at IS NOT NULL;
    DROP INDEX threads_due_idx;
    CREATE INDEX threads_due_idx ON threads (scheduled_at) WHERE status IN ('READY', 'PUBLISHING') AND scheduled_at IS NOT NULL;
    ALTER TABLE threads DROP COLUMN approval_note;
    ALTER TABLE threads DROP COLUMN approval_at;
    ALTER TABLE threads DROP COLUMN approval_by;
    ALTER TABLE threads DROP COLUMN approval_state
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
