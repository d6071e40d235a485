/**
 * Helpers for the system tests (test/system/): real `skein worker` child processes, a real
 * PostgreSQL database of the test file's own, the strict fake Graph API over real HTTP, a clock
 * and a gate that let a crash test arrange its case, and checks of what reached the network.
 * The proxies that delay requests and kill workers at chosen ones are in fakes/proxies.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import type { DbHandle } from '../../src/db/database.js';
import type { Clock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { openTestDb } from './db.js';
import type { FakeGraphApi, PublishedPost } from './fakes/threads-graph-api.js';

export const SYSTEM_SECRET = 'system-test-secret-0123456789-abcdefghij';
const REPO_ROOT = resolve(import.meta.dirname, '../..');

// ---- randomness that can be replayed ----

/** mulberry32: small, seedable. The seed is printed so a failing run can be replayed (SKEIN_SYSTEM_SEED). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pickSeed(): number {
  const given = process.env.SKEIN_SYSTEM_SEED;
  return given ? Number(given) : Math.floor(Math.random() * 2 ** 31);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs: number, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

// ---- database, context and app in the test process ----

export interface SystemEnv {
  db: DbHandle & { url?: string };
  dbUrl: string;
  ctx: AppContext;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * The test file's own PostgreSQL database (cloned from the run's template) and a context on it
 * with the given clock (the system clock by default, as the worker processes use). The app has
 * rate limits high enough never to interfere.
 */
export async function openSystemEnv(options: { clock?: Clock; config?: (c: Config) => Config } = {}): Promise<SystemEnv> {
  const db = await openTestDb('postgres');
  let config = loadConfig({ LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0' });
  config = { ...config, rateLimit: { ...config.rateLimit, perAccount: 1_000_000, perIp: 1_000_000 } };
  if (options.config) config = options.config(config);
  const ctx = await createContext(
    config,
    { skeinSecret: SYSTEM_SECRET, threadsAppSecret: null },
    {
      db,
      logger: createLogger(process.env.SKEIN_SYSTEM_LOG ? 'warn' : 'silent'),
      skipMigrations: true,
      ...(options.clock ? { clock: options.clock } : {}),
    },
  );
  const app = await buildApp(ctx);
  await app.ready();
  return {
    db,
    dbUrl: db.url!,
    ctx,
    app,
    close: async () => {
      await app.close();
      await ctx.close();
      // pg's pool.end() resolves before the server has seen every connection go; DROP DATABASE
      // WITH FORCE would then terminate a closing one, which surfaces as an uncaught error here.
      await db.db.destroy();
      await waitForNoBackends(db.url!);
      await db.close();
    },
  };
}

async function waitForNoBackends(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.SKEIN_TEST_PG_URL });
  await admin.connect();
  try {
    // A hang guard only: the connections are closing, and on a loaded machine that takes a while.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (Number(rows[0]!.n) === 0) return;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.n} connections to ${name} are still open 60 s after the pool closed`);
      await sleep(20);
    }
  } finally {
    await admin.end();
  }
}

/** A Threads provider whose access token the fake accepts. */
export async function connectFakeThreads(ctx: AppContext, accountId: string, fake: FakeGraphApi, username: string) {
  const { userId, accessToken } = fake.createAccount(username);
  const provider = await addProvider(ctx, accountId, personalWorkspace(accountId), { kind: 'THREADS', providerUserId: userId, username, accessToken });
  return { provider, userId, accessToken };
}

// ---- worker processes ----

export interface WorkerOptions {
  dbUrl: string;
  threadsApiUrl: string;
  leaseMs?: number;
  pollMs?: number;
  name?: string;
  /** More environment for the worker (SKEIN_ALLOW_PRIVATE_MEDIA for a loopback webhook receiver). */
  env?: Record<string, string>;
}

/** A real `node bin/skein.js worker` child process. */
export class WorkerProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly ready: Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly startedAt = Date.now();
  readyAt: number | null = null;
  exitedAt: number | null = null;
  readonly #dataDir: string;

  constructor(options: WorkerOptions) {
    this.name = options.name ?? 'worker';
    this.#dataDir = mkdtempSync(join(tmpdir(), 'skein-worker-'));
    this.child = spawn(process.execPath, ['bin/skein.js', 'worker'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TMPDIR: process.env.TMPDIR,
        DATABASE_URL: options.dbUrl,
        THREADS_API_URL: options.threadsApiUrl,
        SKEIN_SECRET: SYSTEM_SECRET,
        SKEIN_POLL_MS: String(options.pollMs ?? 100),
        SKEIN_LEASE_MS: String(options.leaseMs ?? 3000),
        // info: the "publisher started" line tells when the worker is up; publish failures are warn.
        LOG_LEVEL: 'info',
        SKEIN_DATA_DIR: this.#dataDir,
        ...options.env,
      },
    });
    const collect = (stream: NodeJS.ReadableStream | null) => {
      let rest = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        for (const line of parts) this.lines.push(line);
      });
    };
    collect(this.child.stdout);
    collect(this.child.stderr);
    this.exited = new Promise((resolveExit) => {
      this.child.once('exit', (code, signal) => {
        this.exitedAt = Date.now();
        rmSync(this.#dataDir, { recursive: true, force: true });
        resolveExit({ code, signal });
      });
    });
    this.ready = new Promise<void>((resolveReady, reject) => {
      const timer = setInterval(() => {
        if (this.lines.some((l) => l.includes('publisher started'))) {
          clearInterval(timer);
          this.readyAt = Date.now();
          resolveReady();
        } else if (this.exitedAt !== null) {
          clearInterval(timer);
          reject(new Error(`${this.name} exited before it started:\n${this.lines.join('\n')}`));
        }
      }, 10);
    });
    // A worker killed before it came up (the spare one at the end of a test) is no failure:
    // callers that await `ready` still see the rejection.
    this.ready.catch(() => {});
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.exitedAt === null;
  }

  /** Sends the signal and waits until the process is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.alive) return;
    this.child.kill(signal);
    await this.exited;
  }

  /** Log lines at warn or above (publish failures, crashes). */
  warnings(): string[] {
    return this.lines.filter((l) => {
      try {
        return (JSON.parse(l) as { level?: number }).level! >= 40;
      } catch {
        return l.trim() !== '';
      }
    });
  }
}

