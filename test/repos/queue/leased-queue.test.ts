import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { emailQueue } from '../../../src/repos/email.js';
import { followUpQueue } from '../../../src/repos/follow-ups.js';
import { jobQueue } from '../../../src/repos/jobs.js';
import type { LeasedQueue, QueueKey, QueueTableName } from '../../../src/repos/queue/leased-queue.js';
import { threadQueue } from '../../../src/repos/thread-queue.js';
import { deliveryQueue } from '../../../src/repos/webhook-deliveries.js';
import { describeEachDb } from '../../helpers/context.js';
import { emptyQueues, type QueueFixture, queueFixture } from './fixtures.js';

const START = '2026-11-22T12:00:00.000Z';
const MINUTE = 60_000;
const LEASE_MS = 5 * MINUTE;

/** Every queue, as the publisher sees it: the generic statements bound to its table. */
type AnyQueue = LeasedQueue<QueueTableName, never, Record<string, unknown>, []>;
const QUEUES = [threadQueue, jobQueue, followUpQueue, deliveryQueue, emailQueue] as unknown as AnyQueue[];

const at = (ms: number) => new Date(Date.parse(START) + ms);

describeEachDb('the leased queue', (env) => {
  for (const queue of QUEUES) {
    const { table, key: keyColumns } = queue.table;
    describe(table, () => {
      let fixture: QueueFixture;
      const keyOf = (row: Record<string, unknown>): QueueKey<string> => Object.fromEntries(keyColumns.map((k) => [k, String(row[k])]));
      const id = (key: Record<string, unknown>) => keyColumns.map((k) => key[k]).join('/');
      const ids = (rows: Record<string, unknown>[]) => rows.map(id).sort();
      const claim = (workerId: string, limit = 10) => {
        const now = env().clock.now();
        return queue.claim(env().ctx.db, { workerId, now, until: new Date(now.getTime() + LEASE_MS) }, limit);
      };

      beforeEach(async () => {
        const { ctx, clock } = env();
        clock.set(START);
        await emptyQueues(ctx);
        fixture = await queueFixture(ctx, table);
      });

      test('a claim takes the due rows only, each once, under a lease, the attempt counted', async () => {
        const { clock } = env();
        const first = await fixture.insert(at(-2 * MINUTE));
        const second = await fixture.insert(at(-MINUTE));
        const later = await fixture.insert(at(MINUTE));
        const claimed = await claim('w1');
        assert.deepEqual(ids(claimed.rows), ids([first, second]));
        assert.equal(claimed.takeovers, 0);
        assert.deepEqual(await fixture.lease(first), { status: queue.table.held, locked_by: 'w1', locked_until: at(LEASE_MS), attempts: 1 });
        assert.deepEqual(ids((await claim('w2')).rows), [], 'held under a live lease; the third is not due');
        clock.set(at(MINUTE));
        assert.deepEqual(ids((await claim('w2', 1)).rows), ids([later]), 'due at its time');
      });

      test('a claim takes the earliest due rows first, up to its limit', async () => {
        const late = await fixture.insert(at(-MINUTE));
        const early = await fixture.insert(at(-3 * MINUTE));
        await fixture.insert(at(-2 * MINUTE));
        assert.deepEqual(ids((await claim('w1', 1)).rows), ids([early]));
        assert.deepEqual(ids((await claim('w1', 1)).rows).length, 1);
        assert.deepEqual(ids((await claim('w1', 1)).rows), ids([late]));
      });

      test('concurrent claims never take the same row', async () => {
        for (let i = 0; i < 12; i++) await fixture.insert(at(-i * 1000));
        const claims = await Promise.all(['a', 'b', 'c', 'd'].map((w) => claim(w, 5)));
        const all = claims.flatMap((c) => ids(c.rows));
        assert.equal(new Set(all).size, all.length, 'no row in two claims');
        for (const [i, w] of ['a', 'b', 'c', 'd'].entries()) {
          for (const row of claims[i]!.rows) assert.equal((await fixture.lease(keyOf(row))).locked_by, w);
        }
      });

      test('a row locked by another transaction is skipped, not waited for', async (t) => {
        const { ctx, kind } = env();
        if (kind === 'pglite') return t.skip('PGlite is one connection: a second statement waits for the transaction');
        const locked = await fixture.insert(at(-2 * MINUTE));
        const free = await fixture.insert(at(-MINUTE));
        await ctx.db.transaction().execute(async (trx) => {
          let lock = trx.selectFrom(table as any).select('status');
          for (const [column, value] of Object.entries(locked)) lock = lock.where(column, '=', value);
          await lock.forUpdate().execute();
          assert.deepEqual(ids((await claim('w1')).rows), ids([free]));
        });
        assert.deepEqual(ids((await claim('w2')).rows), ids([locked]), 'claimable once the lock is released');
      });

      test('a lease that ran out is taken over; the worker that lost it is refused every change', async () => {
        const { ctx, clock } = env();
        const key = await fixture.insert(at(-MINUTE));
        await claim('w1');
        clock.set(at(LEASE_MS));
        const atLeaseEnd = await claim('w2');
        assert.equal(atLeaseEnd.rows.length, queue.table.takenOverAtLeaseEnd ? 1 : 0, 'at locked_until itself');
        clock.set(at(LEASE_MS + 1));
        const later = queue.table.takenOverAtLeaseEnd ? atLeaseEnd : await claim('w2');
        assert.deepEqual(ids(later.rows), ids([key]));
        assert.equal(later.takeovers, 1);
        assert.equal((await fixture.lease(key)).attempts, 2);

        const until = at(LEASE_MS + MINUTE * 10);
        assert.equal(await queue.renew(ctx.db, key, 'w1', until), false);
        await queue.renewAllOf(ctx.db, 'w1', until);
        assert.equal(await queue.release(ctx.db, key, 'w1', { status: queue.table.waiting }, clock.now()), undefined);
        assert.equal(await queue.handBack(ctx.db, key, 'w1', clock.now()), false);
        const lease = await fixture.lease(key);
        assert.equal(lease.locked_by, 'w2');
        assert.notEqual(lease.locked_until?.getTime(), until.getTime(), 'nothing renewed for w1');
        assert.equal(await queue.renew(ctx.db, key, 'w2', until), true);
        assert.equal((await fixture.lease(key)).locked_until?.getTime(), until.getTime());
      });

      test('the heartbeat renews only its own worker’s leases', async () => {
        const { ctx } = env();
        for (let i = 0; i < 3; i++) await fixture.insert(at(-i * 1000));
        const mine = (await claim('w1', 2)).rows;
        const theirs = (await claim('w2', 2)).rows;
        assert.equal(mine.length, 2);
        assert.equal(theirs.length, 1);
        const until = at(LEASE_MS * 2);
        await queue.renewAllOf(ctx.db, 'w1', until);
        for (const row of mine) assert.equal((await fixture.lease(keyOf(row))).locked_until?.getTime(), until.getTime());
        assert.equal((await fixture.lease(keyOf(theirs[0]!))).locked_until?.getTime(), at(LEASE_MS).getTime());
      });

      test('hand back: waiting again, claimable at once, the claim not counted; release ends the lease with the changes', async () => {
        const { ctx, clock } = env();
        const a = await fixture.insert(at(-MINUTE));
        const b = await fixture.insert(at(-MINUTE));
        await claim('w1');
        clock.set(at(1000));
        assert.equal(await queue.handBack(ctx.db, a, 'w1', clock.now()), true);
        assert.deepEqual(await fixture.lease(a), { status: queue.table.waiting, locked_by: null, locked_until: null, attempts: 0 });
        const released = await queue.release(ctx.db, b, 'w1', { status: queue.table.waiting }, clock.now());
        assert.equal(released?.locked_by, null);
        assert.deepEqual(ids((await claim('w2')).rows), ids([a, b]));
      });

      test('next due: the earliest due row, then the end of a lease', async () => {
        const { ctx, clock } = env();
        assert.equal(await queue.nextDueAt(ctx.db), null, 'nothing pending');
        await fixture.insert(at(5 * MINUTE));
        await fixture.insert(at(3 * MINUTE));
        assert.equal((await queue.nextDueAt(ctx.db))?.toISOString(), at(3 * MINUTE).toISOString());
        clock.set(at(3 * MINUTE));
        await claim('w1', 1);
        assert.equal((await queue.nextDueAt(ctx.db))?.toISOString(), at(5 * MINUTE).toISOString());
        clock.set(at(5 * MINUTE));
        await claim('w1', 1);
        assert.equal((await queue.nextDueAt(ctx.db))?.toISOString(), at(3 * MINUTE + LEASE_MS).toISOString(), 'the first lease runs out');
      });

      test('ending every lease makes the rows claimable at once, as after a crash', async () => {
        const { ctx, clock } = env();
        const key = await fixture.insert(at(-MINUTE));
        await claim('w1');
        assert.equal(await queue.endLeases(ctx.db, new Date(clock.now().getTime() - 1)), 1);
        const retaken = await claim('w2');
        assert.deepEqual(ids(retaken.rows), ids([key]));
        assert.equal(retaken.takeovers, 1);
        assert.equal((await fixture.lease(key)).locked_by, 'w2');
      });

      if (queue.table.containers) {
        test('a container is saved only by the lease holder, only over the expected one, before a post id', async () => {
          const { ctx, clock } = env();
          const key = await fixture.insert(at(-MINUTE));
          await claim('w1');
          const containerId = await containerRowOf(key);
          const until = at(LEASE_MS * 2);
          const adopt = (workerId: string, expected: string | null, next: string) =>
            queue.adoptContainer(
              ctx.db,
              key,
              workerId,
              { id: containerId, expected, next: { containerId: next, networkPostId: null, cid: null } },
              until,
              clock.now(),
            );
          assert.equal(await adopt('w2', null, 'c0'), false, 'not the holder');
          assert.equal(await adopt('w1', null, 'c1'), true);
          assert.equal((await fixture.lease(key)).locked_until?.getTime(), until.getTime(), 'the same statement extends the lease');
          assert.equal(await adopt('w1', null, 'c2'), false, 'c1 is saved now, not nothing');
          assert.equal(await adopt('w1', 'c1', 'c2'), true);
          await queue.recordFacts(ctx.db, containerId, { containerId: 'c1', networkPostId: 'stale', cid: null }, clock.now());
          assert.deepEqual(await networkState(containerId), { network_container_id: 'c2', network_post_id: null });
          await queue.recordFacts(ctx.db, containerId, { containerId: 'c2', networkPostId: 'p2', cid: null }, clock.now());
          assert.deepEqual(await networkState(containerId), { network_container_id: 'c2', network_post_id: 'p2' });
          assert.equal(await adopt('w1', 'c2', 'c3'), false, 'a post id is saved: nothing replaces its container');
        });
      }

      /** The row a queue row's network state is saved on: the row itself, or a thread's first post. */
      async function containerRowOf(key: Record<string, string>): Promise<string> {
        if (queue.table.containers?.parent !== 'thread_id') return key.id!;
        const post = await env().ctx.db.selectFrom('posts').select('id').where('thread_id', '=', key.id!).orderBy('post_order').executeTakeFirstOrThrow();
        return post.id;
      }

      async function networkState(containerId: string) {
        const containerTable = queue.table.containers!.table;
        return env()
          .ctx.db.selectFrom(containerTable)
          .select(['network_container_id', 'network_post_id'])
          .where('id', '=', containerId)
          .executeTakeFirstOrThrow();
      }
    });
  }
});
