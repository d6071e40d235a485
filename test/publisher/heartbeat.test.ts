/**
 * The worker's heartbeat: while it works through a claimed batch, every lease it holds is
 * renewed, the thread in progress and those waiting their turn, so another worker does not take
 * a waiting thread over (and count an attempt against it) just because the first one was slow.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fake-platform.js';
import { createProvider, createUser } from '../helpers/seeds.js';

const LEASE_MS = 1_500;

describeEachDb(
  'worker heartbeat',
  (env) => {
    test('threads claimed together keep their leases while the first takes longer than a lease', async () => {
      const { ctx, app, clock } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const ids: string[] = [];
      for (const text of ['slow one', 'waiting one']) {
        const res = await user.call(app, {
          method: 'POST',
          url: '/api/v1/posts',
          payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: [{ text }] },
        });
        assert.equal(res.statusCode, 201, res.body);
        ids.push(res.json().threadId);
      }
      const fake = new FakePlatform();
      const worker = new PublisherLoop(ctx, { THREADS: fake }, 'slow-worker');
      const other = new PublisherLoop(ctx, { THREADS: fake }, 'other-worker');
      let otherClaimed = 0;
      let slowed = false;
      fake.beforePublish = async (post) => {
        if (post.text !== 'slow one' || slowed) return;
        slowed = true;
        // Twice the lease passes while the first post is out; the heartbeat runs in between.
        for (let i = 0; i < 4; i++) {
          clock.advance(LEASE_MS / 2);
          await sleep(LEASE_MS / 3 + 150);
          otherClaimed += await other.runOnce();
        }
      };
      assert.equal(await worker.runOnce(), 2);
      assert.equal(otherClaimed, 0, 'the other worker found nothing to take over');
      const rows = await ctx.db.selectFrom('threads').select(['status', 'attempts']).where('id', 'in', ids).execute();
      assert.deepEqual(
        rows.map((r) => [r.status, r.attempts]),
        [
          ['PUBLISHED', 1],
          ['PUBLISHED', 1],
        ],
      );
      assert.deepEqual(
        fake.published.map((p) => p.text),
        ['slow one', 'waiting one'],
      );
    });
  },
  { config: (c) => ({ ...c, publisher: { ...c.publisher, leaseMs: LEASE_MS } }) },
);
