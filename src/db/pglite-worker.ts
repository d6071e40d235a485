/**
 * The embedded database's thread (docs/architecture.md, "The embedded database's thread"). It
 * opens PGlite and runs what the main thread sends, one message at a time, answering each with
 * its rows or its error. The main thread meanwhile parses HTTP and runs the app, so the two use
 * two cores. Started by `openPGliteThread` (pglite-thread.ts); the protocol is defined there.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { type Notification, type Reply, type Request, serializeError, type ThreadOptions } from './pglite-thread.js';

const port = parentPort!;
const options = workerData as ThreadOptions;

async function open(): Promise<PGlite> {
  // Process-wide V8 flag; set before the WebAssembly module is compiled (see database.ts).
  setFlagsFromString(`--wasm-tiering-budget=${options.wasmTieringBudget}`);
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.template ? { loadDataDir: new Blob([options.template]) } : {}),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`],
  });
  await collectGarbage();
  return pglite;
}

/**
 * Opening PGlite leaves a few hundred MB of buffers behind (on a new data folder: initdb's
 * WebAssembly instance and its files), garbage once `create` returns. On the main thread the
 * server's own allocations soon make V8 collect them; this thread allocates little, so V8 would
 * not run a major collection for a long time and the process would keep them resident
 * (808 MiB idle instead of about 350 in the bench). One collection right after opening frees
 * them. Node has no API for it without `--expose-gc`, whose `gc` a fresh context then carries.
 */
async function collectGarbage(): Promise<void> {
  // A turn first, so nothing of `create` still holds the buffers.
  await new Promise((resolve) => setImmediate(resolve));
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  gc();
}

async function answer(pglite: PGlite, request: Request): Promise<Reply> {
  try {
    if (request.op === 'close') {
      if (!pglite.closed) await pglite.close();
      return { id: request.id, ok: true, rows: [] };
    }
    const result = await pglite.query(request.sql, request.params);
    return { id: request.id, ok: true, rows: result.rows, ...(result.affectedRows !== undefined ? { affectedRows: result.affectedRows } : {}) };
  } catch (err) {
    return { id: request.id, ok: false, error: serializeError(err) };
  }
}

try {
  const pglite = await open();
  pglite.onNotification((channel, payload) => port.postMessage({ notification: true, channel, payload } satisfies Notification));
  port.on('message', async (request: Request) => {
    port.postMessage(await answer(pglite, request));
    // After close nothing more comes: let the thread end.
    if (request.op === 'close') port.close();
  });
  port.postMessage({ id: 0, ok: true, rows: [] } satisfies Reply);
} catch (err) {
  port.postMessage({ id: 0, ok: false, error: serializeError(err) } satisfies Reply);
  port.close();
}
