import { Worker } from 'node:worker_threads';
import type { PGliteSession, SessionResult } from './dialect.js';

/**
 * The main thread's side of the embedded database's thread (src/db/pglite/worker.ts): a
 * `PGliteSession` whose queries are messages to the worker. Rows, parameters and errors cross by
 * structured clone, which keeps what PGlite returns (Date, number, Uint8Array, parsed jsonb).
 */

/** What the worker needs to open PGlite (its `workerData`). */
export interface ThreadOptions {
  dataDir: string | null;
  /** A dumped data folder (tar, optionally gzip) to start from. */
  template: Uint8Array<ArrayBuffer> | null;
  sharedBuffers: string;
  wasmTieringBudget: number;
}

/**
 * `begin`: run BEGIN first (the dialect's deferred BEGIN); an error of either is the reply.
 * `bytes`: the rows' fields as undecoded bytes (PGliteStatements.queryBytes), their buffer handed over.
 */
export type Request =
  | { id: number; op: 'query'; sql: string; params: unknown[]; begin?: boolean }
  | { id: number; op: 'bytes'; sql: string; params: unknown[] }
  | { id: number; op: 'close' };

/** Id 0 is the worker's answer to being started (PGlite open, or why not). */
export type Reply = { id: number; ok: true; rows: unknown[]; affectedRows?: number } | { id: number; ok: false; error: SerializedError };

/**
 * A NOTIFY heard by PGlite (after `LISTEN channel`). The worker posts it as PGlite reports it,
 * while the committing statement is still being answered, so it arrives before that statement's
 * reply: a listener has run by the time the writer's query resolves, as with PGlite in-process.
 */
export type Notification = { notification: true; channel: string; payload: string };

interface SerializedError {
  name: string;
  message: string;
  /** PostgreSQL's fields (code, constraint, detail, table, column, severity…), as on PGlite's error. */
  fields: Record<string, string | number | boolean>;
}

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: SerializedError['fields'] = {};
  for (const [key, value] of Object.entries(err)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean;
  }
  return { name: err.name, message: err.message, fields };
}

/** An error from the worker, with PGlite's message, name and PostgreSQL fields. */
function deserializeError(error: SerializedError): Error {
  const err = Object.assign(new Error(error.message), error.fields);
  err.name = error.name;
  return err;
}

interface Pending {
  resolve(reply: Reply & { ok: true }): void;
  reject(err: Error): void;
}

type NotificationListener = (channel: string, payload: string) => void;

/** The embedded database's session, with PGlite's notifications. */
export interface PGliteThreadSession extends PGliteSession {
  /** Calls `listener` with every notification of a channel listened to; returns how to stop. */
  onNotification(listener: NotificationListener): () => void;
  /**
   * The rows' fields as PostgreSQL's text bytes (UTF-8), not decoded (null for NULL): for what
   * is written out as it is (the export's JSON lines). Runs in whatever transaction the session
   * is in; parameters are strings or numbers.
   */
  queryBytes(sql: string, params: unknown[]): Promise<(Uint8Array | null)[][]>;
}

class PGliteThread implements PGliteThreadSession {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<NotificationListener>();
  #nextId = 1;
  /** Why no query can run any more (closed, or the thread ended), or null. */
  #stopped: Error | null = null;
  #closing: Promise<void> | null = null;

  constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (message: Reply | Notification) => ('notification' in message ? this.#notify(message) : this.#settle(message)));
    worker.on('error', (err) => this.#stop(err));
    worker.on('exit', (code) => this.#stop(new Error(`the embedded database's thread ended (exit code ${code})`)));
  }

  get closed(): boolean {
    return this.#stopped !== null || this.#closing !== null;
  }

  async query<R>(sql: string, params: unknown[] = [], options: { begin?: boolean } = {}): Promise<SessionResult<R>> {
    if (this.closed) throw this.#stopped ?? new Error('the embedded database is closed');
    const reply = await this.#send({ id: this.#nextId++, op: 'query', sql, params, ...(options.begin ? { begin: true } : {}) });
    return { rows: reply.rows as R[], ...(reply.affectedRows !== undefined ? { affectedRows: reply.affectedRows } : {}) };
  }

  async queryBytes(sql: string, params: unknown[]): Promise<(Uint8Array | null)[][]> {
    if (this.closed) throw this.#stopped ?? new Error('the embedded database is closed');
    const reply = await this.#send({ id: this.#nextId++, op: 'bytes', sql, params });
    return reply.rows as (Uint8Array | null)[][];
  }

  /** PGlite closes (it writes out what it holds), then the thread ends. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#stopped) return;
      await this.#send({ id: this.#nextId++, op: 'close' });
      // Held until the thread has ended: an unref'd worker would let the event loop empty while
      // this is awaited, and Node then exits with 13 (an unsettled top-level await) at shutdown.
      this.#worker.ref();
      await this.#worker.terminate();
    })();
    return this.#closing;
  }

  #send(request: Request): Promise<Reply & { ok: true }> {
    return new Promise((resolve, reject) => {
      this.#pending.set(request.id, { resolve, reject });
      // A query in flight keeps the process alive, an idle database does not (as PGlite in-process).
      if (this.#pending.size === 1) this.#worker.ref();
      this.#worker.postMessage(request);
    });
  }

  onNotification(listener: NotificationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(message: Notification): void {
    for (const listener of this.#listeners) listener(message.channel, message.payload);
  }

  #settle(reply: Reply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.ok) pending.resolve(reply);
    else pending.reject(deserializeError(reply.error));
  }

  #stop(err: Error): void {
    this.#stopped ??= err;
    for (const pending of this.#pending.values()) pending.reject(err);
    this.#pending.clear();
  }
}

/**
 * PostgreSQL's default shared_buffers (128 MB) is allocated and touched at every start of the
 * embedded database: about 120 MiB of resident memory and a few hundred milliseconds that a
 * scheduler's database (a few MB) never needs; the operating system caches the files anyway.
 * A setting of this process only (not written to the data folder); durability is unchanged.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * The embedded database is PostgreSQL compiled to WebAssembly (9 MB). V8 runs it with its
 * baseline compiler and recompiles functions that have run a while with its optimising
 * compiler. With V8's default threshold, starting PostgreSQL alone sends hundreds of
 * functions to be recompiled: about half the CPU time of a CLI command and 50–90 MB of memory
 * per process, for code mostly never run again. A higher threshold keeps the optimising for
 * what stays hot in a long-running server; queries measured no slower
 * (docs/configuration.md, "Start-up time and memory"). Process-wide; it affects WebAssembly only.
 */
const WASM_TIERING_BUDGET = 1_000_000_000;

/** Starts the embedded database's thread on `dataDir` (null: in memory; `template`: a dumped folder to start from). */
export async function startPGliteThread(dataDir: string | null, template?: Blob): Promise<PGliteThreadSession> {
  return openPGliteThread({
    dataDir,
    template: template ? new Uint8Array(await template.arrayBuffer()) : null,
    sharedBuffers: PGLITE_SHARED_BUFFERS,
    wasmTieringBudget: WASM_TIERING_BUDGET,
  });
}

/**
 * Starts the thread and waits for PGlite to open in it.
 */
async function openPGliteThread(options: ThreadOptions): Promise<PGliteThreadSession> {
  const transferList = options.template ? [options.template.buffer] : [];
  const entry = workerEntry();
  const worker = new Worker(entry.script, { eval: entry.eval, workerData: options, transferList });
  const started = await firstReply(worker);
  if (!started.ok) {
    await worker.terminate();
    throw deserializeError(started.error);
  }
  worker.unref();
  return new PGliteThread(worker);
}

/** The worker's answer to being started: PGlite open, or why not. */
function firstReply(worker: Worker): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    const ended = (code: number) => reject(new Error(`the embedded database's thread ended while starting (exit code ${code})`));
    const stop = () => {
      worker.off('message', onMessage);
      worker.off('error', reject);
      worker.off('exit', ended);
    };
    const onMessage = (reply: Reply) => {
      stop();
      resolve(reply);
    };
    worker.on('message', onMessage);
    worker.on('error', reject);
    worker.on('exit', ended);
  });
}

/**
 * Compiled, the worker is dist/db/pglite/worker.js. Run from source under tsx (the tests),
 * this module is TypeScript and so is the worker, and Node 20's workers do not inherit tsx's
 * loader from `--import tsx`: the worker then loads its module through tsx's own API.
 */
function workerEntry(): { script: URL | string; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { script: new URL('./worker.js', import.meta.url), eval: false };
  const module = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  return { script: `import('tsx/esm/api').then((tsx) => tsx.tsImport(${module}, ${JSON.stringify(import.meta.url)}))`, eval: true };
}
