import { type Kysely, sql } from 'kysely';

// Frozen. Webhooks (decisions.md "Events: webhooks"): the endpoints of a workspace, the outbox
// of events (written in the transaction of the change each reports), one delivery per endpoint
// and event (a job with a lease, like a follow-up reply) and one row per attempt, for the
// deliveries list. Numbered 0009 because 0007 and 0008 are applied on users' databases already.
const UP = `
    CREATE TABLE webhooks (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      team_id text REFERENCES teams (id) ON DELETE CASCADE,
      url text NOT NULL,
      events text[] NOT NULL,
      secret_enc text NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX webhooks_workspace_idx ON webhooks (team_id, account_id);
    CREATE TABLE webhook_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      account_id text NOT NULL,
      team_id text,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE TABLE webhook_deliveries (
      webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      event_id text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('PENDING', 'SENDING', 'DELIVERED', 'FAILED')),
      attempts integer NOT NULL DEFAULT 0,
      run_at timestamptz NOT NULL,
      locked_by text,
      locked_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (webhook_id, event_id)
    );
    CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (run_at) WHERE status IN ('PENDING', 'SENDING');
    CREATE TABLE webhook_attempts (
      id text PRIMARY KEY,
      webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      event_id text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
      attempt integer NOT NULL,
      status text NOT NULL CHECK (status IN ('DELIVERED', 'FAILED')),
      response_status integer,
      error text,
      at timestamptz NOT NULL
    );
    CREATE INDEX webhook_attempts_webhook_idx ON webhook_attempts (webhook_id, at DESC, id DESC)
`;

const DOWN = `
    DROP TABLE webhook_attempts;
    DROP TABLE webhook_deliveries;
    DROP TABLE webhook_events;
    DROP TABLE webhooks
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
