import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import type { Logger } from '../lib/logger.js';
import { describe, errorCode } from './errors.js';

/**
 * The embedded database belongs to one process at a time, so while `skein serve` runs, a CLI
 * command (add an account, a key, a provider…) cannot open it. The server listens on a control
 * socket instead, and such a command sends itself there: the running server carries it out with
 * its own context and answers what the command would have printed.
 *
 * Only the machine user who runs Skein can connect: the socket is a file in a folder of mode
 * 0700 (the data folder's `control/`), and the socket itself is 0600. Nothing else listens: there
 * is no network address and no key, because the file permissions are the key.
 *
 * Protocol: one line of JSON each way. Request `{ command, values }`; answer `{ ok: true, text,
 * json }` or `{ ok: false, code, message }`.
 */

/** Unix socket paths are limited to about 107 bytes; a deep data folder uses a private folder in the temp dir. */
const MAX_SOCKET_PATH = 100;
const MAX_REQUEST_BYTES = 64 * 1024;
const ANSWER_TIMEOUT_MS = 120_000;

export interface ControlRequest {
  command: string;
  values: Record<string, string | boolean | undefined>;
}

export type ControlAnswer = { ok: true; text: string; json: unknown } | { ok: false; code: string; message: string };

/** The socket's path for a data folder, or null where Unix sockets are not files (Windows). */
export function controlSocketPath(dataDir: string): string | null {
  if (process.platform === 'win32') return null;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const real = realpathSync(dataDir);
  const inDataDir = join(real, 'control', 'skein.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH) return inDataDir;
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 24);
  return join(tmpdir(), `skein-control-${process.getuid?.() ?? 'user'}`, `${hash}.sock`);
}

/** A folder only this user can enter; refuses one that is a symlink or someone else's. */
function privateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const stat = lstatSync(path);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) {
    throw new Error(`${path} is not a folder of this user: the control socket is not opened there`);
  }
  chmodSync(path, 0o700);
}

export interface ControlServer {
  close(): Promise<void>;
}

/**
 * Listens on the data folder's control socket and runs each command it receives with `run`.
 * The caller holds the data folder's lock, so a socket file found there is a stale one.
 */
export async function startControlSocket(
  dataDir: string,
  run: (request: ControlRequest) => Promise<ControlAnswer>,
  logger: Logger,
): Promise<ControlServer | null> {
  const path = controlSocketPath(dataDir);
  if (!path) return null;
  privateFolder(join(path, '..'));
  rmSync(path, { force: true });
  const server = net.createServer((socket) => serveOne(socket, run, logger));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(path, 0o600);
  server.on('error', (err) => logger.warn({ err }, 'the control socket failed'));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(path, { force: true });
      }),
  };
}

function serveOne(socket: net.Socket, run: (request: ControlRequest) => Promise<ControlAnswer>, logger: Logger): void {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('error', () => {});
  const answer = (value: ControlAnswer) => socket.end(`${JSON.stringify(value)}\n`);
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    if (Buffer.byteLength(buffer) > MAX_REQUEST_BYTES) {
      answer({ ok: false, code: 'USAGE', message: 'the command is too long' });
      socket.destroy();
      return;
    }
    const end = buffer.indexOf('\n');
    if (end < 0) return;
    socket.removeAllListeners('data');
    let request: ControlRequest;
    try {
      request = JSON.parse(buffer.slice(0, end)) as ControlRequest;
      if (typeof request?.command !== 'string' || typeof request.values !== 'object' || request.values === null) throw new Error('malformed');
    } catch {
      answer({ ok: false, code: 'USAGE', message: 'the control socket speaks one line of JSON: { command, values }' });
      return;
    }
    logger.info({ command: request.command }, 'a CLI command through the control socket');
    run(request).then(answer, (err: unknown) => answer({ ok: false, code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) }));
  });
}

/**
 * Sends a command to the server that holds the data folder. Null when no server listens there
 * (the caller then reports the busy folder as it would have).
 */
export function askRunningServer(dataDir: string, request: ControlRequest): Promise<ControlAnswer | null> {
  const path = controlSocketPath(dataDir);
  if (!path) return Promise.resolve(null);
  return new Promise((resolve) => {
    let data = '';
    let settled = false;
    const done = (value: ControlAnswer | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const socket = net.connect({ path });
    const timer = setTimeout(() => done({ ok: false, code: 'INTERNAL', message: 'the running server did not answer the command in time' }), ANSWER_TIMEOUT_MS);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      data += chunk;
      const end = data.indexOf('\n');
      if (end < 0) return;
      try {
        done(JSON.parse(data.slice(0, end)) as ControlAnswer);
      } catch {
        done({ ok: false, code: 'INTERNAL', message: 'the running server answered something that is not JSON' });
      }
    });
    // Not there, or nobody listens (a server of an older version, or one that is stopping).
    socket.on('error', () => done(null));
    socket.on('close', () => done(null));
  });
}

/** The server's side: one command of the CLI's table, run with the server's context. */
export async function runControlCommand(ctx: AppContext, request: ControlRequest): Promise<ControlAnswer> {
  const { RUN } = await import('./handlers.js');
  const run = Object.hasOwn(RUN, request.command) ? RUN[request.command] : undefined;
  if (!run) return { ok: false, code: 'USAGE', message: `"${request.command}" cannot run through the running server; stop it first` };
  try {
    const output = await run(ctx, request.values);
    return { ok: true, text: output.text, json: output.json };
  } catch (err) {
    return { ok: false, code: errorCode(err), message: describe(err) };
  }
}
