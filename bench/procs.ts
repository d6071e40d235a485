/** Child processes for the bench: Skein servers and workers, the CLI, the hello-world ceiling. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SKEIN_BIN = join(ROOT, 'bin/skein.js');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The highest values the settings accept: the limiter still runs on every request, it just never refuses. */
export const RATE_LIMITS = { SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000000', SKEIN_RATE_LIMIT_PER_IP: '1000000' };

export type Env = Record<string, string>;

export function tempDir(label: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `skein-bench-${label}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The base environment of every Skein process the bench starts. */
export function skeinEnv(extra: Env): Env {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'];
  const base: Env = {};
  for (const k of keep) if (process.env[k] !== undefined) base[k] = process.env[k]!;
  return { ...base, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...RATE_LIMITS, ...extra };
}

/** The environment of a bench `skein serve` for the API rows: no publisher, on PGlite in `dataDir`, or on `databaseUrl` + Redis. */
export function apiServerEnv(options: { dataDir: string; port: number; graphUrl: string; databaseUrl?: string }): Env {
  return skeinEnv({
    SKEIN_DATA_DIR: options.dataDir,
    SKEIN_SECRET: newSecret(),
    SKEIN_PUBLISHER: '0',
    THREADS_API_URL: options.graphUrl,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl, REDIS_URL } : {}),
  });
}

export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

/** Children still running: killed if the bench itself is interrupted. */
const live = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of live) child.kill('SIGKILL');
    process.exit(130);
  });
}

export class Proc {
  readonly child: ChildProcess;
  #output = '';
  #exited: Promise<number | null>;
  exitCode: number | null | undefined = undefined;
  readonly #listeners: ((chunk: string) => void)[] = [];

  constructor(
    readonly label: string,
    command: string,
    args: string[],
    env: Env,
  ) {
    this.child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(this.child);
    const collect = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.#output = (this.#output + text).slice(-20_000);
      for (const l of this.#listeners) l(text);
    };
    this.child.stdout!.on('data', collect);
    this.child.stderr!.on('data', collect);
    this.#exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        this.exitCode = code;
        live.delete(this.child);
        resolve(code);
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  get output(): string {
    return this.#output;
  }

  get exited(): Promise<number | null> {
    return this.#exited;
  }

  /** Resolves when the output (so far or later) contains `text`; rejects if the process exits first. */
  waitForOutput(text: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#output.includes(text)) return resolve();
      const timer = setTimeout(() => reject(new Error(`${this.label}: no "${text}" after ${timeoutMs} ms\n${this.#output.slice(-2000)}`)), timeoutMs);
      this.#listeners.push(() => {
        if (this.#output.includes(text)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void this.#exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${this.label} exited (${code}) before "${text}"\n${this.#output.slice(-2000)}`));
      });
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.#exited;
    clearTimeout(timer);
  }
}

/** e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles every Skein process the bench starts. */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

export function startSkein(label: string, command: 'serve' | 'worker', env: Env): Proc {
  return new Proc(label, process.execPath, [...NODE_ARGS, SKEIN_BIN, command], env);
}

/** Polls /readyz until it answers 200; returns the milliseconds from `since`. */
export async function waitReady(proc: Proc, baseUrl: string, since: number, timeoutMs = 60_000): Promise<number> {
  for (;;) {
    if (proc.exitCode !== undefined) throw new Error(`${proc.label} exited (${proc.exitCode}) before it was ready\n${proc.output.slice(-3000)}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > timeoutMs) throw new Error(`${proc.label} not ready after ${timeoutMs} ms\n${proc.output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits for the first-start banner of `skein serve` on an empty database; returns the API key it shows. */
export async function bannerKey(server: Proc): Promise<string> {
  await server.waitForOutput('Try it:', 60_000);
  const key = /\b(skein_[A-Za-z0-9_-]{32,128})/.exec(server.output)?.[1];
  if (!key) throw new Error(`no API key in the first-start banner:\n${server.output.slice(-2000)}`);
  return key;
}

/** The account the first-start banner creates. */
export const OWNER_EMAIL = 'owner@localhost';

/** One `skein …  --json` command; its JSON answer. */
export async function skeinCli(args: string[], env: Env): Promise<Record<string, unknown>> {
  const proc = new Proc(`skein ${args.slice(0, 2).join(' ')}`, process.execPath, [SKEIN_BIN, ...args, '--json'], env);
  const code = await proc.exited;
  const line = proc.output
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (code !== 0 || !line) throw new Error(`skein ${args.join(' ')} failed (${code}): ${proc.output.slice(-2000)}`);
  return JSON.parse(line) as Record<string, unknown>;
}

/** VmRSS of a process, in MiB (null once it has gone). */
export function rssMiB(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 200 ms until stopped; returns the highest. */
export function sampleRss(pid: number): () => number {
  let peak = rssMiB(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid) ?? 0);
  }, 200);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMiB(pid) ?? 0);
  };
}

/** A fresh PostgreSQL database for one part of the bench, dropped afterwards. */
export interface BenchDatabase {
  name: string;
  url: string;
  drop: () => Promise<void>;
}

/** A fresh database on the bench's PostgreSQL (or a copy of `copyOf`, made while no one is connected to it). */
export async function createDatabase(label: string, copyOf?: BenchDatabase): Promise<BenchDatabase> {
  const name = `skein_bench_${label}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await admin.connect();
  // A copy is made file by file (CREATE DATABASE … TEMPLATE): nobody may be connected to the original.
  await admin.query(`CREATE DATABASE ${name}${copyOf ? ` TEMPLATE ${copyOf.name}` : ''}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: PG_ADMIN_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** A tiny HTTP client for seeding through the API. */
export function apiClient(baseUrl: string, key: string) {
  return async <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  };
}

/** Runs `fn` over `items` with at most `limit` at a time. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}
