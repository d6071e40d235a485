import { type Kysely, sql } from 'kysely';

// Frozen. Analytics of a range (an account's, and the workspace summary) found its posts through
// the threads published since the range's start: a range a year back read a year of threads (the
// scale bench's 90 days ending a month ago read 120 days' worth on the large database). A post of
// the range is in a thread completed after it; nearly every thread completes within seconds of
// its first post, so the read can stop a little after the range's end if the few threads that
// completed much later (failed part-way and retried, held for days) are found apart: their first
// post's time is kept (threads.first_published_at, set from now on at every completion) and this
// index holds those completed more than a day after it. Existing threads get the column only
// where they are late: one pass over the published posts' times, an update of those few rows.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE threads ADD COLUMN first_published_at timestamptz`.execute(db);
  await sql`
    UPDATE threads AS t SET first_published_at = f.first_at
      FROM (SELECT thread_id, min(published_at) AS first_at FROM posts
             WHERE status = 'PUBLISHED' AND published_at IS NOT NULL GROUP BY thread_id) AS f
     WHERE t.id = f.thread_id AND t.status = 'PUBLISHED' AND t.published_at - f.first_at > interval '1 day'`.execute(db);
  await sql`
    CREATE INDEX threads_provider_late_idx ON threads (provider_id, published_at)
     WHERE status = 'PUBLISHED' AND published_at - first_published_at > interval '1 day'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX threads_provider_late_idx`.execute(db);
  await sql`ALTER TABLE threads DROP COLUMN first_published_at`.execute(db);
}
