import { type Kysely, sql } from 'kysely';

// Frozen. The publisher's claim (repos/threads.ts, claimDueThreads) takes each provider's
// earliest due threads and counts each provider's threads in flight. Without these it sorted
// every pending thread by provider on each claim: 50 ms with 10,000 due threads on PostgreSQL,
// many claims a second. `threads_claim_idx` hands each provider's pending threads in schedule
// order; `threads_publishing_idx` holds only the threads being published (a few dozen).
const UP = `
    CREATE INDEX threads_claim_idx ON threads (provider_id, scheduled_at, id) WHERE status IN ('READY', 'PUBLISHING') AND scheduled_at IS NOT NULL;
    CREATE INDEX threads_publishing_idx ON threads (provider_id) WHERE status = 'PUBLISHING'
`;

const DOWN = `
    DROP INDEX threads_publishing_idx;
    DROP INDEX threads_claim_idx
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