/**
 * A system test's teardown, in order: the worker processes first (they hold connections to the
 * test database), then the app and its database, then the servers the workers talked to.
 */
export async function shutDown(parts: { workers?: WorkerProcess[]; env?: SystemEnv; servers?: Array<{ close(): Promise<void> } | undefined> }): Promise<void> {
  await Promise.all((parts.workers ?? []).map((w) => w.kill()));
  await parts.env?.close();
  for (const server of parts.servers ?? []) await server?.close();
}

export function startWorker(options: WorkerOptions): WorkerProcess {
  return new WorkerProcess(options);
}

/** Writes every worker's log to a file in the temp folder (for a failing run) and returns its path. */
export function dumpWorkerLogs(workers: WorkerProcess[], label: string): string {
  const file = join(tmpdir(), `skein-${label}-${Date.now()}.log`);
  writeFileSync(file, workers.map((w) => `==== ${w.name} (pid ${w.child.pid})\n${w.lines.join('\n')}`).join('\n'));
  return file;
}

// ---- arranging the case instead of hoping for it: a clock the test moves, a gate a call is held on ----

/**
 * The fake Graph API's clock in the crash tests: real time plus the jumps the test makes. With a
 * container processing time far longer than any test runs, a container is IN_PROGRESS until the
 * test jumps the clock past it, whatever the speed of the machine; the jumps only ever move the
 * fake's time forward, so its publish times stay in order.
 */
export class JumpClock implements Clock {
  #offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  jump(ms: number): void {
    this.#offsetMs += ms;
  }
}

/** A promise opened from outside: a held call waits on it. */
export class Gate {
  readonly opened: Promise<void>;
  #open!: () => void;
  isOpen = false;

  constructor() {
    this.opened = new Promise<void>((resolve) => {
      this.#open = resolve;
    });
  }

  open(): void {
    this.isOpen = true;
    this.#open();
  }
}

// ---- checking what reached the network ----

export interface NetworkCheck {
  /** Network posts per expected text (1 = exactly once). */
  counts: number[];
  duplicates: number;
  missing: number;
  problems: string[];
  posts: PublishedPost[];
}

/**
 * The thread with these post texts (unique in the test) as the fake recorded it: each text
 * exactly once, in order of publication, the first a top-level post and each other one a reply
 * to the one before.
 */
export function checkThreadOnNetwork(fake: FakeGraphApi, ownerId: string, texts: string[]): NetworkCheck {
  const problems: string[] = [];
  const counts: number[] = [];
  const posts: PublishedPost[] = [];
  let duplicates = 0;
  let missing = 0;
  texts.forEach((text, i) => {
    const found = fake.published.filter((p) => p.ownerId === ownerId && p.text === text);
    counts.push(found.length);
    if (found.length === 0) {
      missing++;
      problems.push(`post ${i} ("${text}") is missing`);
    } else if (found.length > 1) {
      duplicates += found.length - 1;
      problems.push(`post ${i} ("${text}") was published ${found.length} times`);
    }
    posts.push(found[0]!);
  });
  if (missing === 0) {
    posts.forEach((post, i) => {
      const parent = i === 0 ? null : posts[i - 1]!;
      if (post.replyToId !== (parent?.id ?? null)) problems.push(`post ${i} replies to ${post.replyToId}, expected ${parent?.id ?? 'nothing'}`);
      if (parent && post.publishedAt < parent.publishedAt) problems.push(`post ${i} was published before post ${i - 1}`);
      if (i > 0 && post.rootId !== posts[0]!.id) problems.push(`post ${i} has root ${post.rootId}, expected ${posts[0]!.id}`);
    });
  }
  return { counts, duplicates, missing, problems, posts };
}

/** Each post of the thread in the database: PUBLISHED, with the network id, a permalink and publishedAt. */
export async function checkThreadInDb(ctx: AppContext, threadId: string, network: PublishedPost[]): Promise<string[]> {
  const problems: string[] = [];
  const thread = await ctx.db.selectFrom('threads').selectAll().where('id', '=', threadId).executeTakeFirst();
  if (!thread) return [`thread ${threadId} is gone`];
  if (thread.status !== 'PUBLISHED') problems.push(`thread ${threadId} is ${thread.status} (${thread.last_error})`);
  const posts = await ctx.db.selectFrom('posts').selectAll().where('thread_id', '=', threadId).orderBy('post_order').execute();
  posts.forEach((post, i) => {
    if (post.status !== 'PUBLISHED') problems.push(`post ${i} is ${post.status} (${post.error_code}: ${post.error_message})`);
    if (!post.permalink) problems.push(`post ${i} has no permalink`);
    if (!post.published_at) problems.push(`post ${i} has no publishedAt`);
    const onNetwork = network[i];
    if (onNetwork && post.network_post_id !== onNetwork.id)
      problems.push(`post ${i} records network id ${post.network_post_id}, the network has ${onNetwork.id}`);
    if (onNetwork && post.permalink && !post.permalink.endsWith(`/post/${onNetwork.shortcode}`))
      problems.push(`post ${i} permalink ${post.permalink} is not the network's`);
  });
  return problems;
}

export function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
