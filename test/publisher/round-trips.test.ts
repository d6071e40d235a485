/**
 * Round trips to the database per published thread: counted at the driver, so publishing that
 * starts making more fails here. The claim marks the posts in the same statement; the claimed
 * threads' providers and posts are read in one statement per claim; the last post's publish and
 * the thread's completion are one statement.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { createPlatforms } from '../../src/networks/clients.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { RoundTripCounter } from '../helpers/round-trips.js';
import { createProvider, createUser } from '../helpers/seeds.js';

const counter = new RoundTripCounter();
let graph: FakeGraphApi;
before(async () => {
  graph = await FakeGraphApi.start();
});
after(() => graph.close());

describeEachDb(
  'publisher: round trips per thread',
  (env) => {
    test('claiming and publishing a one-post thread', async (t) => {
      const { app, ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: '2026-11-22T12:00:10', posts: [{ text: 'one' }] },
      });
      assert.equal(res.statusCode, 201, res.body);
      clock.advance(60_000);
      const fake = new FakePlatform();
      const loop = new PublisherLoop(ctx, { THREADS: fake }, 'counted');
      const measured = await counter.measure(async () => assert.equal(await loop.runOnce(), 1));
      assert.equal(fake.published.length, 1);
      const claims = measured.statements.filter((s) => /UPDATE threads AS t\s+SET status = 'PUBLISHING'/.test(s));
      assert.ok(claims.length >= 1);
      assert.ok(
        claims.every((s) => /UPDATE posts AS p SET status = 'PUBLISHING'/.test(s)),
        'the claim marks the posts itself',
      );
      // The API's NOTIFY for the create may arrive in the window on PostgreSQL: not the publisher's.
      const publisher = measured.statements.filter((s) => !/pg_notify/.test(s));
      // 8: claim; the claimed threads' providers and posts (one statement per claim); the last
      // post published and the thread completed, with both events, the follow-up jobs and the
      // follow-up replies' due time, in one statement; the next claim (none due: skipped when
      // the thread was done within 50 ms); the follow-up replies' claim; the jobs' claim; the
      // webhook deliveries' claim; the email queue's one statement (email off here: closing what
      // was written meanwhile) (the last five once per round, not per thread). No lease
      // renewal: the claim's lease is fresh (LeaseWatch).
      assert.ok(publisher.length <= 8, `${publisher.length} round trips:\n${publisher.join('\n')}`);
      const completions = publisher.filter((s) => /update "threads" set "status" = \$1, "published_at"/.test(s));
      assert.equal(completions.length, 1);
      assert.match(
        completions[0]!,
        /post_published" AS \(UPDATE posts AS p\s+SET status = 'PUBLISHED'/,
        'the last post is published by the completing statement',
      );
      assert.equal(publisher.filter((s) => /UPDATE posts AS p\s+SET status = 'PUBLISHED'/.test(s)).length, 1, 'no statement of its own for the post');
    });

    test('eight one-post threads of eight accounts: one statement each, besides what their claim and the round share', async (t) => {
      const { app, ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const user = await createUser(ctx);
      for (let i = 0; i < 8; i++) {
        const provider = await createProvider(ctx, user.account);
        const res = await user.call(app, {
          method: 'POST',
          url: '/api/v1/posts',
          payload: { providerId: provider.id, scheduleAt: '2026-11-22T12:00:10', posts: [{ text: `thread ${i}` }] },
        });
        assert.equal(res.statusCode, 201, res.body);
      }
      clock.advance(60_000);
      const fake = new FakePlatform();
      const loop = new PublisherLoop(ctx, { THREADS: fake }, 'counted-8');
      const measured = await counter.measure(async () => assert.equal(await loop.runOnce(), 8));
      assert.equal(fake.published.length, 8);
      const publisher = measured.statements.filter((s) => !/pg_notify/.test(s));
      const claims = publisher.filter((s) => /UPDATE threads AS t\s+SET status = 'PUBLISHING'/.test(s));
      const reads = publisher.filter((s) => /"post_parts"/.test(s));
      // One claim takes the eight; a later one finds nothing (at most one per 50 ms while threads are in flight).
      assert.ok(claims.length >= 1, 'claimed');
      assert.equal(reads.length, 1, 'one read for the claim that took threads');
      // Besides the claims, the read and the round's 4 other queues: one statement per thread.
      assert.equal(publisher.length - claims.length - reads.length - 4, 8, `${publisher.length} round trips:\n${publisher.join('\n')}`);
    });

    test('claiming and publishing a one-post thread to Threads (the fake Graph API)', async (t) => {
      const { app, ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const user = await createUser(ctx);
      const network = graph.createAccount(`counted${Date.now()}`);
      const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
        kind: 'THREADS',
        providerUserId: network.userId,
        username: 'counted',
        accessToken: network.accessToken,
      });
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: '2026-11-22T12:00:10', posts: [{ text: 'one to Threads' }] },
      });
      assert.equal(res.statusCode, 201, res.body);
      clock.advance(60_000);
      const loop = new PublisherLoop(
        ctx,
        createPlatforms({ ...ctx, config: { ...ctx.config, threads: { ...ctx.config.threads, apiUrl: graph.url } } }),
        'counted',
      );
      const callsBefore = graph.requests.length;
      const measured = await counter.measure(async () => assert.equal(await loop.runOnce(), 1));
      assert.deepEqual(
        graph.published.filter((p) => p.ownerId === network.userId).map((p) => p.text),
        ['one to Threads'],
      );
      const publisher = measured.statements.filter((s) => !/pg_notify/.test(s));
      // 10: the 8 above, plus the container adopted (lease checked and extended in the same
      // statement) and the media id saved before the permalink is read (so a crash during that
      // read cannot publish it twice). Network calls: quota, container, publish, permalink (no
      // status poll for a text container).
      assert.ok(publisher.length <= 10, `${publisher.length} round trips:\n${publisher.join('\n')}`);
      assert.deepEqual(
        graph.requests.slice(callsBefore).map((c) => c.endpoint),
        ['threads_publishing_limit', 'threads.create', 'threads_publish', 'object.get'],
      );
    });
  },
  { countRoundTrips: counter },
);
