import { type Kysely, sql } from 'kysely';

// Frozen. Every change to what Get Thread and List Posts show is announced on the channel
// `skein_threads` by the database itself, at commit (docs/decisions.md "Thread view cache"):
// whoever writes (an API instance, a worker, the CLI, a migration, an operator's psql), each
// instance's cache of thread views hears it. One NOTIFY per statement: the changed threads' ids,
// comma-separated, or `*` (any thread may have changed: a tag renamed, recoloured or deleted, a
// membership, a provider's kind or network id, or more ids than a NOTIFY payload holds). A
// trigger's argument is the SQL expression, over the statement's rows (`changed`), that names
// each row's thread.
export const FUNCTION = `
    CREATE FUNCTION skein_threads_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
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
      PERFORM pg_notify('skein_threads', ids);
      RETURN NULL;
    END
    $fn$`;

/**
 * Changes that may touch any thread's view, and only those: a provider's token refresh (frequent
 * on Bluesky) or a new tag changes no view, so they do not empty every cache.
 */
const ANY_THREAD: Record<string, string> = {
  tags: 'UPDATE OF name, color OR DELETE',
  memberships: 'INSERT OR UPDATE OR DELETE',
  providers: 'UPDATE OF kind, provider_user_id',
};

const TRIGGERS = `
    ${['threads:id', 'posts:thread_id', 'thread_tags:thread_id', 'media:post', 'spoiler_ranges:post'].map(triggers).join(';\n')};
    ${Object.entries(ANY_THREAD)
      .map(([table, events]) => `CREATE TRIGGER ${table}_changed AFTER ${events} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION skein_threads_changed('*')`)
      .join(';\n')}
`;

/** Three statement triggers (a transition table is for one event only) naming each row's thread. */
function triggers(spec: string): string {
  const [table, column] = spec.split(':') as [string, string];
  // A media or spoiler-range row names its post; a post deleted with it is announced by its own trigger.
  const threadOf = column === 'post' ? '(SELECT p.thread_id FROM posts p WHERE p.id = changed.post_id)' : column;
  const events = [
    ['insert', 'INSERT', 'NEW'],
    ['update', 'UPDATE', 'NEW'],
    ['delete', 'DELETE', 'OLD'],
  ];
  return events
    .map(
      ([name, event, rows]) =>
        `CREATE TRIGGER ${table}_${name}_changed AFTER ${event} ON ${table} REFERENCING ${rows} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION skein_threads_changed('${threadOf.replaceAll("'", "''")}')`,
    )
    .join(';\n');
}

const DOWN = `
    ${['threads', 'posts', 'thread_tags', 'media', 'spoiler_ranges']
      .flatMap((table) => ['insert', 'update', 'delete'].map((name) => `DROP TRIGGER ${table}_${name}_changed ON ${table}`))
      .join(';\n')};
    ${Object.keys(ANY_THREAD)
      .map((table) => `DROP TRIGGER ${table}_changed ON ${table}`)
      .join(';\n')};
    DROP FUNCTION skein_threads_changed()
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  // Whole: the function's body holds semicolons.
  await sql.raw(FUNCTION).execute(db);
  await run(db, TRIGGERS);
}
export const down = (db: Kysely<any>) => run(db, DOWN);
