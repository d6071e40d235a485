import { createRequire } from 'node:module';
import { type Dialect, Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { PGliteDialect } from './pglite/dialect.js';
import type { PGliteThreadSession } from './pglite/thread.js';
import { withStartupOptions } from './postgres/connection.js';
import { preparingClient, StatementNames, THREAD_CHANGES_BY_NOTICE, type ThreadsChanged } from './prepared-statements.js';
import type { Database } from './schema/index.js';

export type Db = Kysely<Database>;
export type DbKind = 'pglite' | 'postgres';

/** Throws when the database does not answer (the readiness probe). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

export interface DbHandle {
  db: Db;
  /**
   * PostgreSQL: where the publisher's queues claim their due rows (openPostgres). PGlite has one
   * connection: its claims use `db`.
   */
  claimDb?: Db;
  kind: DbKind;
  /** PostgreSQL: the connection URL (for connections of their own, such as LISTEN). */
  url?: string;
  /**
   * PGlite: hears `channel`'s notifications in this process (LISTEN sent through `db`, so never
   * inside another holder's transaction); resolves to what stops it. PostgreSQL listens on a
   * connection of its own instead (db/postgres/listener.ts).
   */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * PostgreSQL: `listener` gets the threads a write of this process changed once it has committed
   * (before the caller sees its answer), as the database reported them on the writing connection
   * (migration 0022). This process announces them to the others itself (PgThreadChangeSignal).
   * PGlite needs none: the database NOTIFYs, and the notification arrives before the committing
   * query resolves.
   */
  onThreadsChanged?(listener: ThreadsChanged): void;
  /**
   * PGlite: a statement's rows' fields as the database's text bytes, undecoded, in whatever
   * transaction holds the connection (the export's chunks: PGliteThreadSession.queryBytes).
   */
  queryBytes?: QueryBytes;
  close(): Promise<void>;
}

/** A statement's rows, each field PostgreSQL's text-format bytes (UTF-8) or null. */
export type QueryBytes = (sql: string, params: unknown[]) => Promise<(Uint8Array | null)[][]>;

/** A hook around the dialect (the tests count round trips to the database with it). */
export type WrapDialect = (dialect: Dialect) => Dialect;

// Each driver is loaded by the function that opens it, so a process on PostgreSQL never loads
// PGlite and one on PGlite never loads pg (a CLI command pays only for the one it uses).
const require = createRequire(import.meta.url);
const loadPg = () => require('pg') as typeof pg;

// timestamptz → Date and int8 → number on the pg driver too (PGlite already does both),
// so repos see the same types on either backend. Counts stay far below 2^53.
const INT8_OID = 20;
function pgTypes(driver: typeof pg) {
  return {
    getTypeParser(oid: number, format?: any) {
      if (oid === INT8_OID) return (value: string) => Number(value);
      return driver.types.getTypeParser(oid, format);
    },
  };
}

/** Connections for the publisher's claims (DbHandle.claimDb): a process's claims are a few a second at most. */
const CLAIM_POOL_SIZE = 2;

/**
 * `onIdleError`: an idle pooled connection that breaks (the server restarted, an admin ended it)
 * is dropped by the pool, which then emits 'error'; unheard, that would crash the process.
 */
export function openPostgres(url: string, poolSize = 10, onIdleError: (err: Error) => void = () => {}, wrapDialect: WrapDialect = (d) => d): DbHandle {
  const driver = loadPg();
  const changedListeners: ThreadsChanged[] = [];
  const changed: ThreadsChanged = (threadIds) => {
    for (const listener of changedListeners) listener(threadIds);
  };
  const open = (max: number, options: string) => {
    const pool = new driver.Pool({
      ...withStartupOptions(url, `${THREAD_CHANGES_BY_NOTICE} ${options}`),
      max,
      types: pgTypes(driver) as pg.CustomTypesConfig,
      Client: preparingClient(driver, new StatementNames(), changed),
    });
    pool.on('error', onIdleError);
    return new Kysely<Database>({ dialect: wrapDialect(new PostgresDialect({ pool })) });
  };
  // jit=off: Skein's statements are short reads by index, but a range's analytics probes one
  // index per thread and its estimate passes jit_above_cost; compiling then cost 650 ms for a
  // 220 ms read (docs/api.md, "Workspace summary").
  const db = open(poolSize, '-c jit=off');
  // The queues' claims on connections of their own that always run a named statement's cached
  // generic plan. PostgreSQL's own choice between it and planning anew for the values drifted
  // with the tables' statistics: on the scale bench's million threads the threads' claim was
  // planned anew every time, 1.75 → 2.7–4 ms of PostgreSQL's CPU a claim (docs/benchmarks.md,
  // "Scale"). Only there: it would make every parameterised query generic, even unnamed ones.
  const claimDb = open(CLAIM_POOL_SIZE, '-c jit=off -c plan_cache_mode=force_generic_plan');
  return {
    db,
    claimDb,
    kind: 'postgres',
    url,
    onThreadsChanged: (listener) => changedListeners.push(listener),
    close: async () => {
      await Promise.all([db.destroy(), claimDb.destroy()]);
    },
  };
}

/**
 * Embedded PostgreSQL. `dataDir` null = in memory; `template` = a dumped data folder to start from.
 * PGlite runs in a thread of its own (pglite/thread.ts), so its SQL and this thread's HTTP
 * parsing and handlers use two cores (docs/decisions.md, "The embedded database in a thread").
 */
export async function openPGlite(dataDir: string | null, template?: Blob, wrapDialect: WrapDialect = (d) => d): Promise<DbHandle> {
  const { startPGliteThread } = await import('./pglite/thread.js');
  return pgliteHandle(await startPGliteThread(dataDir, template), wrapDialect);
}

/** The database over an embedded database's thread already started (pglite/embedded-start.ts, or openPGlite). */
export function pgliteHandle(session: PGliteThreadSession, wrapDialect: WrapDialect = (d) => d): DbHandle {
  const db = new Kysely<Database>({ dialect: wrapDialect(new PGliteDialect(session)) });
  const listen = async (channel: string, onPayload: (payload: string) => void) => {
    const off = session.onNotification((heard, payload) => {
      if (heard === channel) onPayload(payload);
    });
    await sql.raw(`LISTEN ${channel}`).execute(db);
    return async () => off();
  };
  return { db, kind: 'pglite', listen, queryBytes: (text, params) => session.queryBytes(text, params), close: () => db.destroy() };
}
