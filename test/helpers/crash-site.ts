/**
 * Where a crash test runs, so one test body covers both databases a user can choose:
 * - `postgres`: real `skein worker` processes on the test file's own PostgreSQL database, the
 *   API in this process (buildApp over that database);
 * - `embedded`: `skein serve` (what `npm start` runs) on a fresh PGlite data folder, the API
 *   over HTTP to that process, restarted on the same folder after each kill.
 * On the embedded database the folder belongs to one process at a time, so `withDb` (the test's
 * own look at the rows) runs only while no process of the site runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import { freePort } from './browser.js';
import { openSystemEnv, SYSTEM_SECRET, type SystemEnv, sleep, startWorker, type WorkerProcess } from './system.js';
import { EmbeddedServer } from './system-embedded.js';

export type SiteKind = 'postgres' | 'embedded';
export const SITE_KINDS: readonly SiteKind[] = ['postgres', 'embedded'];

/** A running Skein process that publishes: a worker, or the whole server on the embedded database. */
export interface SkeinProcess {
  readonly name: string;
  readonly lines: string[];
  readonly exited: Promise<void>;
  readonly alive: boolean;
  ready(): Promise<void>;
  /** SIGKILL at once (from inside a proxy's or SMTP server's hook); `exited` tells when it is gone. */
  sigkill(): void;
  /** The signal, then waits until the process is gone (SIGTERM: a clean stop). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

interface ApiAnswer {
  status: number;
  json: any;
}

export interface CrashSite {
  readonly kind: SiteKind;
  /** PUBLIC_URL of the processes (links in emails). */
  readonly publicUrl: string;
  readonly processes: SkeinProcess[];
  /** Runs `fn` on a context over the site's database in this process (embedded: no process may run). */
  withDb<T>(fn: (ctx: AppContext) => Promise<T>): Promise<T>;
  /** Starts the next publishing process (on the embedded database, once the one before is gone). */
  start(): SkeinProcess;
  /** One API request as the holder of `key` (a 429 waits its Retry-After and is sent again). */
  api(key: string, method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  /** Every process's log in one file of the temp folder; returns its path. */
  dumpLogs(label: string): string;
  close(): Promise<void>;
}

export interface CrashSiteOptions {
  /** THREADS_API_URL of the processes (a fake, or a proxy in front of it). */
  threadsApiUrl: string;
  /** The workers' lease on PostgreSQL (a restart on the embedded database ends the dead one's leases at once). */
  leaseMs?: number;
  /** More environment, for the processes and for the test's own context (SKEIN_SMTP_URL, SKEIN_ALLOW_PRIVATE_MEDIA, …). */
  env?: Record<string, string>;
}

const PUBLIC_URL = 'http://skein.test';
/** On the embedded database the lease never matters (see above): longer than any test, so a finished thread proves the takeover was at once. */
const EMBEDDED_LEASE_MS = 3_600_000;

export function openCrashSite(kind: SiteKind, options: CrashSiteOptions): Promise<CrashSite> {
  return kind === 'postgres' ? openPostgresSite(options) : openEmbeddedSite(options);
}

function processEnv(options: CrashSiteOptions): Record<string, string> {
  return { PUBLIC_URL, SKEIN_POLL_MS: '100', ...options.env };
}

function dump(processes: SkeinProcess[], label: string): string {
  const file = join(tmpdir(), `skein-${label}-${Date.now()}.log`);
  writeFileSync(file, processes.map((p) => `==== ${p.name}\n${p.lines.join('\n')}`).join('\n'));
  return file;
}

function asProcess(worker: WorkerProcess): SkeinProcess {
  return {
    name: worker.name,
    lines: worker.lines,
    exited: worker.exited.then(() => undefined),
    get alive() {
      return worker.alive;
    },
    ready: () => worker.ready,
    sigkill: () => {
      if (worker.alive) worker.child.kill('SIGKILL');
    },
    stop: (signal = 'SIGKILL') => worker.kill(signal),
  };
}

async function openPostgresSite(options: CrashSiteOptions): Promise<CrashSite> {
  const fromEnv = loadConfig({ LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0', PUBLIC_URL, ...options.env });
  const env: SystemEnv = await openSystemEnv({ config: (c) => ({ ...fromEnv, rateLimit: c.rateLimit }) });
  const processes: SkeinProcess[] = [];
  return {
    kind: 'postgres',
    publicUrl: PUBLIC_URL,
    processes,
    withDb: (fn) => fn(env.ctx),
    start() {
      const worker = startWorker({
        dbUrl: env.dbUrl,
        threadsApiUrl: options.threadsApiUrl,
        leaseMs: options.leaseMs ?? 3000,
        name: `worker-${processes.length + 1}`,
        env: processEnv(options),
      });
      const p = asProcess(worker);
      processes.push(p);
      return p;
    },
    async api(key, method, path, body) {
      const res = await env.app.inject({
        method: method as 'GET',
        url: path,
        headers: { authorization: `Bearer ${key}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: res.statusCode, json: res.body ? JSON.parse(res.body) : null };
    },
    dumpLogs: (label) => dump(processes, label),
    async close() {
      await Promise.all(processes.map((p) => p.stop()));
      await env.close();
    },
  };
}

async function openEmbeddedSite(options: CrashSiteOptions): Promise<CrashSite> {
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-crash-site-'));
  const port = await freePort();
  const servers: EmbeddedServer[] = [];
  const processes: SkeinProcess[] = [];
  return {
    kind: 'embedded',
    publicUrl: PUBLIC_URL,
    processes,
    async withDb(fn) {
      // createContext takes the data folder's lock: a server still running is an error here, not a corrupted folder.
      const config = loadConfig({ SKEIN_DATA_DIR: dataDir, LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0', PUBLIC_URL, ...options.env });
      const ctx = await createContext(config, { skeinSecret: SYSTEM_SECRET, threadsAppSecret: null });
      try {
        return await fn(ctx);
      } finally {
        await ctx.close();
      }
    },
    start() {
      const before = servers.at(-1);
      if (before?.alive) throw new Error(`${before.name} still runs: stop it (or wait for its exit) first`);
      const server = new EmbeddedServer({
        name: `server-${servers.length + 1}`,
        dataDir,
        port,
        threadsApiUrl: options.threadsApiUrl,
        leaseMs: EMBEDDED_LEASE_MS,
        env: processEnv(options),
      });
      servers.push(server);
      const p: SkeinProcess = {
        name: server.name,
        lines: server.lines,
        exited: server.exited,
        get alive() {
          return server.alive;
        },
        ready: () => server.ready(),
        sigkill: () => server.sigkillGroup(),
        stop: (signal = 'SIGKILL') => server.killGroup(signal),
      };
      processes.push(p);
      return p;
    },
    async api(key, method, path, body) {
      for (;;) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        if (res.status !== 429) return { status: res.status, json: text ? JSON.parse(text) : null };
        await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
      }
    },
    dumpLogs: (label) => dump(processes, label),
    async close() {
      await Promise.all(servers.map((s) => s.killGroup()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
