import { type Kysely, sql } from 'kysely';

// Frozen. Recurring threads (decisions.md "Recurring threads"): every occurrence is a thread of
// its series (`series_id`, its number in it `series_occurrence`, from 1); the rule travels with
// the waiting occurrence (`repeat_*`, null when the thread does not repeat): the interval, the
// end (`until` a local date, `count` occurrences in all), the zone and the local date-time this
// occurrence was meant for, and the series' day of month (month steps come back to it).
// One occurrence number per series, whatever crashes or retries.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE threads
    ADD COLUMN series_id text,
    ADD COLUMN series_occurrence integer,
    ADD COLUMN repeat_every integer CHECK (repeat_every BETWEEN 1 AND 365),
    ADD COLUMN repeat_unit text CHECK (repeat_unit IN ('day', 'week', 'month')),
    ADD COLUMN repeat_until text,
    ADD COLUMN repeat_count integer CHECK (repeat_count BETWEEN 2 AND 100),
    ADD COLUMN repeat_zone text,
    ADD COLUMN repeat_local text,
    ADD COLUMN repeat_day integer CHECK (repeat_day BETWEEN 1 AND 31),
    ADD CONSTRAINT threads_series_check CHECK ((series_id IS NULL) = (series_occurrence IS NULL)),
    ADD CONSTRAINT threads_repeat_check CHECK (
      (repeat_every IS NULL) = (repeat_unit IS NULL) AND (repeat_every IS NULL) = (repeat_zone IS NULL)
      AND (repeat_every IS NULL) = (repeat_local IS NULL) AND (repeat_every IS NULL) = (repeat_day IS NULL)
      AND (repeat_every IS NULL OR series_id IS NOT NULL))`.execute(db);
  await sql`CREATE UNIQUE INDEX threads_series_idx ON threads (series_id, series_occurrence) WHERE series_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX threads_series_idx`.execute(db);
  await sql`ALTER TABLE threads DROP CONSTRAINT threads_repeat_check, DROP CONSTRAINT threads_series_check,
    DROP COLUMN series_id, DROP COLUMN series_occurrence, DROP COLUMN repeat_every, DROP COLUMN repeat_unit,
    DROP COLUMN repeat_until, DROP COLUMN repeat_count, DROP COLUMN repeat_zone, DROP COLUMN repeat_local, DROP COLUMN repeat_day`.execute(db);
}
