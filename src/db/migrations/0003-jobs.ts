import { type Kysely, sql } from 'kysely';

// Frozen. Follow-up work on a published thread (auto-repost, auto-plug, analytics refresh) as
// rows that a worker claims with a lease, like threads: they survive restarts and crashes.
const UP = `
    CREATE TABLE jobs (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('REPOST', 'PLUG', 'ANALYTICS')),
      thread_id text NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'DONE', 'FAILED')),
      run_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      locked_by text,
      locked_until timestamptz,
      last_error text,
      network_container_id text,
      network_post_id text,
      network_cid text,
      permalink text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT jobs_thread_kind_key UNIQUE (thread_id, kind)
    );
    -- The claim scans only jobs that can still run.
    CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE status IN ('PENDING', 'RUNNING')
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE jobs`.execute(db);
}
