/**
 * Round trips to the database per published thread (issue 9): counted at the driver, so they
 * cannot creep back. The claim marks the posts in the same statement; the thread's provider and
 * posts are read at once, in one statement each.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fake-platform.js';
import { RoundTripCounter } from '../helpers/round-trips.js';
import { createProvider, createUser } from '../helpers/seeds.js';

const counter = new RoundTripCounter();

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
      // 14: claim; provider and posts (read at once, two statements); lease renewal; post published
      // (its webhook event in the same statement); BEGIN, thread completed (with its event, and
      // RETURNING the row and the first post's time), follow-up jobs, follow-up replies' due time,
      // COMMIT; the next claim (none due); the follow-up replies' claim; the jobs' claim; the
      // webhook deliveries' claim (once per round, not per thread). 21 before issue 9.
      assert.ok(publisher.length <= 14, `${publisher.length} round trips:\n${publisher.join('\n')}`);
    });
  },
  { countRoundTrips: counter },
);
