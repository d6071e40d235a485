import { type Kysely, sql } from 'kysely';

// Frozen. Follow-up replies: a reply published a set time after a thread, as a reply to its last
// post. The row is the job, as a thread row is: a worker claims it with a lease, and each step's
// network state is saved on it as it becomes known, so a retry finishes that same reply.
const UP = `
    CREATE TABLE follow_ups (
      id text PRIMARY KEY,
      thread_id text NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      text text NOT NULL,
      media jsonb NOT NULL DEFAULT '[]'::jsonb,
      delay_minutes integer NOT NULL CHECK (delay_minutes BETWEEN 5 AND 10080),
      status text NOT NULL CHECK (status IN ('PENDING', 'PUBLISHING', 'PUBLISHED', 'FAILED')),
      due_at timestamptz,
      run_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      locked_by text,
      locked_until timestamptz,
      last_error text,
      network_container_id text,
      network_post_id text,
      network_cid text,
      permalink text,
      published_at timestamptz,
      error_code text,
      error_message text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX follow_ups_thread_idx ON follow_ups (thread_id, created_at);
    -- The claim scans only follow-ups that can still run.
    CREATE INDEX follow_ups_due_idx ON follow_ups (run_at) WHERE status IN ('PENDING', 'PUBLISHING')
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE follow_ups`.execute(db);
}
