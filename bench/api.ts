/**
 * The API rows: a Skein server (`node bin/skein.js serve`, SKEIN_PUBLISHER=0) on PGlite or on
 * PostgreSQL + Redis, seeded through the CLI and the API, then loaded one route at a time.
 */
import { FakeGraphApi } from '../test/helpers/fakes/threads-graph-api.js';
import { type LoadResult, type LoadSpec, type LoadTool, medianRun, UNIQUE } from './load.js';
import {
  apiClient,
  apiServerEnv,
  bannerKey,
  createDatabase,
  type Env,
  freePort,
  OWNER_EMAIL,
  Proc,
  RATE_LIMITS,
  rssMiB,
  sampleRss,
  skeinCli,
  startSkein,
  tempDir,
  waitReady,
} from './procs.js';

export type Backend = 'pglite' | 'postgres';
export const ROUTES = ['getThread', 'listPosts', 'create', 'setTags'] as const;
export type Route = (typeof ROUTES)[number];
export const ROUTE_LABELS: Record<Route, string> = {
  getThread: 'GET thread',
  listPosts: 'List Posts (20 threads × 3 posts)',
  create: 'Create (3-post thread)',
  setTags: 'Set Thread Tags',
};

export interface LoadOptions {
  tool: LoadTool;
  connections: number;
  seconds: number;
  runs: number;
  warmupSeconds: number;
  log: (line: string) => void;
}

export interface BackendResult {
  rows: Record<Route, LoadResult & { all: number[] }>;
  rssIdleMiB: number;
  rssLoadMiB: number;
  /** ms per 1,000-thread import (POST /api/v1/posts/import, JSON, 2 posts, an image URL on a public address literal (nothing to resolve) and 2 tags a thread). */
  importMs: number[];
  /** PGlite only: ms from spawn to /readyz 200 when restarted on the database just used. */
  restartMs: number[] | null;
}

const RATE_LIMIT = Number(RATE_LIMITS.SKEIN_RATE_LIMIT_PER_IP);
const RATE_WINDOW_MS = 60_000;

/**
 * The server's rate limits (RATE_LIMITS, the highest accepted) hold in any rolling minute, and
 * all the load comes from one address. A read route sends 500,000 requests and more in its
 * runs, so the next one could be refused part-way (429s in its row). Before each route this
 * waits, when it must, until the last minute's requests and those the next route may send fit
 * the limit with room to spare. (It waited whenever the last minute held a tenth of the limit:
 * once PGlite's List Posts got faster, `--quick` waited a whole minute it did not need.)
 */
export class RateWindow {
  readonly #runs: Array<{ endedAt: number; requests: number; rps: number }> = [];
  readonly tool: LoadTool;

  constructor(inner: LoadTool) {
    this.tool = {
      ...inner,
      run: async (spec, connections, seconds) => {
        const result = await inner.run(spec, connections, seconds);
        this.#runs.push({ endedAt: Date.now(), requests: result.requests, rps: result.rps });
        return result;
      },
    };
  }

