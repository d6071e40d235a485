import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.js';
import type { Database } from './schema/index.js';

export type Db = Kysely<Database>;
export type DbKind = 'pglite' | 'postgres';

/** Throws when the database does not answer (the readiness probe). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

export interface DbHandle {
  db: Db;
  kind: DbKind;
  /** PostgreSQL: the connection URL (for connections of their own, such as LISTEN). */
  url?: string;
  close(): Promise<void>;
}

// timestamptz → Date and int8 → number on the pg driver too (PGlite already does both),
// so repos see the same types on either backend. Counts stay far below 2^53.
const INT8_OID = 20;
function pgTypes() {
  return {
    getTypeParser(oid: number, format?: any) {
      if (oid === INT8_OID) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format);
    },
  };
}

/**
 * `onIdleError`: an idle pooled connection that breaks (the server restarted, an admin ended it)
 * is dropped by the pool, which then emits 'error'; unheard, that would crash the process.
 */
export function openPostgres(url: string, poolSize = 10, onIdleError: (err: Error) => void = () => {}): DbHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes() as pg.CustomTypesConfig });
  pool.on('error', onIdleError);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', url, close: () => db.destroy() };
}

/** Embedded PostgreSQL. `dataDir` null = in memory; `template` = a dumped data folder to start from. */
export async function openPGlite(dataDir: string | null, template?: Blob): Promise<DbHandle> {
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(template ? { loadDataDir: template } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
