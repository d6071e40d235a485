import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import net from 'node:net';
import { join, resolve } from 'node:path';

export class DataDirBusyError extends Error {
  constructor(dataDir: string, pid: number | null) {
    super(
      `The embedded database in ${resolve(dataDir)} is in use by a running Skein process${pid === null ? '' : ` (pid ${pid})`}; stop it first, or set DATABASE_URL to use PostgreSQL.`,
    );
    this.name = 'DataDirBusyError';
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

export interface DataDirLockOptions {
  /**
   * `abstract`: a Linux abstract-namespace socket (the default on Linux); `file`: a socket file
   * in the data folder (the default elsewhere; tests use it on Linux too); `pipe`: a Windows
   * named pipe (the default on Windows).
   */
  kind?: 'abstract' | 'file' | 'pipe';
  /** How long a holder that is still exiting (its socket closing) is waited for. */
  waitMs?: number;
}

const DEFAULT_WAIT_MS = 3000;
/** How long a holder that accepted a connection has to write its pid. */
const ANSWER_MS = 5000;

/**
 * PGlite has no server to arbitrate between processes: two processes opening one folder would
 * corrupt it. The lock is a listening socket whose address is derived from the folder: the
 * kernel refuses a second listener, and frees the address when the holder's process ends, however
 * it ends (SIGKILL included), so a restart right after a crash starts. A second process that
 * finds the address taken connects to it; the holder answers with its pid, for a clear message.
 * See docs/decisions.md ("Data folder lock").
 */
export async function acquireDataDirLock(dataDir: string, options: DataDirLockOptions = {}): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const address = dataDirLockAddress(dataDir, options.kind);
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  for (;;) {
    const server = await listen(address.path);
    if (server) return { release: () => close(server) };
    const holder = await askHolder(address.path);
    if (holder.state === 'pid') throw new DataDirBusyError(dataDir, holder.pid);
    if (holder.state === 'silent') throw new DataDirBusyError(dataDir, null);
    if (holder.state === 'refused' && address.kind === 'file') {
      // A socket file nobody listens on: its process died without closing it.
      rmSync(address.path, { force: true });
      continue;
    }
    // The holder is exiting (its socket is closing) or another process is just starting to listen.
    if (Date.now() > deadline) throw new DataDirBusyError(dataDir, null);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The pid of the process holding the data folder, or null when none does (tests and
 * diagnostics; it connects as a second process would).
 */
export async function dataDirLockHolder(dataDir: string, options: Pick<DataDirLockOptions, 'kind'> = {}): Promise<number | null> {
  const holder = await askHolder(dataDirLockAddress(dataDir, options.kind).path);
  return holder.state === 'pid' ? holder.pid : null;
}

function dataDirLockAddress(dataDir: string, kind = defaultKind()): { kind: 'abstract' | 'file' | 'pipe'; path: string } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const real = realpathSync(dataDir);
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 32);
  if (kind === 'abstract') return { kind, path: `\0skein-datadir-${hash}` };
  if (kind === 'pipe') return { kind, path: `\\\\.\\pipe\\skein-datadir-${hash}` };
  return { kind, path: join(real, 'skein.sock') };
}

function defaultKind(): 'abstract' | 'file' | 'pipe' {
  if (process.platform === 'linux') return 'abstract';
  if (process.platform === 'win32') return 'pipe';
  return 'file';
}

/** The listening server, or null when the address is taken. */
function listen(path: string): Promise<net.Server | null> {
  return new Promise((resolveListen, reject) => {
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.end(`${process.pid}\n`);
    });
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolveListen(null);
      else reject(err);
    });
    server.listen({ path, exclusive: true }, () => {
      server.removeAllListeners('error');
      server.on('error', () => {});
      // The lock must not keep a finished process (a CLI command) alive.
      server.unref();
      resolveListen(server);
    });
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((r) => server.close(() => r()));
}

type HolderAnswer = { state: 'pid'; pid: number } | { state: 'refused' } | { state: 'gone' } | { state: 'silent' };

/**
 * Connects to the lock address: `pid` (a live holder answered), `refused` (nobody listens:
 * a stale socket file, or a holder between bind and listen), `gone` (the connection closed
 * without an answer: the holder is exiting), `silent` (connected, no answer in time).
 */
function askHolder(path: string): Promise<HolderAnswer> {
  return new Promise((resolveAnswer) => {
    let data = '';
    let settled = false;
    const done = (answer: HolderAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolveAnswer(answer);
    };
    const socket = net.connect({ path });
    const timer = setTimeout(() => done({ state: 'silent' }), ANSWER_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      const match = /^(\d+)\n/.exec(data);
      if (match) done({ state: 'pid', pid: Number(match[1]) });
    });
    socket.on('end', () => done({ state: 'gone' }));
    socket.on('close', () => done({ state: 'gone' }));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') done({ state: 'refused' });
      else done({ state: 'gone' });
    });
  });
}