  /**
   * Waits until the last minute's requests plus `nextSeconds` of load at 1.5 times the fastest
   * rate seen so far are at most 90% of the limit.
   */
  async clear(nextSeconds: number, log: (line: string) => void): Promise<void> {
    const inWindow = () => this.#runs.filter((r) => r.endedAt > Date.now() - RATE_WINDOW_MS);
    const fastest = Math.max(0, ...this.#runs.map((r) => r.rps));
    const next = nextSeconds * fastest * 1.5;
    const tooMany = () => inWindow().reduce((n, r) => n + r.requests, next) > RATE_LIMIT * 0.9;
    if (!tooMany()) return;
    const started = Date.now();
    while (tooMany() && inWindow().length > 0) {
      const oldest = Math.min(...inWindow().map((r) => r.endedAt));
      await new Promise((resolve) => setTimeout(resolve, oldest + RATE_WINDOW_MS - Date.now() + 1000));
    }
    log(`waited ${((Date.now() - started) / 1000).toFixed(0)} s for the rate limit's window to empty`);
  }
}

/** Times in the account's time zone (UTC), as api.md's examples write them: no offset. */
function local(date: Date): string {
  return date.toISOString().slice(0, 19);
}

export async function runBackend(backend: Backend, options: LoadOptions, restarts: number): Promise<BackendResult> {
  const db = backend === 'postgres' ? await createDatabase('api') : null;
  // Only `provider add` talks to it: nothing is published in this part of the bench.
  const graph = await FakeGraphApi.start({});
  const dir = tempDir(backend);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Env = apiServerEnv({ dataDir: dir.path, port, graphUrl: graph.url, ...(db ? { databaseUrl: db.url } : {}) });
  let server: Proc | null = null;
  try {
    // The first start on an empty database prints an owner account's API key; the provider comes
    // from the CLI, which asks the running server (and the server asks the fake Graph API whose token it is).
    options.log(`${backend}: first start, then skein provider add`);
    server = startSkein(`skein serve (${backend})`, 'serve', env);
    await waitReady(server, baseUrl, performance.now());
    const key = await bannerKey(server);
    const provider = await skeinCli(
      ['provider', 'add', '--email', OWNER_EMAIL, '--kind', 'THREADS', '--access-token', graph.createAccount('bench').accessToken],
      env,
    );
    const providerId = provider.id as string;
    const api = apiClient(baseUrl, key);
    options.log(`${backend}: seeding through the API`);
    const day = new Date(Date.now() + 2 * 86_400_000);
    day.setUTCHours(10, 0, 0, 0);
    const threePosts = (label: string) => [{ text: `${label}: first post` }, { text: `${label}: second post` }, { text: `${label}: third post` }];
    for (let i = 0; i < 20; i++) {
      await api('POST', '/api/v1/posts', { providerId, scheduleAt: local(new Date(day.getTime() + i * 120_000)), posts: threePosts(`listed ${i}`) });
    }
    const later = new Date(day.getTime() + 86_400_000);
    const getThread = await api<{ threadId: string }>('POST', '/api/v1/posts', { providerId, scheduleAt: local(later), posts: threePosts('read') });
    const tagThread = await api<{ threadId: string }>('POST', '/api/v1/posts', { providerId, scheduleAt: local(later), posts: threePosts('tagged') });
    const from = local(day);
    const to = local(new Date(day.getTime() + 3600_000));
    const listed = await api<{ count: number }>('GET', `/api/v1/posts?from=${from}&to=${to}`);
    if (listed.count !== 20) throw new Error(`List Posts seeding: expected 20 threads in range, got ${listed.count}`);

    const auth = { authorization: `Bearer ${key}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const createAt = local(new Date(day.getTime() + 30 * 86_400_000));
    const specs: Record<Route, LoadSpec> = {
      getThread: { url: `${baseUrl}/api/v1/posts/${getThread.threadId}`, method: 'GET', headers: auth },
      listPosts: { url: `${baseUrl}/api/v1/posts?from=${from}&to=${to}`, method: 'GET', headers: auth },
      create: {
        url: `${baseUrl}/api/v1/posts`,
        method: 'POST',
        headers: json,
        bodies: [JSON.stringify({ providerId, scheduleAt: createAt, posts: threePosts(`bench ${backend} ${UNIQUE}`) })],
      },
      setTags: {
        url: `${baseUrl}/api/v1/posts/${tagThread.threadId}/tags`,
        method: 'PUT',
        headers: json,
        bodies: [JSON.stringify({ tagNames: ['bench', 'weekly'] }), JSON.stringify({ tagNames: ['bench', 'launch'] })],
      },
    };
    // Every route answers 2xx once before it is loaded, so a broken seed fails loudly here.
    for (const spec of Object.values(specs)) {
      const res = await fetch(spec.url, { method: spec.method, headers: spec.headers, body: spec.bodies?.[0]?.replace(UNIQUE, 'probe') });
      if (res.status >= 300) throw new Error(`${spec.method} ${spec.url}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }

    await new Promise((r) => setTimeout(r, 1000));
    const rssIdleMiB = rssMiB(server.pid) ?? 0;
    const stopSampling = sampleRss(server.pid);
    const rows = {} as BackendResult['rows'];
    const window = new RateWindow(options.tool);
    for (const route of ROUTES) {
      await window.clear(options.warmupSeconds + options.runs * options.seconds, options.log);
      if (options.warmupSeconds > 0) await window.tool.run(specs[route], options.connections, options.warmupSeconds);
      rows[route] = await medianRun(window.tool, specs[route], options.connections, options.seconds, options.runs);
      options.log(`${backend}: ${ROUTE_LABELS[route]}: ${rows[route].all.map((r) => r.toFixed(0)).join(', ')} req/s`);
    }
    const rssLoadMiB = stopSampling();
    const importMs = await timeImports(baseUrl, json, providerId, day, options.runs);
    options.log(`${backend}: 1,000-thread import: ${importMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    await server.stop();
    server = null;

    let restartMs: number[] | null = null;
    if (backend === 'pglite') {
      restartMs = [];
      for (let i = 0; i < restarts; i++) {
        const started = performance.now();
        server = startSkein('skein serve (restart)', 'serve', env);
        restartMs.push(await waitReady(server, baseUrl, started));
        await server.stop();
        server = null;
      }
      options.log(`pglite: restart ready in ${restartMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    }
    return { rows, rssIdleMiB, rssLoadMiB, importMs, restartMs };
  } finally {
    await server?.stop();
    await graph.close();
    await db?.drop();
    dir.remove();
  }
}

/** `runs` imports of 1,000 two-post threads each, one request at a time, each timed whole. */
async function timeImports(baseUrl: string, headers: Record<string, string>, providerId: string, day: Date, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      providerId,
      scheduleAt: local(new Date(day.getTime() + (40 + run) * 86_400_000 + i * 60_000)),
      tags: ['import', `batch ${i % 10}`],
      posts: [
        { text: `import ${run}.${i}: first post`, media: [{ url: `https://93.184.216.34/bench/${i}.png`, altText: 'alt' }] },
        { text: `import ${run}.${i}: reply` },
      ],
    }));
    const body = JSON.stringify(rows);
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/v1/posts/import`, { method: 'POST', headers, body });
    const answer = await res.text();
    times.push(performance.now() - started);
    if (res.status !== 201) throw new Error(`import: ${res.status} ${answer.slice(0, 500)}`);
  }
  return times;
}

/** The ceiling: bench/hello-server.js, a bare Fastify app in its own process. */
export async function runHello(options: LoadOptions): Promise<LoadResult & { all: number[] }> {
  const port = await freePort();
  const hello = new Proc('hello-world', process.execPath, ['bench/hello-server.js'], { PATH: process.env.PATH ?? '', PORT: String(port) });
  try {
    await waitReady(hello, `http://127.0.0.1:${port}`, performance.now());
    const spec: LoadSpec = { url: `http://127.0.0.1:${port}/`, method: 'GET', headers: {} };
    if (options.warmupSeconds > 0) await options.tool.run(spec, options.connections, options.warmupSeconds);
    const result = await medianRun(options.tool, spec, options.connections, options.seconds, options.runs);
    options.log(`hello-world: ${result.all.map((r) => r.toFixed(0)).join(', ')} req/s`);
    return result;
  } finally {
    await hello.stop();
  }
}

