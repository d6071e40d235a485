import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claimDue } from '../../src/publisher/claim.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { takeOverWorkOfDeadProcesses } from '../../src/publisher/runner.js';
import { jobQueue } from '../../src/repos/jobs.js';
import { threadQueue } from '../../src/repos/thread-queue.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { createProvider, createUser } from '../helpers/seeds.js';

/**
 * A process died holding leases (a thread mid-publish, then a job). On the embedded database a
 * new process takes them over at start, not a lease period later, through the normal takeover
 * (the post whose outcome was unknown is found on the network, not posted again). On PostgreSQL
 * the holder may be a live worker elsewhere: its leases are left to run out, within 30 s by default.
 */
describeEachDb('work of a process that died, at the next start', (env) => {
  test('threads and jobs are taken over at once on the embedded database, after the lease on PostgreSQL; nothing twice', async () => {
    const { ctx, app, clock, kind } = env();
    const fake = new FakePlatform();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const created = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, scheduleAt: '2026-11-22T12:00:30Z', posts: ['a', 'b', 'c'].map((text) => ({ text })) },
    });
    assert.equal(created.statusCode, 201, created.body);
    const threadId: string = created.json().threadId;
    const view = async () => (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread;
    clock.advance(60_000);

    // The dead process claimed the thread, published "a" and recorded it, published "b" and died
    // before recording it: only the network knows "b" is out.
    assert.equal((await claimDue(threadQueue, { db: ctx.db, workerId: 'dead', now: clock.now(), leaseMs: ctx.config.publisher.leaseMs }, 10)).length, 1);
    const posts = (await view()).posts as Array<{ id: string; content: string }>;
    const publishOnFake = (i: number, replyTo: string | null) =>
      fake.publishPost({
        account: { providerUserId: provider.provider_user_id } as never,
        post: {
          id: posts[i]!.id,
          text: posts[i]!.content,
          topic: null,
          media: [],
          spoilerRanges: [],
          isSpoilerMedia: false,
          linkPreview: true,
          writtenAt: clock.now(),
        },
        replyTo: replyTo
          ? {
              root: { networkPostId: fake.published[0]!.networkPostId, cid: null, permalink: null },
              parent: { networkPostId: replyTo, cid: null, permalink: null },
            }
          : null,
        progress: { containerId: null, networkPostId: null, cid: null },
        onProgress: async () => {},
        confirmLease: async () => {},
      });
    const a = await publishOnFake(0, null);
    await ctx.db
      .updateTable('posts')
      .set({ status: 'PUBLISHED', network_post_id: a.networkPostId, permalink: a.permalink, published_at: clock.now() })
      .where('id', '=', posts[0]!.id)
      .execute();
    await publishOnFake(1, a.networkPostId);

    const next = new PublisherLoop(ctx, { THREADS: fake }, 'next');
    const ended = await takeOverWorkOfDeadProcesses(ctx);
    if (kind === 'pglite') {
      assert.deepEqual(ended, { threads: 1, jobs: 0, followUps: 0, webhookDeliveries: 0, emails: 0 });
      assert.equal(await next.runOnce(), 1, 'taken over at once');
    } else {
      assert.equal(ended, null);
      assert.equal(await next.runOnce(), 0, 'a live worker may hold it: not taken over');
      assert.equal((await view()).status, 'PUBLISHING');
      // By default a lease lasts 30 s: the dead worker's last renewal was at most at its crash.
      clock.advance(30_001);
      assert.equal(await next.runOnce(), 1, 'taken over once the lease ran out, within 30 s of the crash');
    }
    const thread = await view();
    assert.equal(thread.status, 'PUBLISHED');
    const mine = fake.published.filter((p) => posts.some((q) => q.id === p.postId));
    assert.deepEqual(
      mine.map((p) => p.text),
      ['a', 'b', 'c'],
      'each post exactly once, in order',
    );
    assert.deepEqual(
      mine.map((p) => p.replyTo),
      [null, mine[0]!.networkPostId, mine[1]!.networkPostId],
    );

    // Then the process that published it died running the thread's analytics job.
    const job = await ctx.db.selectFrom('jobs').selectAll().where('thread_id', '=', threadId).where('kind', '=', 'ANALYTICS').executeTakeFirstOrThrow();
    clock.set(job.run_at);
    assert.equal((await claimDue(jobQueue, { db: ctx.db, workerId: 'dead-too', now: clock.now(), leaseMs: ctx.config.publisher.leaseMs }, 10)).length, 1);
    const after = await takeOverWorkOfDeadProcesses(ctx);
    if (kind === 'pglite') {
      assert.deepEqual(after, { threads: 0, jobs: 1, followUps: 0, webhookDeliveries: 0, emails: 0 });
      assert.equal(await next.runOnce(), 1, 'the job is taken over at once');
    } else {
      assert.equal(after, null);
      assert.equal(await next.runOnce(), 0);
      clock.advance(30_001);
      assert.equal(await next.runOnce(), 1, 'the job is taken over within 30 s of the crash');
    }
    const done = await ctx.db.selectFrom('jobs').select(['status', 'locked_by']).where('id', '=', job.id).executeTakeFirstOrThrow();
    assert.notEqual(done.status, 'RUNNING');
    assert.deepEqual([...fake.analyticsCalls].sort(), mine.map((p) => p.networkPostId).sort(), 'one analytics run: each post read once');
  });
});
