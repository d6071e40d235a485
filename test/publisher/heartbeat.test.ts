/**
 * The worker's heartbeat: while it publishes several threads at once, one timer renews every
 * lease it holds, so another worker does not take a thread over (and count an attempt against
 * it) just because its network call was slow.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { createProvider, createUser } from '../helpers/seeds.js';

const LEASE_MS = 1_500;

describeEachDb(
  'worker heartbeat',
  (env) => {
    test('threads published at once keep their leases while they take longer than a lease', async () => {
      const { ctx, app, clock } = env();
      const user = await createUser(ctx);
      const ids: string[] = [];
      // Two accounts: a worker has at most one thread per account in flight.
      for (const text of ['slow one', 'slow two']) {
        const provider = await createProvider(ctx, user.account);
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
      /** Until the heartbeat has extended both leases from `now` (it runs on a real timer). */
      const renewedAt = async (now: number) => {
        for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(10)) {
          const rows = await ctx.db.selectFrom('threads').select('locked_until').where('id', 'in', ids).execute();
          if (rows.every((r) => r.locked_until !== null && r.locked_until.getTime() >= now + LEASE_MS)) return;
        }
        throw new Error('the heartbeat did not renew the leases within 30 s');
      };
      let otherClaimed = 0;
      let arrived = 0;
      let openGate = () => {};
      const gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
      fake.beforePublish = async () => {
        // The first call waits for the second, so both threads are in flight at once.
        if (++arrived === 1) return gate;
        // Twice the lease passes (on the injected clock) while both posts are out. After each
        // step the test waits for the heartbeat's renewal itself, not for a fixed real time that
        // a loaded machine may overrun: the other worker then finds both leases held.
        for (let i = 0; i < 4; i++) {
          clock.advance(LEASE_MS / 2);
          await renewedAt(clock.now().getTime());
          otherClaimed += await other.runOnce();
        }
        openGate();
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
      assert.deepEqual(fake.published.map((p) => p.text).sort(), ['slow one', 'slow two']);
      assert.equal(fake.maxInFlight, 2);
    });
  },
  { config: (c) => ({ ...c, publisher: { ...c.publisher, leaseMs: LEASE_MS } }) },
);
