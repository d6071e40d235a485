/**
 * Production mode as an agency runs it: several API instances and several workers on one
 * PostgreSQL and one Redis, each a real `skein` process.
 * - three instances starting together on an empty database run each migration once;
 * - the per-account rate limit is exact across instances (the 61st request in a window is
 *   refused, whichever instance serves it);
 * - a key revoked through one instance is refused by the other at the next request;
 * - thread views are kept by each instance and dropped when the database announces a change,
 *   whoever made it (another instance, a worker, psql);
 * - threads created through both instances are published once each by two workers;
 * - with media in an S3 bucket (s3rver), an image uploaded through one instance is served by the
 *   other and published to Bluesky (a local PDS) by a worker, which reads it from the bucket.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { migrations } from '../../src/db/migrations/index.js';
import { postgresSkipReason } from '../helpers/db.js';
import { startPds } from '../helpers/fakes/bluesky-pds.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { pngBytes } from '../helpers/media-files.js';
import { REDIS_URL, redisReady } from '../helpers/rate-limit-stores.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { checkThreadOnNetwork, SYSTEM_SECRET, waitFor } from '../helpers/system.js';

const skip = postgresSkipReason();
const REPO_ROOT = resolve(import.meta.dirname, '../..');

interface Proc {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function skein(args: string[], env: Record<string, string>): Proc {
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-multi-'));
  const child = spawn(process.execPath, ['bin/skein.js', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SKEIN_DATA_DIR: dataDir,
      SKEIN_SECRET: SYSTEM_SECRET,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  const output: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (c: string) => output.push(c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => output.push(c));
  const exited = new Promise<number | null>((r) =>
    child.once('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      r(code);
    }),
  );
  return { child, output, exited };
}

async function cli(args: string[], env: Record<string, string>): Promise<any> {
  const proc = skein([...args, '--json'], env);
  const code = await proc.exited;
  assert.equal(code, 0, `skein ${args.join(' ')}: ${proc.output.join('')}`);
  return JSON.parse(proc.output.join('').trim().split('\n').pop()!);
}

let adminUrl: string;
let dbName: string;
let dbUrl: string;
let fake: FakeGraphApi;
let s3: TestS3;
let pds: Awaited<ReturnType<typeof startPds>>;
const running: Proc[] = [];
const apis: string[] = [];

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((r) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => r(port));
    });
  });
}

before(async () => {
  if (skip) return;
  adminUrl = process.env.SKEIN_TEST_PG_URL!;
  dbName = `skein_multi_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`); // empty: no template, no migrations
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  dbUrl = url.toString();
  fake = await FakeGraphApi.start({ processingMs: { TEXT: 0 } });
  s3 = await startS3();
  pds = await startPds();
});

after(async () => {
  if (skip) return;
  for (const proc of running) proc.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  await fake?.close();
  await s3?.close();
  await pds?.close();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

test('three instances starting at once on an empty database run each migration once', { skip: skip ?? false }, async () => {
  const procs = [0, 1, 2].map(() => skein(['migrate'], { DATABASE_URL: dbUrl }));
  const codes = await Promise.all(procs.map((p) => p.exited));
  assert.deepEqual(codes, [0, 0, 0], procs.map((p) => p.output.join('')).join('\n---\n'));
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const { rows } = await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name');
  await client.end();
  assert.deepEqual(
    rows.map((r) => r.name),
    Object.keys(migrations).sort(),
  );
});

// The time limits below only guard against a hang: a loaded machine starts four `skein` processes
// and runs six CLI commands before any check.
test('two API instances and two workers on one PostgreSQL and one Redis', { skip: skip ?? false, timeout: 600_000 }, async (t) => {
  if (!redisReady(t)) return;
  // The per-IP limit is raised out of the way (every request here comes from 127.0.0.1); the
  // per-account limit keeps api.md's 60.
  const ports: number[] = [];
  // Two different ports: a port freed by one freePort() may come back from the next.
  while (ports.length < 2) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  // Media in one S3 bucket, and one PUBLIC_URL for the deployment (here the first instance's,
  // as a load balancer's would be); the local PDS is on a loopback address.
  const shared = {
    DATABASE_URL: dbUrl,
    REDIS_URL,
    THREADS_API_URL: fake.url,
    SKEIN_POLL_MS: '200',
    SKEIN_RATE_LIMIT_PER_IP: '1000000',
    PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
    SKEIN_ALLOW_PRIVATE_MEDIA: '1',
    ...s3.env,
  };
  for (const port of ports) {
    running.push(skein(['serve'], { ...shared, PORT: String(port), SKEIN_PUBLISHER: '0' }));
    apis.push(`http://127.0.0.1:${port}`);
  }
  for (let i = 0; i < 2; i++) running.push(skein(['worker'], shared));
  for (const [i, api] of apis.entries()) {
    const serve = running[running.length - 4 + i]!;
    await waitFor(
      `${api} to be ready`,
      async () => {
        // A server that exited (say, its port taken meanwhile by another test's process) never
        // gets ready: say so at once, with what it printed.
        if (serve.child.exitCode !== null) throw new Error(`skein serve on ${api} exited (${serve.child.exitCode}):\n${serve.output.join('')}`);
        return (await fetch(`${api}/readyz`).catch(() => null))?.ok;
      },
      180_000,
      100,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\nskein serve printed:\n${serve.output.join('')}`);
    });
  }
  await waitFor('both workers to start', async () => running.slice(2).every((p) => p.output.join('').includes('publisher started')), 180_000, 100);

  const email = `multi-${Date.now()}@example.test`;
  await cli(['user', 'create', '--email', email, '--timezone', 'UTC'], { DATABASE_URL: dbUrl });
  const { key } = await cli(['key', 'create', '--email', email, '--name', 'main'], { DATABASE_URL: dbUrl });
  const { userId, accessToken } = fake.createAccount('multi');
  const provider = await cli(['provider', 'add', '--email', email, '--kind', 'THREADS', '--access-token', accessToken], {
    DATABASE_URL: dbUrl,
    THREADS_API_URL: fake.url,
  });
  assert.equal(provider.providerUserId, userId, 'the account is the one Meta says the token belongs to');
  const call = (i: number, path: string, init: RequestInit = {}, useKey = key) =>
    fetch(`${apis[i % 2]}${path}`, { ...init, headers: { authorization: `Bearer ${useKey}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

  await t.test('a key revoked through one instance is refused by the other at the next request', async () => {
    const second = await (await call(0, '/api/v1/keys', { method: 'POST', body: JSON.stringify({ name: 'second' }) })).json();
    assert.equal((await call(1, '/api/v1/account', {}, second.key)).status, 200);
    assert.equal((await call(0, `/api/v1/keys/${second.id}`, { method: 'DELETE' })).status, 200);
    const refused = await call(1, '/api/v1/account', {}, second.key);
    assert.equal(refused.status, 401);
    assert.equal((await refused.json()).code, 'UNAUTHENTICATED');
  });

  await t.test('threads created through both instances are each published once by two workers', async (t) => {
    const texts: string[][] = [];
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const posts = [0, 1, 2].map((p) => `multi ${i}.${p} ${Date.now()}`);
      texts.push(posts);
      const res = await call(i, '/api/v1/posts', {
        method: 'POST',
        body: JSON.stringify({ providerId: provider.id, scheduleAt: new Date().toISOString(), posts: posts.map((text) => ({ text })) }),
      });
      assert.equal(res.status, 201, await res.clone().text());
      ids.push((await res.json()).threadId);
    }
    let states: string[] = [];
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    t.after(() => db.end());
    await waitFor(
      'every thread to be published',
      async () => {
        // Read from the database: polling through the API would spend the account's rate limit.
        const { rows } = await db.query<{ status: string }>('SELECT status FROM threads WHERE id = ANY($1)', [ids]);
        states = rows.map((r) => r.status);
        return states.length === ids.length && states.every((s) => s === 'PUBLISHED');
      },
      180_000,
      200,
    ).catch((err) => {
      const logs = running.slice(2).map((w) => w.output.join('').split('\n').slice(-15).join('\n'));
      throw new Error(`${err.message}; thread states ${states.join(',')}; worker logs:\n${logs.join('\n---\n')}`);
    });
    for (const posts of texts) assert.deepEqual(checkThreadOnNetwork(fake, userId, posts).problems, []);
  });

  await t.test('an image uploaded through instance A is served by B and published to Bluesky by a worker, all through the S3 bucket', async () => {
    const png = await pngBytes(30, 20);
    const uploaded = await call(0, '/api/v1/media', { method: 'POST', body: new Uint8Array(png), headers: { 'content-type': 'image/png' } });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    const media = await uploaded.json();
    const served = await fetch(`${apis[1]}${new URL(media.url).pathname}`);
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);

    const bsky = await pds.createAccount(`skeinmulti${Math.floor(Math.random() * 1e6)}`);
    const connected = await call(1, '/api/v1/providers/bluesky', {
      method: 'POST',
      body: JSON.stringify({ identifier: bsky.handle, appPassword: bsky.appPassword, service: pds.url }),
    });
    assert.equal(connected.status, 201, await connected.clone().text());
    const created = await call(1, '/api/v1/posts', {
      method: 'POST',
      body: JSON.stringify({
        providerId: (await connected.json()).id,
        scheduleAt: new Date().toISOString(),
        posts: [{ text: 'uploaded on A, published by a worker', media: [{ url: media.url, altText: 'from S3' }] }],
      }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const threadId = (await created.json()).threadId;
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    try {
      await waitFor(
        'the Bluesky thread to be published',
        async () => (await db.query<{ status: string }>('SELECT status FROM threads WHERE id = $1', [threadId])).rows[0]?.status === 'PUBLISHED',
        180_000,
        200,
      ).catch(async (err) => {
        const posts = await db.query('SELECT error_code, error_message FROM posts WHERE thread_id = $1', [threadId]);
        throw new Error(`${err.message}: ${JSON.stringify(posts.rows)}`);
      });
    } finally {
      await db.end();
    }
    const records = await bsky.agent.com.atproto.repo.listRecords({ repo: bsky.did, collection: 'app.bsky.feed.post' });
    assert.equal(records.data.records.length, 1);
    const image = (records.data.records[0]!.value as { embed: { images: Array<{ alt: string; image: { size: number } }> } }).embed.images[0]!;
    assert.equal(image.alt, 'from S3');
    // Fitted to Bluesky's limits like any image (re-encoded, so its size is its own).
    assert.ok(image.image.size > 0 && image.image.size <= 1_000_000);
  });

  await t.test('thread views: B serves them from its cache, and a change through A, by a worker or by any writer is seen through B', async (t) => {
    // An account of its own: the polls below count in its rate limit, not the others'.
    const owner = `views-${Date.now()}@example.test`;
    await cli(['user', 'create', '--email', owner, '--timezone', 'UTC'], { DATABASE_URL: dbUrl });
    const { key: viewsKey } = await cli(['key', 'create', '--email', owner], { DATABASE_URL: dbUrl });
    const network = fake.createAccount('views');
    const viewsProvider = await cli(['provider', 'add', '--email', owner, '--kind', 'THREADS', '--access-token', network.accessToken], {
      DATABASE_URL: dbUrl,
      THREADS_API_URL: fake.url,
    });
    const as = (i: number, path: string, init: RequestInit = {}) => call(i, path, init, viewsKey);
    const threadOn = async (i: number, threadId: string) => {
      const res = await as(i, `/api/v1/posts/${threadId}`);
      assert.equal(res.status, 200, await res.clone().text());
      return { thread: (await res.json()).thread, etag: res.headers.get('etag') };
    };
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    t.after(() => db.end());

    const draft = await as(0, '/api/v1/posts', { method: 'POST', body: JSON.stringify({ providerId: viewsProvider.id, posts: [{ text: 'first words' }] }) });
    assert.equal(draft.status, 201, await draft.clone().text());
    const { threadId } = await draft.json();
    const postId = (await threadOn(1, threadId)).thread.posts[0].id;

    // B keeps what it read: a change made with the database's triggers off (no NOTIFY, as no
    // Skein write ever is) stays unseen through B. Repeated until B listens (from its first read).
    let silent = 0;
    await waitFor(
      'B to serve the thread from its cache',
      async () => {
        const before = (await threadOn(1, threadId)).thread.posts[0].content;
        silent++;
        await db.query('BEGIN');
        await db.query(`SET LOCAL session_replication_role = replica`);
        await db.query('UPDATE posts SET content = $1 WHERE id = $2', [`silent ${silent}`, postId]);
        await db.query('COMMIT');
        return (await threadOn(1, threadId)).thread.posts[0].content === before;
      },
      60_000,
      500,
    );
    const cached = await threadOn(1, threadId);

    // An edit through A: B shows it (and its new ETag) as soon as the NOTIFY reaches B.
    const edited = await as(0, `/api/v1/posts/${threadId}/posts/${postId}`, { method: 'PATCH', body: JSON.stringify({ content: 'edited on A' }) });
    assert.equal(edited.status, 200, await edited.clone().text());
    const seen = await waitFor(
      'B to show the edit made through A',
      async () => {
        const view = await threadOn(1, threadId);
        return view.thread.posts[0].content === 'edited on A' && view;
      },
      30_000,
      50,
    );
    assert.notEqual(seen.etag, cached.etag);

    // Any other writer (psql here; the CLI or a migration alike): the database announces it.
    await db.query('UPDATE posts SET content = $1 WHERE id = $2', ['written by psql', postId]);
    await waitFor('B to show the write made with psql', async () => (await threadOn(1, threadId)).thread.posts[0].content === 'written by psql', 30_000, 50);

    // List Posts through B: a thread created through A in the range appears.
    const day = '2031-03-04';
    const list = async () => (await (await as(1, `/api/v1/posts?from=${day}T00:00:00&to=${day}T23:59:59`)).json()).count as number;
    const schedule = async (time: string) => {
      const res = await as(0, '/api/v1/posts', {
        method: 'POST',
        body: JSON.stringify({ providerId: viewsProvider.id, scheduleAt: `${day}T${time}`, posts: [{ text: `at ${time}` }] }),
      });
      assert.equal(res.status, 201, await res.clone().text());
    };
    await schedule('09:00:00');
    assert.equal(await list(), 1);
    assert.equal(await list(), 1);
    await schedule('10:00:00');
    await waitFor('B to list the thread created through A', async () => (await list()) === 2, 30_000, 50);

    // A worker publishes a thread B has read while it waited: B shows it published.
    const due = await as(0, '/api/v1/posts', {
      method: 'POST',
      body: JSON.stringify({ providerId: viewsProvider.id, scheduleAt: new Date().toISOString(), posts: [{ text: 'published while cached' }] }),
    });
    assert.equal(due.status, 201, await due.clone().text());
    const dueId = (await due.json()).threadId;
    await threadOn(1, dueId);
    await waitFor(
      'the worker to publish the thread',
      async () => (await db.query('SELECT status FROM threads WHERE id = $1', [dueId])).rows[0]?.status === 'PUBLISHED',
      180_000,
      200,
    );
    await waitFor('B to show the thread published', async () => (await threadOn(1, dueId)).thread.status === 'PUBLISHED', 30_000, 50);
  });

  await t.test('the per-account limit is exact across instances: the 61st request in a window is refused', async () => {
    // An account of its own, so no earlier request counts in its window.
    const other = `limits-${Date.now()}@example.test`;
    await cli(['user', 'create', '--email', other, '--timezone', 'UTC'], { DATABASE_URL: dbUrl });
    const { key: fresh } = await cli(['key', 'create', '--email', other], { DATABASE_URL: dbUrl });
    // All 60 at once, spread over both instances: the window is 60 s, and the first request
    // must still be in it when the 61st comes. Sent one after another, that needed 62 round trips
    // within a minute (a machine's speed); at once, it needs one round trip of 60 concurrent
    // requests, and the store's check-and-count must also hold under concurrency.
    const statuses = await Promise.all(Array.from({ length: 60 }, async (_, i) => (await call(i, '/api/v1/account', {}, fresh)).status));
    assert.deepEqual(
      statuses,
      statuses.map(() => 200),
      'the first 60 requests, spread over both instances, are served',
    );
    for (const i of [0, 1]) {
      const refused = await call(i, '/api/v1/account', {}, fresh);
      assert.equal(refused.status, 429, `instance ${i} refuses the request after the 60th`);
      assert.equal((await refused.json()).code, 'RATE_LIMITED');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    }
  });
});
