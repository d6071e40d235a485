/**
 * npm run bench: throughput of the API and of the publisher's claim loop, on PGlite and (when
 * reachable) PostgreSQL. Numbers only; nothing here asserts, so a slow machine never fails CI.
 *   API: POST /api/v1/posts over real HTTP, 10 concurrent clients.
 *   Publisher: due threads claimed and "published" to an in-memory network.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createContext } from '../src/context.js';
import { type DbHandle, openPGlite, openPostgres } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createLogger } from '../src/lib/logger.js';
import { personalWorkspace } from '../src/lib/workspace.js';
import type { Platform } from '../src/platforms/platform.js';
import { PublisherLoop } from '../src/publisher/loop.js';
import { createAccount } from '../src/services/accounts.js';
import { createApiKey } from '../src/services/api-keys.js';
import { addProvider } from '../src/services/providers.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const THREADS = Number(process.env.BENCH_THREADS ?? 500);

const instantNetwork: Platform = {
  kind: 'THREADS',
  publishPost: async ({ post }) => ({ networkPostId: post.id, cid: null, permalink: null }),
  repost: async () => {},
  fetchAnalytics: async () => ({ views: null, likes: null, replies: null, reposts: null, quotes: null, shares: null }),
  lookUpPermalink: async () => null,
};

async function postgresDb(): Promise<DbHandle | null> {
  const base = process.env.SKEIN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `skein_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    console.log('PostgreSQL not reachable: PostgreSQL half skipped');
    return null;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), 10);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: base });
      await dropper.connect();
      await dropper.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

async function run(label: string, db: DbHandle): Promise<void> {
  await migrateToLatest(db.db);
  const config = loadConfig({ LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0', SKEIN_DATA_DIR: tmpdir() });
  config.rateLimit = { ...config.rateLimit, perAccount: 1e9, perIp: 1e9 };
  const ctx = await createContext(
    config,
    { skeinSecret: randomBytes(32).toString('hex'), threadsAppSecret: null },
    { db, logger: createLogger('silent'), skipMigrations: true },
  );
  const account = await createAccount(ctx, { email: `bench-${label}@example.test`, timezone: 'UTC' });
  const { key } = await createApiKey(ctx, account);
  const provider = await addProvider(ctx, account.id, personalWorkspace(account.id), {
    kind: 'THREADS',
    providerUserId: '1',
    username: 'bench',
    accessToken: 't',
  });
  const app = await buildApp(ctx);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });

  const body = JSON.stringify({
    providerId: provider.id,
    scheduleAt: new Date(Date.now() + 3600_000).toISOString(),
    posts: [{ text: 'bench post one' }, { text: 'two' }],
  });
  let sent = 0;
  const started = performance.now();
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (sent < REQUESTS) {
        sent++;
        const t = performance.now();
        const res = await fetch(`${address}/api/v1/posts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
        });
        await res.arrayBuffer();
        if (res.status !== 201) throw new Error(`status ${res.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const apiSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.floor(q * (latencies.length - 1))]!.toFixed(1);
  console.log(`${label}: POST /api/v1/posts ${(REQUESTS / apiSeconds).toFixed(0)} req/s, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms`);
  await app.close();

  await ctx.db
    .updateTable('threads')
    .set({ scheduled_at: new Date(Date.now() - 1000) })
    .execute();
  const loop = new PublisherLoop(ctx, { THREADS: instantNetwork }, 'bench');
  const pubStart = performance.now();
  let claimed = 0;
  for (let n = await loop.runOnce(); n > 0 && claimed < THREADS; n = await loop.runOnce()) claimed += n;
  const pubSeconds = (performance.now() - pubStart) / 1000;
  console.log(`${label}: publisher ${(claimed / pubSeconds).toFixed(0)} threads/s (${claimed} two-post threads, one worker, instant network)`);
  console.log(`${label}: RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
  await ctx.close();
  await db.close();
}

await run('pglite', await openPGlite(null));
const pgDb = await postgresDb();
if (pgDb) await run('postgres', pgDb);
