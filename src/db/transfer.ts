import { type Kysely, sql } from 'kysely';
import type { QueryBytes } from './database.js';
import { migrations } from './migrations/index.js';

/**
 * Moving a deployment between databases (the embedded PGlite → a PostgreSQL server, or a
 * server → another): every table's rows as JSON lines. The tables and their order come from the
 * catalog, so a table a later migration adds is carried without a change here. PostgreSQL itself
 * turns rows to JSON (`to_jsonb`) and back (`jsonb_populate_recordset`), so timestamps keep their
 * microseconds and jsonb, booleans and NULLs come back exactly as they were.
 */

const EXPORT_FORMAT = 'skein-export';
const VERSION = 1;
const BATCH_ROWS = 500;
/**
 * Table pages (8 KB each) an export reads at a time: a table is never held whole in memory (an
 * agency's posts table is gigabytes), and a read is one round trip and one string for all the
 * rows those pages hold (some 2 MB of JSON lines: at 512 pages the full scale run peaked at 382 MiB).
 */
const CHUNK_PAGES = 128;

interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: number;
  migrations: string[];
  tables: string[];
  exportedAt: string;
}

interface RowLine {
  table: string;
  row: Record<string, unknown>;
}

export class TransferError extends Error {}

/**
 * What travels with the rows but is not in the database (uploaded media's bytes): lines of
 * their own after the rows, each a JSON object without a `table`.
 */
export interface TransferExtras {
  /** Lines written after the rows, read in the export's snapshot. */
  exportLines?(trx: Kysely<any>): AsyncIterable<string>;
  /** A line that is not a row. */
  importLine?(line: Record<string, unknown>, lineNo: number): Promise<void>;
  /** Every line read, the rows inserted, before the commit: a throw here rolls the import back. */
  importDone?(trx: Kysely<any>): Promise<void>;
}

