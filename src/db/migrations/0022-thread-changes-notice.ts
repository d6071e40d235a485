import { type Kysely, sql } from 'kysely';

// Frozen. Migration 0021's triggers NOTIFY inside the writing transaction. PostgreSQL takes one
// database-wide lock for a transaction that has NOTIFYed and holds it until its commit is on disk,
// so every writing transaction waited for the previous one's fsync: no group commit (pgbench on a
// 2-core machine: 8,000 commits/s without the NOTIFY, 2,000 with it). Skein's own connections now
// set `skein.thread_changes = notice` at connect: for them the trigger only reports the ids as a
// NOTICE (code SKT01) on the writer's own connection, which the writer's process announces after
// the commit from a connection of its own whose commits do not wait for the disk
// (src/db/pg-notifier.ts). Any other writer (psql, an operator's script) NOTIFYs as before, so it
// is still heard. docs/decisions.md, "Thread view cache".
const functionAnnouncingBy = (announce: string) => `
    CREATE OR REPLACE FUNCTION skein_threads_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      ids text;
    BEGIN
      IF TG_ARGV[0] = '*' THEN
        ids := '*';
      ELSE
        EXECUTE format('SELECT string_agg(DISTINCT (%s)::text, '','') FROM changed', TG_ARGV[0]) INTO ids;
        IF ids IS NULL THEN
          RETURN NULL;
        END IF;
        IF length(ids) > 7000 THEN
          ids := '*';
        END IF;
      END IF;
      ${announce}
      RETURN NULL;
    END
    $fn$`;

const BY_NOTICE_OR_NOTIFY = `IF current_setting('skein.thread_changes', true) = 'notice' THEN
        RAISE NOTICE USING MESSAGE = ids, ERRCODE = 'SKT01';
      ELSE
        PERFORM pg_notify('skein_threads', ids);
      END IF;`;
/** 0021's announcement, for `down`. */
const BY_NOTIFY = `PERFORM pg_notify('skein_threads', ids);`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(functionAnnouncingBy(BY_NOTICE_OR_NOTIFY)).execute(db);
}
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(functionAnnouncingBy(BY_NOTIFY)).execute(db);
}
