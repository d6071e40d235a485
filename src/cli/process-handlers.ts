import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import type { EarlyStart } from '../early-start.js';

/**
 * The commands that manage their own process lifetime (serve, worker, migrate, export, import):
 * each opens what it needs itself. Imported only when such a command runs; the server, the worker
 * and the database drivers are imported by the handler that needs them. Apart from handlers.ts,
 * which the running server's control socket loads, so the server never imports itself.
 */

type Values = Record<string, string | boolean | undefined>;

type RunLong = (config: Config, secrets: Secrets, values: Values, early?: EarlyStart) => Promise<number>;

const s = (v: Values, k: string) => v[k] as string;

export const LONG: Record<string, RunLong> = {
  serve: async (config, secrets, _values, early) => {
    const { runServer } = await import('../server.js');
    await runServer(config, secrets, early);
    return await new Promise<number>(() => {}); // runs until a signal ends the process
  },
  worker: async (config, secrets) => {
    const { runWorker } = await import('../worker.js');
    await runWorker(config, secrets);
    return await new Promise<number>(() => {});
  },
  migrate: async (config, _secrets, values) => {
    const [{ acquireDataDirLock }, { openPGlite, openPostgres }, { migrateToLatest }] = await Promise.all([
      import('../db/pglite/data-dir-lock.js'),
      import('../db/database.js'),
      import('../db/migrator.js'),
    ]);
    const lock = config.db.url ? null : await acquireDataDirLock(config.db.dataDir);
    const handle = config.db.url ? openPostgres(config.db.url, 1) : await openPGlite(`${config.db.dataDir}/pglite`);
    try {
      const applied = await migrateToLatest(handle.db);
      process.stdout.write(`${values.json ? JSON.stringify({ applied }) : applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date'}\n`);
      return 0;
    } finally {
      await handle.close();
      await lock?.release();
    }
  },
  export: (config, _secrets, values) =>
    withDatabase(config, async (db, transfer, handle) => {
      const { open } = await import('node:fs/promises');
      // 'wx': an existing file is never overwritten (an error names it instead).
      const out = await open(s(values, 'out'), 'wx', 0o600);
      // Lines as bytes, written together (PGlite's chunks arrive as bytes, PostgreSQL's as text).
      let pending: Uint8Array[] = [];
      let size = 0;
      const flush = async () => {
        await out.writev(pending);
        pending = [];
        size = 0;
      };
      try {
        const counts = await withMediaStorage(config, (media) =>
          transfer.exportDatabase(
            db,
            async (lines) => {
              pending.push(typeof lines === 'string' ? Buffer.from(lines) : lines, NEWLINE);
              size += lines.length;
              if (size > 1 << 20) await flush();
            },
            new Date(),
            media,
            undefined,
            handle.queryBytes,
          ),
        );
        await flush();
        await out.sync();
        return counts;
      } finally {
        await out.close();
      }
    }).then((counts) => report(values, 'exported', counts)),
  import: (config, _secrets, values) =>
    withDatabase(config, async (db, transfer) => {
      const [{ createReadStream }, { createInterface }] = await Promise.all([import('node:fs'), import('node:readline')]);
      const reader = createInterface({ input: createReadStream(s(values, 'in')), crlfDelay: Number.POSITIVE_INFINITY });
      // The iterator is taken at once: readline emits lines as soon as the file is read, and
      // lines emitted before anyone iterates are lost (the import awaits its transaction first).
      const iterator = reader[Symbol.asyncIterator]();
      return withMediaStorage(config, async (media) => {
        try {
          return await transfer.importDatabase(db, { [Symbol.asyncIterator]: () => iterator }, media);
        } catch (err) {
          await media.abort();
          throw err;
        }
      });
    }).then((counts) => report(values, 'imported', counts)),
};

type Transfer = typeof import('../db/transfer.js');
type MediaTransfer = ReturnType<typeof import('./media-transfer.js').mediaTransfer>;

/** The configured media storage (folder or bucket), for export and import to carry uploads' bytes. */
async function withMediaStorage<T>(config: Config, work: (media: MediaTransfer) => Promise<T>): Promise<T> {
  const [{ openMediaStorage }, { mediaTransfer }] = await Promise.all([import('../media/open-storage.js'), import('./media-transfer.js')]);
  const storage = await openMediaStorage(config.mediaStorage);
  try {
    return await work(mediaTransfer(storage));
  } finally {
    await storage.close();
  }
}

const NEWLINE = Buffer.from('\n');

/** Opens the configured database (migrated), runs `work`, closes it. */
async function withDatabase<T>(
  config: Config,
  work: (db: import('../db/database.js').Db, transfer: Transfer, handle: import('../db/database.js').DbHandle) => Promise<T>,
): Promise<T> {
  const [{ acquireDataDirLock }, { openPGlite, openPostgres }, { migrateToLatest }, transfer] = await Promise.all([
    import('../db/pglite/data-dir-lock.js'),
    import('../db/database.js'),
    import('../db/migrator.js'),
    import('../db/transfer.js'),
  ]);
  const lock = config.db.url ? null : await acquireDataDirLock(config.db.dataDir);
  const handle = config.db.url ? openPostgres(config.db.url, 1) : await openPGlite(`${config.db.dataDir}/pglite`);
  try {
    await migrateToLatest(handle.db);
    return await work(handle.db, transfer, handle);
  } finally {
    await handle.close();
    await lock?.release();
  }
}

function report(values: Values, verb: string, counts: Record<string, number>): number {
  const rows = Object.values(counts).reduce((a, b) => a + b, 0);
  const text = `${verb} ${rows} rows: ${Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ')}`;
  process.stdout.write(`${values.json ? JSON.stringify({ rows, tables: counts }) : text}\n`);
  return 0;
}