/** User tables of the public schema, parents before children (foreign keys), migration tables left out. */
export async function tablesInDependencyOrder(db: Kysely<any>): Promise<string[]> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname NOT LIKE 'kysely_migration%'
    ORDER BY c.relname`.execute(db);
  const { rows: edges } = await sql<{ child: string; parent: string }>`
    SELECT c.relname AS child, p.relname AS parent
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE k.contype = 'f' AND n.nspname = 'public' AND c.relname <> p.relname`.execute(db);
  const parents = new Map(tables.map((t) => [t.name, new Set<string>()]));
  for (const e of edges) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = [...parents].filter(([name, ps]) => !placed.has(name) && [...ps].every((p) => placed.has(p) || !parents.has(p)));
    if (ready.length === 0) throw new TransferError('the tables reference each other in a cycle; cannot order them');
    for (const [name] of ready) {
      ordered.push(name);
      placed.add(name);
    }
  }
  return ordered;
}

async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  return rows.map((r) => r.name);
}

/** One or more whole lines, joined by newlines, without the last one's: text, or its UTF-8 bytes. */
type WriteLines = (lines: string | Uint8Array) => Promise<void> | void;

/**
 * Writes the header line, then one line per row, then the extras' lines; `writeLines` gets one
 * or more whole lines at a time, joined by newlines, without the last one's (a JSON line holds
 * no raw newline). Returns the row count per table. With `queryBytes` (PGlite's DbHandle) the
 * rows' lines come as the database's UTF-8 bytes, never decoded into strings; the same text.
 */
export async function exportDatabase(
  db: Kysely<any>,
  writeLines: WriteLines,
  now = new Date(),
  extras: TransferExtras = {},
  chunkPages = CHUNK_PAGES,
  queryBytes?: QueryBytes,
): Promise<Record<string, number>> {
  const tables = await tablesInDependencyOrder(db);
  // One snapshot for the whole export, so rows written meanwhile cannot half-appear.
  return db.transaction().execute(async (trx) => {
    await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(trx);
    const header: ExportHeader = { format: EXPORT_FORMAT, version: VERSION, migrations: await appliedMigrations(trx), tables, exportedAt: now.toISOString() };
    await writeLines(JSON.stringify(header));
    const counts: Record<string, number> = {};
    for (const table of tables) counts[table] = await exportTable(trx, table, writeLines, chunkPages, queryBytes);
    if (extras.exportLines) for await (const line of extras.exportLines(trx)) await writeLines(line);
    return counts;
  });
}

/**
 * One table's rows as JSON lines, `chunkPages` of its pages at a time: PostgreSQL turns each
 * row into its line (`row_to_json`, no jsonb built and printed) and joins a chunk's lines into
 * one string, so Node handles a string per chunk rather than an object per row (on PGlite,
 * with `queryBytes`, that string's UTF-8 bytes); the next chunk is asked for before this one is
 * written, so both work at once. The pages are those the table had when the transaction's
 * snapshot was taken: a row version visible to it stays where it was (nothing may remove it
 * while the snapshot lives), and what was written since is invisible. Chunks are ranges of row
 * addresses (`ctid`, a TID Range Scan), in the table's physical order.
 */
async function exportTable(trx: Kysely<any>, table: string, writeLines: WriteLines, chunkPages: number, queryBytes?: QueryBytes): Promise<number> {
  const { rows: size } = await sql<{ blocks: number }>`
    SELECT (pg_relation_size(${table}::regclass) / current_setting('block_size')::int)::int AS blocks`.execute(trx);
  const blocks = size[0]!.blocks;
  const prefix = `{"table":${JSON.stringify(table)},"row":`;
  const chunk = async (first: number): Promise<{ lines: string | Uint8Array | null; n: number }> => {
    const query = sql<{ lines: string | null; n: number }>`
      SELECT string_agg(${prefix} || row_to_json(t)::text || '}', E'\n') AS lines, count(*)::int AS n
      FROM ${sql.table(table)} t WHERE t.ctid >= ${`(${first},0)`}::tid AND t.ctid < ${`(${first + chunkPages},0)`}::tid`;
    if (!queryBytes) {
      const { rows } = await query.execute(trx);
      return { lines: rows[0]?.lines ?? null, n: rows[0]?.n ?? 0 };
    }
    const compiled = query.compile(trx);
    const [row] = await queryBytes(compiled.sql, [...compiled.parameters]);
    return { lines: row?.[0] ?? null, n: row?.[1] ? Number(new TextDecoder().decode(row[1])) : 0 };
  };
  let count = 0;
  let next = blocks > 0 ? chunk(0) : null;
  for (let first = 0; next; first += chunkPages) {
    const { lines, n } = await next;
    next = first + chunkPages < blocks ? chunk(first + chunkPages) : null;
    // Seen now, thrown at its turn: a chunk that fails while this one is written is no unhandled rejection.
    next?.catch(() => {});
    if (lines && lines.length > 0) await writeLines(lines);
    count += n;
  }
  return count;
}

/**
 * Loads an export into a migrated, empty database, in one transaction: it all arrives or
 * nothing does. Refuses a database that already holds accounts, and an export made at another
 * schema version (run the same Skein version on both sides).
 */
export async function importDatabase(
  db: Kysely<any>,
  lines: AsyncIterable<string> | Iterable<string>,
  extras: TransferExtras = {},
): Promise<Record<string, number>> {
  const expected = Object.keys(migrations).sort();
  return db.transaction().execute(async (trx) => {
    let header: ExportHeader | null = null;
    const counts: Record<string, number> = {};
    const batch: { table: string; rows: Record<string, unknown>[] } = { table: '', rows: [] };
    const flush = async () => {
      if (batch.rows.length === 0) return;
      await sql`INSERT INTO ${sql.table(batch.table)} SELECT * FROM jsonb_populate_recordset(NULL::${sql.table(batch.table)}, ${JSON.stringify(batch.rows)}::jsonb)`.execute(
        trx,
      );
      counts[batch.table] = (counts[batch.table] ?? 0) + batch.rows.length;
      batch.rows = [];
    };
    let lineNo = 0;
    for await (const raw of lines) {
      lineNo++;
      if (raw.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new TransferError(`line ${lineNo} is not JSON`);
      }
      if (!header) {
        header = checkHeader(parsed, expected);
        await checkEmpty(trx, header.tables);
        continue;
      }
      const line = parsed as RowLine;
      if (extras.importLine && typeof line === 'object' && line !== null && !('table' in line)) {
        await flush();
        await extras.importLine(line as unknown as Record<string, unknown>, lineNo);
        continue;
      }
      if (typeof line?.table !== 'string' || !header.tables.includes(line.table) || typeof line.row !== 'object' || line.row === null) {
        throw new TransferError(`line ${lineNo} is not a row of a table named in the header`);
      }
      if (batch.table !== line.table) {
        await flush();
        batch.table = line.table;
      }
      batch.rows.push(line.row);
      if (batch.rows.length >= BATCH_ROWS) await flush();
    }
    if (!header) throw new TransferError('the export is empty');
    await flush();
    await extras.importDone?.(trx);
    return counts;
  });
}

function checkHeader(parsed: unknown, expected: string[]): ExportHeader {
  const header = parsed as ExportHeader;
  if (header?.format !== EXPORT_FORMAT || header.version !== VERSION || !Array.isArray(header.tables) || !Array.isArray(header.migrations)) {
    throw new TransferError('this is not a Skein export (its first line is not an export header)');
  }
  if (header.migrations.join() !== expected.join()) {
    throw new TransferError(
      `the export was made at schema ${header.migrations.at(-1) ?? 'none'}, this Skein is at ${expected.at(-1)}; export and import with the same Skein version`,
    );
  }
  return header;
}

async function checkEmpty(db: Kysely<any>, tables: string[]): Promise<void> {
  for (const table of tables) {
    const { rows } = await sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM ${sql.table(table)}) AS any`.execute(db);
    if (rows[0]?.any) throw new TransferError(`the target database is not empty (table ${table} has rows); import only into a new database`);
  }
}
