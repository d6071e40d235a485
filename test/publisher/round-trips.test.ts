/**
 * Round trips to the database per published thread: counted at the driver, so publishing that
 * starts making more fails here. The claim marks the posts in the same statement; the thread's
 * provider and posts are read at once, in one statement each.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { createPlatforms } from '../../src/platforms/index.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { addProvider } from '../../src/services/providers.js';
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
      // 10: claim; provider and posts (read at once, two statements); post published (its webhook
      // event in the same statement); thread completed with its event, follow-up jobs and
      // follow-up replies' due time in one statement; the next claim (none due); the follow-up
      // replies' claim; the jobs' claim; the webhook deliveries' claim; the email queue's one
      // statement (email off here: closing what was written meanwhile) (the last five once per
      // round, not per thread). No lease renewal: the claim's lease is fresh (LeaseWatch).
      console.log('RT1', publisher.length, publisher.map((s) => s.slice(0, 90).replace(/\s+/g, ' ')).join('\n  '));
      assert.ok(publisher.length <= 10, `${publisher.length} round trips:\n${publisher.join('\n')}`);
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
      // 12: the 10 above, plus the container adopted (lease checked and extended in the same
      // statement) and the media id saved before the permalink is read. Network calls: quota,
      // container, publish, permalink (no status poll for a text container).
      console.log('RT2', publisher.length);
      assert.ok(publisher.length <= 12, `${publisher.length} round trips:\n${publisher.join('\n')}`);
      assert.deepEqual(
        graph.requests.slice(callsBefore).map((c) => c.endpoint),
        ['threads_publishing_limit', 'threads.create', 'threads_publish', 'object.get'],
      );
    });
  },
  { countRoundTrips: counter },
);
