import { type Kysely, sql } from 'kysely';

// Frozen. Time slots: a provider's weekly posting times, each a local time in its own zone.
// The index serves the queue's question "which instants of this provider are taken?".
const UP = `
    CREATE TABLE time_slots (
      id text PRIMARY KEY,
      provider_id text NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
      day_of_week integer NOT NULL CHECK (day_of_week BETWEEN 1 AND 7),
      "time" text NOT NULL CHECK ("time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      timezone text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT time_slots_provider_day_time_zone_key UNIQUE (provider_id, day_of_week, "time", timezone)
    );
    CREATE INDEX threads_provider_schedule_idx ON threads (provider_id, scheduled_at) WHERE scheduled_at IS NOT NULL
`;

const DOWN = `
    DROP INDEX threads_provider_schedule_idx;
    DROP TABLE time_slots
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
