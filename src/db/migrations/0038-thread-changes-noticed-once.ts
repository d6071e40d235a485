import { type Kysely, sql } from 'kysely';

// Frozen. Migration 0022's change triggers, reporting each changed thread to a Skein connection
// once per transaction rather than once per statement trigger (docs/benchmarks.md, "Create's CPU,
// 2026-11-30").
//
// PostgreSQL sends every NOTICE to the client at once, in a packet of its own (a send for the
// database, a socket read and a parse for the writer's process). Create Post's one statement
// inserts the thread and its posts: the trigger on threads reported the thread, then the trigger
// on posts reported it again. Now each trigger keeps what it last reported in a setting local to
// the transaction (`skein.noticed`), and a trigger whose ids are exactly those stays silent: the
// writer's connection keeps every id reported in the transaction until it ends (a savepoint's
// rollback drops none of them), and a rolled-back setting (a savepoint's, the statement's) only
// makes the next trigger report again. What another writer (psql) NOTIFYs is unchanged: PostgreSQL
// already sends one notification for the same payload in one transaction.

/** Tables whose rows name their thread, as in 0022: the SQL expression, over a row of `changed`, naming it. */
const THREAD_OF: Record<string, string> = {
  threads: 'id',
  posts: 'thread_id',
  thread_tags: 'thread_id',
  media: '(SELECT p.thread_id FROM posts p WHERE p.id = changed.post_id)',
  spoiler_ranges: '(SELECT p.thread_id FROM posts p WHERE p.id = changed.post_id)',
};

/** 0022's announcement, or this migration's (a NOTICE only when the ids differ from the transaction's last). */
function announce(once: boolean): string {
  const notice = `RAISE NOTICE USING MESSAGE = ids, ERRCODE = 'SKT01';`;
  return `IF current_setting('skein.thread_changes', true) = 'notice' THEN
        ${
          once
            ? `IF ids IS DISTINCT FROM current_setting('skein.noticed', true) THEN
          ${notice}
          PERFORM set_config('skein.noticed', ids, true);
        END IF;`
            : notice
        }
      ELSE
        PERFORM pg_notify('skein_threads', ids);
      END IF;`;
}

function tableFunction(table: string, threadOf: string, once: boolean): string {
  return `
    CREATE OR REPLACE FUNCTION skein_changed_in_${table}() RETURNS trigger LANGUAGE plpgsql AS $fn$
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
      ${announce(once)}
      RETURN NULL;
    END
    $fn$`;
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, threadOf] of Object.entries(THREAD_OF)) await sql.raw(tableFunction(table, threadOf, true)).execute(db);
}

/** Back to 0022's functions: a NOTICE from every trigger. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, threadOf] of Object.entries(THREAD_OF)) await sql.raw(tableFunction(table, threadOf, false)).execute(db);
}
