import { type Kysely, sql } from 'kysely';

// Frozen. Email notifications (decisions.md "Attention", docs/decisions.md "Email notifications
// (implementation)"): each user's choices per kind, and the email outbox, a leased queue. A row
// is one email to one user about one event (`event_id`: never two for one event and user) or one
// daily digest (`digest_day`: once per user and local day); a `DAILY` row is an event waiting
// for the user's digest (`digest_id` set when a digest took it); a `SKIPPED` digest had nothing to say.
const UP = `
    CREATE TABLE email_preferences (
      account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
      thread_failed text NOT NULL CHECK (thread_failed IN ('immediate', 'daily', 'off')),
      follow_up_failed text NOT NULL CHECK (follow_up_failed IN ('immediate', 'daily', 'off')),
      provider_expired text NOT NULL CHECK (provider_expired IN ('immediate', 'daily', 'off')),
      provider_revoked text NOT NULL CHECK (provider_revoked IN ('immediate', 'daily', 'off')),
      digest boolean NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE TABLE email_notifications (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('THREAD_FAILED', 'FOLLOW_UP_FAILED', 'PROVIDER_EXPIRED', 'PROVIDER_REVOKED', 'DIGEST')),
      event_id text,
      digest_day date,
      digest_id text,
      data jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED', 'DAILY', 'SKIPPED')),
      attempts integer NOT NULL DEFAULT 0,
      run_at timestamptz NOT NULL,
      locked_by text,
      locked_until timestamptz,
      last_error text,
      sent_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT email_notifications_event_key UNIQUE (event_id, account_id),
      CONSTRAINT email_notifications_digest_key UNIQUE (account_id, digest_day)
    );
    CREATE INDEX email_notifications_due_idx ON email_notifications (run_at) WHERE status IN ('PENDING', 'SENDING');
    CREATE INDEX email_notifications_daily_idx ON email_notifications (account_id, created_at) WHERE status = 'DAILY' AND digest_id IS NULL
`;

const DOWN = `
    DROP TABLE email_notifications;
    DROP TABLE email_preferences
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
