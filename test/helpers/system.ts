/**
 * Helpers for the system tests: real `skein worker` child processes, a real PostgreSQL database
 * of the test file's own, the strict fake Graph API over real HTTP, and a small HTTP proxy in
 * front of the fake that adds latency and kills workers at chosen requests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../../src/app.js';
import { type Config, loadConfig } from '../../../src/config/config.js';
import { type AppContext, createContext } from '../../../src/context.js';
import type { DbHandle } from '../../../src/db/database.js';
import type { Clock } from '../../../src/lib/clock.js';
import { createLogger } from '../../../src/lib/logger.js';
import { personalWorkspace } from '../../../src/lib/workspace.js';
import { addProvider } from '../../../src/services/providers.js';
import { openTestDb } from '../../helpers/db.js';
import type { FakeGraphApi, PublishedPost } from '../platforms/threads/fake-graph-api.js';

export const SYSTEM_SECRET = 'system-test-secret-0123456789-abcdefghij';
const REPO_ROOT = resolve(import.meta.dirname, '../../..');

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

// ---- a proxy in front of the fake Graph API ----

export type GraphCall = 'limit' | 'create' | 'status' | 'publish' | 'permalink' | 'list' | 'other';

export interface ProxiedRequest {
  /** 1-based count of requests since the proxy was last reset. */
  seq: number;
  method: string;
  path: string;
  call: GraphCall;
  params: Record<string, string>;
}

/**
 * What to do with one request: `forward` (after `delayMs`, answering after `answerDelayMs`), `kill-before` (the hook kills the
 * worker; the request never reaches the fake), `kill-after` (the fake carries it out, then the
 * hook kills the worker before the answer is delivered).
 */
export type ProxyDecision =
  | {
      action: 'forward';
      delayMs?: number;
      /** Holds the fake's answer back this long (Meta slow to answer). */
      answerDelayMs?: number;
      /** Holds the request until this settles (a test arranging a state while a call is in flight), then forwards it. */
      until?: Promise<unknown>;
    }
  | { action: 'kill-before' | 'kill-after'; kill: () => Promise<void> };

export function classify(method: string, path: string, params: Record<string, string>): GraphCall {
  if (method === 'POST' && /\/threads_publish$/.test(path)) return 'publish';
  if (method === 'POST' && /\/me\/threads$/.test(path)) return 'create';
  if (method === 'GET' && /\/threads_publishing_limit$/.test(path)) return 'limit';
  if (method === 'GET' && /\/me\/(threads|replies)$/.test(path)) return 'list';
  if (method === 'GET' && /^\/v1\.0\/[^/]+$/.test(path)) {
    const fields = params.fields ?? '';
    if (fields.includes('status')) return 'status';
    if (fields.includes('permalink')) return 'permalink';
  }
  return 'other';
}

/**
 * An HTTP proxy in front of a local fake of a network: each request is described (`describe`)
 * and handed to `decide`, which forwards it (after a delay, or once a promise settles, the
 * answer held back as long as asked) or kills the worker before or after the fake carries it
 * out. GraphProxy and XrpcProxy (waits.ts) are its two descriptions.
 */
export class InterceptingProxy<R> {
  seq = 0;
  decide: (req: R) => ProxyDecision = () => ({ action: 'forward' });
  readonly #server: http.Server;
  readonly #target: URL;
  #url = '';

  protected constructor(
    target: string,
    private readonly describe: (seq: number, req: IncomingMessage, url: URL, body: Buffer) => R,
  ) {
    this.#target = new URL(target);
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res).catch(() => res.destroy());
    });
  }

  protected async listen(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  get url(): string {
    return this.#url;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((r) => this.#server.close(() => r()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const decision = this.decide(this.describe(++this.seq, req, url, body));
    if (decision.action === 'kill-before') {
      await decision.kill();
      res.destroy();
      return;
    }
    if (decision.action === 'forward' && decision.until) await decision.until;
    if (decision.action === 'forward' && decision.delayMs) await sleep(decision.delayMs);
    const answer = await this.#forward(req, url, body);
    if (decision.action === 'kill-after') {
      await decision.kill();
      res.destroy();
      return;
    }
    if (decision.action === 'forward' && decision.answerDelayMs) await sleep(decision.answerDelayMs);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }

  #forward(req: IncomingMessage, url: URL, body: Buffer): Promise<{ status: number; headers: http.OutgoingHttpHeaders; body: Buffer }> {
    return new Promise((resolveAnswer, reject) => {
      const headers = { ...req.headers, host: this.#target.host };
      const out = http.request(
        { host: this.#target.hostname, port: this.#target.port, method: req.method, path: url.pathname + url.search, headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const { 'transfer-encoding': _te, connection: _c, ...rest } = answer.headers;
            resolveAnswer({ status: answer.statusCode ?? 502, headers: rest, body: Buffer.concat(parts) });
          });
          answer.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }
}

/** The proxy in front of the fake Graph API: requests described by the Graph call they make. */
export class GraphProxy extends InterceptingProxy<ProxiedRequest> {
  static start(target: string): Promise<GraphProxy> {
    return new GraphProxy(target).listen();
  }

  private constructor(target: string) {
    super(target, (seq, req, url, body) => {
      const params: Record<string, string> = { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
      const method = req.method ?? 'GET';
      return { seq, method, path: url.pathname, call: classify(method, url.pathname, params), params };
    });
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
