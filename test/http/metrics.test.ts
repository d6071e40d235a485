import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import { type MetricsServer, startMetricsServer } from '../../src/metrics/server.js';
import { PublishError } from '../../src/networks/platform.js';
import { claimDue } from '../../src/publisher/claim.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { jobQueue } from '../../src/repos/jobs.js';
import { threadQueue } from '../../src/repos/thread-queue.js';
import { createTestEnv, describeEachDb, type TestEnv } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { createProvider, createUser } from '../helpers/seeds.js';

type Labels = Record<string, string>;

/** The value of one sample of the Prometheus text, the one whose labels include `labels`; undefined when absent. */
function sample(text: string, name: string, labels: Labels = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found: Labels = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) found[key!] = value!;
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

const withMetrics = { config: (c: TestEnv['ctx']['config']) => ({ ...c, metrics: { host: '127.0.0.1', port: 0 } }) };

describeEachDb(
  'GET /metrics',
  (env) => {
    let server: MetricsServer;
    let apiBase: string;
    before(async () => {
      const { ctx, app } = env();
      server = await startMetricsServer(ctx.metrics, '127.0.0.1', 0, ctx.logger);
      apiBase = await app.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => server.close());
    const scrape = async () => {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      return res.text();
    };

    async function scheduled(texts: string[], at: string) {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: at, posts: texts.map((text) => ({ text })) },
      });
      assert.equal(res.statusCode, 201, res.body);
      return { user, threadId: res.json().threadId as string };
    }

    test('HTTP requests over real HTTP: counted by route pattern and status, with a latency histogram', async () => {
      const { ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const get = (path: string, key = user.key) => fetch(`${apiBase}${path}`, { headers: { authorization: `Bearer ${key}` } });
      const created = await fetch(`${apiBase}/api/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ providerId: provider.id, scheduleAt: '2026-11-22T13:00:00Z', posts: [{ text: 'hello' }] }),
      });
      assert.equal(created.status, 201);
      const { threadId } = (await created.json()) as { threadId: string };
      assert.equal((await get(`/api/v1/posts/${threadId}`)).status, 200);
      assert.equal((await get(`/api/v1/posts/${threadId}`)).status, 200);
      assert.equal((await get(`/api/v1/posts/${newId()}`)).status, 404);
      assert.equal((await get(`/api/v1/posts/${threadId}`, 'sk_wrong')).status, 401);
      assert.equal((await get('/api/no/such/path')).status, 404);

      const text = await scrape();
      const route = '/api/v1/posts/:threadId';
      assert.equal(sample(text, 'skein_http_requests_total', { route, method: 'GET', status: '200' }), 2);
      assert.equal(sample(text, 'skein_http_requests_total', { route, method: 'GET', status: '404' }), 1);
      assert.equal(sample(text, 'skein_http_requests_total', { route, method: 'GET', status: '401' }), 1);
      assert.equal(sample(text, 'skein_http_requests_total', { route: '/api/v1/posts', method: 'POST', status: '201' }), 1);
      assert.equal(sample(text, 'skein_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }), 1);
      assert.equal(sample(text, 'skein_http_request_duration_seconds_count', { route, method: 'GET', status: '200' }), 2);
      assert.equal(sample(text, 'skein_http_request_duration_seconds_bucket', { route, method: 'GET', status: '200', le: '+Inf' }), 2);
      assert.ok(sample(text, 'skein_http_request_duration_seconds_sum', { route, method: 'GET', status: '200' })! > 0);
      assert.ok(!text.includes(threadId), 'no raw URL (or id) becomes a label');
      assert.ok(!text.includes('/api/no/such/path'));
    });

    test('not on the API port', async () => {
      // There, /metrics is a path of the web app (its index.html when built), never the metrics.
      const res = await fetch(`${apiBase}/metrics`);
      assert.doesNotMatch(String(res.headers.get('content-type')), /^text\/plain/);
      assert.doesNotMatch(await res.text(), /skein_http/);
      assert.equal((await fetch(`${apiBase}/api/metrics`)).status, 404);
      assert.equal((await fetch(`http://127.0.0.1:${server.port}/other`)).status, 404);
    });

    test('publishes: attempts, successes and failures by network and kind, lateness of the first post', async (t) => {
      const { ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const fake = new FakePlatform();
      const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w-metrics');
      const before = await scrape();
      const count = (text: string, name: string, labels: Labels) => sample(text, name, labels) ?? 0;
      await scheduled(['one', 'two', 'three'], '2026-11-22T12:00:30Z');
      clock.set('2026-11-22T12:01:42Z'); // 72 s late
      assert.equal(await loop.runOnce(), 1);
      let text = await scrape();
      const threads = { network: 'threads' };
      assert.equal(count(text, 'skein_publish_attempts_total', threads) - count(before, 'skein_publish_attempts_total', threads), 3);
      assert.equal(count(text, 'skein_publish_successes_total', threads) - count(before, 'skein_publish_successes_total', threads), 3);
      assert.equal(count(text, 'skein_publish_lateness_seconds_count', threads) - count(before, 'skein_publish_lateness_seconds_count', threads), 1);
      assert.equal(count(text, 'skein_publish_lateness_seconds_sum', threads) - count(before, 'skein_publish_lateness_seconds_sum', threads), 72);
      assert.equal(
        count(text, 'skein_publish_lateness_seconds_bucket', { ...threads, le: '60' }),
        count(before, 'skein_publish_lateness_seconds_bucket', { ...threads, le: '60' }),
      );
      assert.equal(
        count(text, 'skein_publish_lateness_seconds_bucket', { ...threads, le: '120' }) -
          count(before, 'skein_publish_lateness_seconds_bucket', { ...threads, le: '120' }),
        1,
      );

      // A transient failure (retried later), then a permanent one (the thread fails).
      await scheduled(['x'], '2026-11-22T12:01:00Z');
      fake.faults.push(new PublishError('transient', 'HTTP_503', 'try later'), new PublishError('permanent', 'BAD', 'no'));
      await loop.runOnce();
      clock.advance(60_000); // past the retry's backoff (5 s ± 25 %), not yet at other tests' threads
      await loop.runOnce();
      text = await scrape();
      for (const kind of ['transient', 'permanent']) {
        assert.equal(
          count(text, 'skein_publish_failures_total', { ...threads, kind }) - count(before, 'skein_publish_failures_total', { ...threads, kind }),
          1,
          kind,
        );
      }
      assert.equal(count(text, 'skein_publish_attempts_total', threads) - count(before, 'skein_publish_attempts_total', threads), 5);
      assert.equal(
        count(text, 'skein_publish_lateness_seconds_count', threads) - count(before, 'skein_publish_lateness_seconds_count', threads),
        1,
        'no lateness without a first post published',
      );
    });

    test('lease takeovers: a claim of a thread or job whose lease had expired', async (t) => {
      const { ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const takeovers = async (kind: string) => sample(await scrape(), 'skein_lease_takeovers_total', { kind }) ?? 0;
      const threadsBefore = await takeovers('thread');
      const jobsBefore = await takeovers('job');
      const { threadId } = await scheduled(['taken over'], '2026-11-22T12:00:10Z');
      clock.set('2026-11-22T12:00:20Z');
      const leaseMs = ctx.config.publisher.leaseMs;
      // The first claim takes a READY thread: no takeover.
      assert.deepEqual(
        (await claimDue(threadQueue, { db: ctx.db, workerId: 'crasher', now: clock.now(), leaseMs, metrics: ctx.metrics }, 10)).map((r) => r.id),
        [threadId],
      );
      assert.equal(await takeovers('thread'), threadsBefore);
      clock.advance(leaseMs + 1000);
      const fake = new FakePlatform();
      assert.equal(await new PublisherLoop(ctx, { THREADS: fake }, 'w-takeover').runOnce(), 1);
      assert.equal(await takeovers('thread'), threadsBefore + 1);

      // The thread's follow-up jobs: claimed, then the claimer dies; the next claim takes them over.
      await ctx.db.updateTable('jobs').set({ run_at: clock.now() }).where('thread_id', '=', threadId).execute();
      const jobs = await claimDue(jobQueue, { db: ctx.db, workerId: 'crasher', now: clock.now(), leaseMs, metrics: ctx.metrics }, 10);
      assert.ok(jobs.length >= 1);
      assert.equal(await takeovers('job'), jobsBefore);
      clock.advance(leaseMs + 1000);
      const retaken = await claimDue(jobQueue, { db: ctx.db, workerId: 'w-takeover', now: clock.now(), leaseMs, metrics: ctx.metrics }, 10);
      assert.equal(retaken.length, jobs.length);
      assert.equal(await takeovers('job'), jobsBefore + jobs.length);
    });

    test('due-but-unpublished threads and due jobs: gauges read from the database at scrape time', async (t) => {
      const { ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      clock.set('2026-11-23T08:00:00Z');
      // Whatever earlier tests left due is handed over to a state the gauges ignore.
      await ctx.db
        .updateTable('threads')
        .set({ status: 'FAILED', locked_by: null, locked_until: null })
        .where('status', 'in', ['READY', 'PUBLISHING'])
        .execute();
      await ctx.db.updateTable('jobs').set({ status: 'DONE', locked_by: null, locked_until: null }).execute();
      let text = await scrape();
      assert.equal(sample(text, 'skein_threads_due_unpublished'), 0);
      assert.equal(sample(text, 'skein_jobs_due'), 0);

      const a = await scheduled(['due'], '2026-11-23T08:59:00Z');
      const b = await scheduled(['due too'], '2026-11-23T08:30:00Z');
      await scheduled(['not yet'], '2026-11-23T09:30:00Z');
      clock.set('2026-11-23T09:00:00Z');
      // One of the due ones is being published (PUBLISHING still counts).
      assert.equal((await claimDue(threadQueue, { db: ctx.db, workerId: 'w-gauge', now: clock.now(), leaseMs: 60_000 }, 1)).length, 1);
      text = await scrape();
      assert.equal(sample(text, 'skein_threads_due_unpublished'), 2);

      const job = (runAt: string, status: 'PENDING' | 'RUNNING' = 'PENDING') => ({
        id: newId(),
        kind: 'ANALYTICS' as const,
        thread_id: a.threadId,
        status,
        run_at: new Date(runAt),
        locked_by: null,
        locked_until: null,
        last_error: null,
        network_container_id: null,
        network_post_id: null,
        network_cid: null,
        created_at: clock.now(),
        updated_at: clock.now(),
      });
      await ctx.db
        .insertInto('jobs')
        .values([job('2026-11-23T08:00:00Z'), { ...job('2026-11-23T08:10:00Z'), thread_id: b.threadId }, { ...job('2026-11-23T10:00:00Z'), kind: 'REPOST' }])
        .execute();
      text = await scrape();
      assert.equal(sample(text, 'skein_jobs_due'), 2);
      // Time moves: the scrape reads the database again, at the context's clock.
      clock.set('2026-11-23T11:00:00Z');
      text = await scrape();
      assert.equal(sample(text, 'skein_threads_due_unpublished'), 3);
      assert.equal(sample(text, 'skein_jobs_due'), 3);
    });
  },
  withMetrics,
);

describe('GET /metrics: rate-limit refusals by scope', () => {
  let env: Awaited<ReturnType<typeof createTestEnv>>;
  before(async () => {
    env = await createTestEnv('pglite', {
      realRateLimits: true,
      config: (c) => ({ ...withMetrics.config(c), rateLimit: { ...c.rateLimit, perAccount: 2, perIp: 5 } }),
    });
  });
  after(() => env.close());

  test('a refusal by the account limit and one by the IP limit', async () => {
    const { ctx, app } = env;
    const user = await createUser(ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2026-11-22T00:00:00Z&to=2026-11-23T00:00:00Z' })).statusCode);
    assert.deepEqual(statuses, [200, 200, 429]);
    let text = await ctx.metrics.scrape();
    assert.equal(sample(text, 'skein_rate_limit_refusals_total', { scope: 'account' }), 1);
    assert.equal(sample(text, 'skein_rate_limit_refusals_total', { scope: 'ip' }), undefined);
    // 2 counted on the IP so far: 3 more pass, the 4th is refused by the IP limit.
    for (let i = 0; i < 4; i++) statuses.push((await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).statusCode);
    assert.deepEqual(statuses.slice(3), [200, 200, 200, 429]);
    text = await ctx.metrics.scrape();
    assert.equal(sample(text, 'skein_rate_limit_refusals_total', { scope: 'ip' }), 1);
    assert.equal(sample(text, 'skein_rate_limit_refusals_total', { scope: 'account' }), 1);
  });
});

describe('/readyz: a stalled publisher', () => {
  let env: Awaited<ReturnType<typeof createTestEnv>>;
  before(async () => {
    env = await createTestEnv('pglite');
  });
  after(() => env.close());

  test('no tick for more than a minute: 503 NOT_READY naming the stall; a tick: 200', async () => {
    const { ctx, app, clock } = env;
    const readyz = () => app.inject({ method: 'GET', url: '/readyz' });
    // No publisher in this process (yet): time passing changes nothing.
    clock.advance(10 * 60_000);
    assert.equal((await readyz()).statusCode, 200);

    const loop = new PublisherLoop(ctx, { THREADS: new FakePlatform() }, 'w-ready');
    assert.equal(await loop.runOnce(), 0); // a tick
    clock.advance(60_000);
    assert.equal((await readyz()).statusCode, 200, 'a minute exactly is not yet a stall');
    clock.advance(1_000);
    const res = await readyz();
    assert.equal(res.statusCode, 503);
    assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(res.json().code, 'NOT_READY');
    assert.match(res.json().detail, /publisher loop has not ticked for 61 s/);

    await loop.runOnce();
    assert.equal((await readyz()).statusCode, 200);
  });
});
