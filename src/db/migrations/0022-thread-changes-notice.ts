import { type Kysely, sql } from 'kysely';
import { FUNCTION as FUNCTION_0021 } from './0021-thread-changes.js';

// Frozen. Two changes to migration 0021's triggers (docs/decisions.md, "Thread view cache").
//
// 1. No NOTIFY inside a Skein write. PostgreSQL takes one database-wide lock for a transaction
//    that has NOTIFYed and holds it until its commit is on disk, so every writing transaction
//    waited for the previous one's fsync: no group commit (pgbench on a 2-core machine: 8,000
//    commits/s without the NOTIFY, 2,000 with it). Skein's own connections set
//    `skein.thread_changes = notice` at connect: for them the trigger only reports the ids as a
//    NOTICE (SQLSTATE SKT01) on the writer's own connection, and the writer's process announces
//    them after the commit (src/db/pg-notifier.ts). Any other writer (psql, an operator's script)
//    NOTIFYs as before, so it is still heard.
// 2. One function per table with its query written out, instead of one function building the
//    query from the trigger's argument with EXECUTE: a written-out query's plan is kept, an
//    EXECUTEd one is planned at every statement (EXPLAIN ANALYZE of an UPDATE of one thread:
//    0.08 ms in the trigger before, 0.045 ms after, out of 0.15 ms for the whole statement).

/** The announcement of `ids` (a text variable): a NOTICE to a Skein connection, else a NOTIFY. */
const ANNOUNCE = `IF current_setting('skein.thread_changes', true) = 'notice' THEN
        RAISE NOTICE USING MESSAGE = ids, ERRCODE = 'SKT01';
      ELSE
        PERFORM pg_notify('skein_threads', ids);
      END IF;`;

/** Tables whose rows name their thread: the SQL expression, over a row of `changed`, naming it. */
const THREAD_OF: Record<string, string> = {
  threads: 'id',
  posts: 'thread_id',
  thread_tags: 'thread_id',
  // A media or spoiler-range row names its post; a post deleted with it is announced by its own trigger.
  media: '(SELECT p.thread_id FROM posts p WHERE p.id = changed.post_id)',
  spoiler_ranges: '(SELECT p.thread_id FROM posts p WHERE p.id = changed.post_id)',
};

const EVENTS = [
  ['insert', 'INSERT', 'NEW'],
  ['update', 'UPDATE', 'NEW'],
  ['delete', 'DELETE', 'OLD'],
] as const;

function tableFunction(table: string, threadOf: string): string {
  return `
    CREATE FUNCTION skein_changed_in_${table}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      ids text;
    BEGIN
      SELECT string_agg(DISTINCT (${threadOf})::text, ',') INTO ids FROM changed;
      IF ids IS NULL THEN
        RETURN NULL;
      END IF;
      IF length(ids) > 7000 THEN
        ids := '*';
      END IF;
      ${ANNOUNCE}
      RETURN NULL;
    END
    $fn$`;
}

/** For the tables whose change may touch any thread (0021's `*` triggers, which keep their function). */
const ANY_THREAD_FUNCTION = `
    CREATE OR REPLACE FUNCTION skein_threads_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      ids text := '*';
    BEGIN
      ${ANNOUNCE}
      RETURN NULL;
    END
    $fn$`;

const trigger = (table: string, name: string, event: string, rows: string, call: string) =>
  `CREATE TRIGGER ${table}_${name}_changed AFTER ${event} ON ${table} REFERENCING ${rows} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${call}`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, threadOf] of Object.entries(THREAD_OF)) {
    await sql.raw(tableFunction(table, threadOf)).execute(db);
    for (const [name, event, rows] of EVENTS) {
      await sql.raw(`DROP TRIGGER ${table}_${name}_changed ON ${table}`).execute(db);
      await sql.raw(trigger(table, name, event, rows, `skein_changed_in_${table}()`)).execute(db);
    }
  }
  await sql.raw(ANY_THREAD_FUNCTION).execute(db);
}

/** Back to 0021: its function, with the expression as the trigger's argument. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(FUNCTION_0021.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION')).execute(db);
  for (const [table, threadOf] of Object.entries(THREAD_OF)) {
    for (const [name, event, rows] of EVENTS) {
      await sql.raw(`DROP TRIGGER ${table}_${name}_changed ON ${table}`).execute(db);
      await sql.raw(trigger(table, name, event, rows, `skein_threads_changed('${threadOf.replaceAll("'", "''")}')`)).execute(db);
    }
    await sql.raw(`DROP FUNCTION skein_changed_in_${table}()`).execute(db);
  }
}