/** The bare PostgreSQL handlers of bench/bare-server.js, one per Skein row they bound. */
export const BARE_ROUTES = { getThread: '/read', listPosts: '/range', create: '/write' } as const;
export type BareRoute = keyof typeof BARE_ROUTES;
export const BARE_LABELS: Record<BareRoute, string> = {
  getThread: 'bare: thread + 3 posts, 1 statement',
  listPosts: 'bare: 20 × 3 range, 1 statement',
  create: 'bare: insert thread + 3 posts, 4 statements',
};

/** The second ceiling: bench/bare-server.js on a fresh PostgreSQL database, in its own process. */
export async function runBare(options: LoadOptions): Promise<Record<BareRoute, LoadResult & { all: number[] }>> {
  const db = await createDatabase('bare');
  const port = await freePort();
  const bare = new Proc('bare PostgreSQL handlers', process.execPath, ['bench/bare-server.js'], {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    DATABASE_URL: db.url,
  });
  try {
    await waitReady(bare, `http://127.0.0.1:${port}`, performance.now());
    const rows = {} as Record<BareRoute, LoadResult & { all: number[] }>;
    for (const route of Object.keys(BARE_ROUTES) as BareRoute[]) {
      const spec: LoadSpec = {
        url: `http://127.0.0.1:${port}${BARE_ROUTES[route]}`,
        method: route === 'create' ? 'POST' : 'GET',
        headers: route === 'create' ? { 'content-type': 'application/json' } : {},
        ...(route === 'create' ? { bodies: ['{}'] } : {}),
      };
      if (options.warmupSeconds > 0) await options.tool.run(spec, options.connections, options.warmupSeconds);
      rows[route] = await medianRun(options.tool, spec, options.connections, options.seconds, options.runs);
      options.log(`${BARE_LABELS[route]}: ${rows[route].all.map((r) => r.toFixed(0)).join(', ')} req/s`);
    }
    return rows;
  } finally {
    await bare.stop();
    await db.drop();
  }
}
