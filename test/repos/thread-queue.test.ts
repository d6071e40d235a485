import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import { completeThread, failThread, threadQueue } from '../../src/repos/thread-queue.js';
import { describeEachDb } from '../helpers/context.js';
import { emptyQueues, insertThread, owner } from './queue/fixtures.js';

const START = '2026-11-22T12:00:00.000Z';
const MINUTE = 60_000;
const LEASE_MS = 5 * MINUTE;
const at = (ms: number) => new Date(Date.parse(START) + ms);

describeEachDb('the thread queue', (env) => {
  const lease = (workerId: string) => {
    const now = env().clock.now();
    return { workerId, now, until: new Date(now.getTime() + LEASE_MS) };
  };
  const postStatuses = async (threadId: string) =>
    (await env().ctx.db.selectFrom('posts').select('status').where('thread_id', '=', threadId).orderBy('post_order').execute()).map((p) => p.status);

  beforeEach(async () => {
    env().clock.set(START);
    await emptyQueues(env().ctx);
  });

  test('the claim marks the thread’s unpublished posts PUBLISHING in the same statement, and answers in schedule order', async () => {
    const { ctx } = env();
    const who = await owner(ctx);
    const later = await insertThread(ctx, who, { scheduledAt: at(-MINUTE), posts: 2 });
    const earlier = await insertThread(ctx, who, { scheduledAt: at(-2 * MINUTE), posts: 1 });
    const { rows } = await threadQueue.claim(ctx.db, lease('w1'), 10);
    assert.deepEqual(
      rows.map((r) => r.id),
      [earlier, later],
    );
    assert.deepEqual(await postStatuses(later), ['PUBLISHING', 'PUBLISHING']);
  });

  test('a draft is never due; a retry is due only after its backoff', async () => {
    const { ctx, clock } = env();
    const who = await owner(ctx);
    await insertThread(ctx, who, { scheduledAt: null });
    const retry = await insertThread(ctx, who, { scheduledAt: at(-MINUTE), nextAttemptAt: at(2 * MINUTE) });
    assert.equal((await threadQueue.nextDueAt(ctx.db))?.toISOString(), at(2 * MINUTE).toISOString());
    assert.deepEqual((await threadQueue.claim(ctx.db, lease('w1'), 10)).rows, []);
    clock.set(at(2 * MINUTE));
    assert.deepEqual(
      (await threadQueue.claim(ctx.db, lease('w1'), 10)).rows.map((r) => r.id),
      [retry],
    );
  });

  test('spread over providers: at most perAccount threads of one provider (connected account) in flight across workers, the least busy first', async () => {
    const { ctx } = env();
    const busy = await owner(ctx);
    const quiet = await owner(ctx);
    const busyThreads = [];
    for (let i = 0; i < 3; i++) busyThreads.push(await insertThread(ctx, busy, { scheduledAt: at(-10 * MINUTE + i) }));
    const quietThread = await insertThread(ctx, quiet, { scheduledAt: at(-MINUTE) });
    const spread = { perAccount: 1, lastServed: new Map<string, number>() };
    const first = await threadQueue.claim(ctx.db, lease('w1'), 10, spread);
    assert.deepEqual(first.rows.map((r) => r.id).sort(), [busyThreads[0], quietThread].sort(), 'one per provider');
    assert.deepEqual((await threadQueue.claim(ctx.db, lease('w2'), 10, spread)).rows, [], 'both providers have one in flight');
  });

  test('the claim reads the first due threads (its window) in schedule order; a window filled by busy accounts probes every account, so a quiet one is found', async () => {
    const { ctx } = env();
    const busy = [await owner(ctx), await owner(ctx)];
    const quiet = await owner(ctx);
    const first: string[] = [];
    for (let i = 0; i < 6; i++) {
      for (const [n, who] of busy.entries()) {
        const id = await insertThread(ctx, who, { scheduledAt: at(-10 * MINUTE + i * 2 + n) });
        if (i === 0) first.push(id);
      }
    }
    const quietThread = await insertThread(ctx, quiet, { scheduledAt: at(-MINUTE) });
    // A window of 4 holds only the busy accounts' threads: 2 usable (one each), fewer than the 3 asked for.
    const narrow = { perAccount: 1, lastServed: new Map<string, number>(), window: 4 };
    const claimed = await threadQueue.claim(ctx.db, lease('w1'), 3, narrow);
    assert.deepEqual(claimed.rows.map((r) => r.id).sort(), [...first, quietThread].sort(), 'one per account, the quiet one included');
    // Wider than the backlog, the window holds every due thread: exact without the probe.
    await emptyQueues(ctx);
    const a = await insertThread(ctx, busy[0]!, { scheduledAt: at(-3 * MINUTE) });
    await insertThread(ctx, busy[0]!, { scheduledAt: at(-2 * MINUTE) });
    const b = await insertThread(ctx, quiet, { scheduledAt: at(-MINUTE) });
    const wide = { perAccount: 1, lastServed: new Map<string, number>(), window: 100 };
    assert.deepEqual(
      (await threadQueue.claim(ctx.db, lease('w1'), 3, wide)).rows.map((r) => r.id),
      [a, b],
    );
  });

  test('completing: PUBLISHED with its follow-up jobs and follow-up replies’ due time in one statement; refused without the lease', async () => {
    const { ctx, clock } = env();
    const who = await owner(ctx);
    const threadId = await insertThread(ctx, who, { scheduledAt: at(-MINUTE), posts: 2 });
    await ctx.db.updateTable('threads').set({ auto_repost_delay_hours: 2 }).where('id', '=', threadId).execute();
    await ctx.db
      .insertInto('follow_ups')
      .values({
        id: newId(),
        thread_id: threadId,
        text: 'later',
        media: '[]',
        delay_minutes: 30,
        status: 'PENDING',
        due_at: null,
        run_at: null,
        locked_by: null,
        locked_until: null,
        last_error: null,
        network_container_id: null,
        network_post_id: null,
        network_cid: null,
        permalink: null,
        published_at: null,
        error_code: null,
        error_message: null,
        created_at: clock.now(),
        updated_at: clock.now(),
      })
      .execute();
    await threadQueue.claim(ctx.db, lease('w1'), 10);
    const firstAt = at(10_000);
    const lastAt = at(20_000);
    const posts = await ctx.db.selectFrom('posts').select('id').where('thread_id', '=', threadId).orderBy('post_order').execute();
    await ctx.db.updateTable('posts').set({ status: 'PUBLISHED', published_at: firstAt }).where('id', '=', posts[0]!.id).execute();
    await ctx.db.updateTable('posts').set({ status: 'PUBLISHED', published_at: lastAt }).where('id', '=', posts[1]!.id).execute();
    const plan = { analytics: { id: newId(), runAt: at(15 * MINUTE) }, repost: { id: newId() }, plug: { id: newId(), firstCheckMs: 15 * MINUTE } };

    assert.equal(await completeThread(ctx.db, threadId, 'w2', clock.now(), plan), undefined, 'w2 does not hold it');
    assert.equal((await ctx.db.selectFrom('jobs').select('id').where('thread_id', '=', threadId).execute()).length, 0);

    const completed = await completeThread(ctx.db, threadId, 'w1', clock.now(), plan);
    assert.equal(completed?.status, 'PUBLISHED');
    assert.equal(completed?.locked_by, null);
    assert.deepEqual(completed?.first_published_at, firstAt, 'the first post’s time, for analytics (migration 0036)');
    const jobs = await ctx.db.selectFrom('jobs').select(['id', 'kind', 'run_at']).where('thread_id', '=', threadId).orderBy('kind').execute();
    assert.deepEqual(jobs, [
      { id: plan.analytics.id, kind: 'ANALYTICS', run_at: plan.analytics.runAt },
      { id: plan.repost.id, kind: 'REPOST', run_at: new Date(firstAt.getTime() + 2 * 3600_000) },
    ]);
    const followUp = await ctx.db.selectFrom('follow_ups').select(['due_at', 'run_at']).where('thread_id', '=', threadId).executeTakeFirstOrThrow();
    const due = new Date(lastAt.getTime() + 30 * MINUTE);
    assert.deepEqual(followUp, { due_at: due, run_at: due });
    assert.equal(await completeThread(ctx.db, threadId, 'w1', clock.now(), plan), undefined, 'once only');
  });

  test('failing is refused without the lease', async () => {
    const { ctx, clock } = env();
    const who = await owner(ctx);
    const threadId = await insertThread(ctx, who, { scheduledAt: at(-MINUTE) });
    await threadQueue.claim(ctx.db, lease('w1'), 10);
    const error = { code: 'X', message: 'no' };
    assert.equal(await failThread(ctx.db, threadId, 'w2', error, clock.now()), false);
    assert.equal(await failThread(ctx.db, threadId, 'w1', error, clock.now()), true);
    const row = await ctx.db.selectFrom('threads').select(['status', 'last_error', 'locked_by']).where('id', '=', threadId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'FAILED', last_error: 'X: no', locked_by: null });
  });
});
