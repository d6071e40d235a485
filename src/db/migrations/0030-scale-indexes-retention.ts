import { type Kysely, sql } from 'kysely';

// Frozen. Reads that scanned a workspace's or an account's whole history (issue 43, measured by
// `npm run bench -- --scale`; the plans are in docs/benchmarks.md):
// - attention's failed threads and held threads (a network's daily cap) walked every thread of
//   the workspace, and its failed follow-ups every follow-up: now only the few that qualify;
// - analytics of an account found its posts through all its threads ever: now through its
//   threads published since the range's start (a post is published before its thread is), and
//   those not published (failed part-way, or ahead), which are few.
// - the retention sweep (repos/retention.ts) finds old webhook events, emails and idempotency
//   keys by their time, and deleting an event finds its deliveries and attempts by its id.
const UP = `
    CREATE INDEX threads_failed_idx ON threads (team_id, account_id) WHERE status = 'FAILED';
    CREATE INDEX threads_held_idx ON threads (team_id, account_id) WHERE status IN ('READY', 'PUBLISHING') AND last_error IS NOT NULL;
    CREATE INDEX follow_ups_failed_idx ON follow_ups (thread_id) WHERE status = 'FAILED';
    CREATE INDEX threads_provider_published_idx ON threads (provider_id, published_at) WHERE status = 'PUBLISHED';
    CREATE INDEX threads_provider_unpublished_idx ON threads (provider_id) WHERE status <> 'PUBLISHED';
    CREATE INDEX webhook_events_created_idx ON webhook_events (created_at);
    CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);
    CREATE INDEX webhook_attempts_event_idx ON webhook_attempts (event_id);
    CREATE INDEX email_notifications_created_idx ON email_notifications (created_at);
    CREATE INDEX idempotency_records_created_idx ON idempotency_records (created_at)
`;

const DOWN = `
    DROP INDEX idempotency_records_created_idx;
    DROP INDEX email_notifications_created_idx;
    DROP INDEX webhook_attempts_event_idx;
    DROP INDEX webhook_deliveries_event_idx;
    DROP INDEX webhook_events_created_idx;
    DROP INDEX threads_provider_unpublished_idx;
    DROP INDEX threads_provider_published_idx;
    DROP INDEX follow_ups_failed_idx;
    DROP INDEX threads_held_idx;
    DROP INDEX threads_failed_idx
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
