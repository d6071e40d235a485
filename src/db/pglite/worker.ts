/**
 * The embedded database's thread (docs/architecture.md, "The embedded database's thread"). It
 * opens PGlite and runs what the main thread sends, one message at a time, answering each with
 * its rows or its error. The main thread meanwhile parses HTTP and runs the app, so the two use
 * two cores. Started by `openPGliteThread` (thread.ts); the protocol is defined there.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { PGliteStatements } from './statements.js';
import { type Notification, type Reply, type Request, serializeError, type ThreadOptions } from './thread.js';

const port = parentPort!;
const options = workerData as ThreadOptions;

async function open(): Promise<PGlite> {
  // Process-wide V8 flag; set before the WebAssembly module is compiled (see database.ts).
  setFlagsFromString(`--wasm-tiering-budget=${options.wasmTieringBudget}`);
  const { PGlite } = await import('@electric-sql/pglite');
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`];
  // Made here (in memory, from a template, or a new folder that another process could not
  // make), the database leaves garbage behind that only a collection frees (collectGarbage).
  const madeHere = options.dataDir === null || options.template !== null || !(await initdbApart(options.dataDir, startParams));
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.template ? { loadDataDir: new Blob([options.template]) } : {}),
    startParams,
  });
  if (madeHere) await collectGarbage();
  return pglite;
}

/**
 * A new data folder is made by a process of its own, and this thread then opens it as on any
 * later start. PGlite's initdb runs a second PostgreSQL instance, dumps its folder to a tar and
 * loads it: hundreds of MB of buffers that, freed, stay resident in this process's malloc arenas
 * (about 400 MiB idle after the bench's seeding instead of about 280; docs/benchmarks.md,
 * "memjpeg"). A process that ends gives all of it back. It builds the folder beside the target
 * and renames it into place when complete, so a folder left half-made (the process killed) is
 * never taken for a database; such leftovers are removed here, under the data-folder lock. If
 * the process cannot do it, PGlite makes the folder here, as before. True when the folder is
 * there, made elsewhere.
 */
async function initdbApart(dataDir: string, startParams: string[]): Promise<boolean> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return true;
  const parent = dirname(dataDir);
  const prefix = `${basename(dataDir)}.initdb-`;
  if (existsSync(parent)) for (const name of readdirSync(parent)) if (name.startsWith(prefix)) rmSync(join(parent, name), { recursive: true, force: true });
  const building = join(parent, `${prefix}${process.pid}`);
  const script = `const [url, dataDir, ...startParams] = process.argv.slice(1);
const { PGlite } = await import(url);
await (await PGlite.create({ dataDir, startParams })).close();`;
  const args = [
    `--wasm-tiering-budget=${options.wasmTieringBudget}`,
    '--input-type=module',
    '-e',
    script,
    import.meta.resolve('@electric-sql/pglite'),
    building,
    ...startParams,
  ];
  const ok = await new Promise<boolean>((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
  try {
    if (!ok || !existsSync(join(building, 'PG_VERSION'))) return false;
    // rename(2) replaces an empty folder (not on Windows: remove it first).
    if (existsSync(dataDir) && readdirSync(dataDir).length === 0) rmdirSync(dataDir);
    renameSync(building, dataDir);
    return true;
  } catch {
    // Not moved (a folder appeared there meanwhile): PGlite opens or makes what is there.
    return existsSync(join(dataDir, 'PG_VERSION'));
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Making a database here (initdb's WebAssembly instance and its files, or a template's tar)
 * leaves a few hundred MB of buffers behind, garbage once `create` returns. On the main thread the
 * server's own allocations soon make V8 collect them; this thread allocates little, so V8 would
 * not run a major collection for a long time and the process would keep them resident
 * (808 MiB idle instead of about 350 in the bench). One collection right after opening frees
 * them. Node has no API for it without `--expose-gc`, whose `gc` a fresh context then carries.
 * Opening a folder that exists leaves nothing for it to free (RSS the same after it), so that
 * start skips its 50 ms.
 */
async function collectGarbage(): Promise<void> {
  // A turn first, so nothing of `create` still holds the buffers.
  await new Promise((resolve) => setImmediate(resolve));
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  gc();
}

async function answer(pglite: PGlite, statements: PGliteStatements, request: Request): Promise<Reply> {
  try {
    if (request.op === 'close') {
      if (!pglite.closed) await pglite.close();
      return { id: request.id, ok: true, rows: [] };
    }
    if (request.op === 'bytes') {
      const rows = await statements.queryBytes(request.sql, request.params);
      return { id: request.id, ok: true, rows };
    }
    if (request.begin) await statements.query('begin', []);
    const result = await statements.query(request.sql, request.params);
    return { id: request.id, ok: true, rows: result.rows, ...(result.affectedRows !== undefined ? { affectedRows: result.affectedRows } : {}) };
  } catch (err) {
    return { id: request.id, ok: false, error: serializeError(err) };
  }
}

try {
  const pglite = await open();
  const statements = new PGliteStatements(pglite, await import('@electric-sql/pglite'));
  pglite.onNotification((channel, payload) => port.postMessage({ notification: true, channel, payload } satisfies Notification));
  port.on('message', async (request: Request) => {
    const reply = await answer(pglite, statements, request);
    // A reply of bytes hands their buffers over (a row's fields are views of one buffer).
    const buffers = new Set<ArrayBuffer>();
    if (request.op === 'bytes' && reply.ok)
      for (const row of reply.rows as (Uint8Array | null)[][]) for (const field of row) if (field) buffers.add(field.buffer as ArrayBuffer);
    port.postMessage(reply, [...buffers]);
    // After close nothing more comes: let the thread end.
    if (request.op === 'close') port.close();
  });
  port.postMessage({ id: 0, ok: true, rows: [] } satisfies Reply);
} catch (err) {
  port.postMessage({ id: 0, ok: false, error: serializeError(err) } satisfies Reply);
  port.close();
}
