import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublishError } from '../../../src/networks/platform.js';
import { claimDue } from '../../../src/publisher/claim.js';
import { enqueueFollowUpJobs } from '../../../src/publisher/jobs/enqueue.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { jobQueue } from '../../../src/repos/jobs.js';
import { describeEachDb } from '../../helpers/context.js';
import { FakePlatform } from '../../helpers/fakes/platform.js';
import { DAY, HOUR, MINUTE, publishedThread, runAt, START } from '../../helpers/jobs.js';
import { createProvider, createUser } from '../../helpers/seeds.js';

describeEachDb('follow-up jobs', (env) => {
  const jobsOf = (threadId: string) => env().ctx.db.selectFrom('jobs').selectAll().where('thread_id', '=', threadId).orderBy('kind').execute();

  test('publishing enqueues each job once; enqueueing again adds nothing', async () => {
    const { ctx, clock } = env();
    const t = await publishedThread(env(), { autoRepostHours: 5, plug: { text: 'plug', minLikes: 3 } });
    const jobs = await jobsOf(t.threadId);
    assert.deepEqual(
      jobs.map((j) => [j.kind, j.status, j.attempts]),
      [
        ['ANALYTICS', 'PENDING', 0],
        ['PLUG', 'PENDING', 0],
        ['REPOST', 'PENDING', 0],
      ],
    );
    await enqueueFollowUpJobs(ctx.db, t.threadId, clock.now());
    assert.deepEqual(
      (await jobsOf(t.threadId)).map((j) => j.id),
      jobs.map((j) => j.id),
    );
  });

  test('a thread that fails gets no jobs', async () => {
    const { ctx, app, clock } = env();
    await ctx.db.deleteFrom('jobs').execute();
    clock.set(START);
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const created = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, scheduleAt: '2026-11-22T12:00:30Z', posts: [{ text: 'x' }], autoRepost: { enabled: true, delays: ['1'] } },
    });
    assert.equal(created.statusCode, 201, created.body);
    const threadId = created.json().threadId as string;
    fake.faults.push(new PublishError('permanent', 'REJECTED', 'no'));
    clock.advance(MINUTE);
    await loop.runOnce();
    // The thread was claimed, published and refused (an empty job list alone would also hold
    // if the loop had not run at all).
    assert.equal(fake.calls.length, 1, 'the loop tried to publish the post');
    assert.deepEqual(fake.faults, [], 'the refusal was used');
    const thread = await ctx.db.selectFrom('threads').select(['status', 'last_error']).where('id', '=', threadId).executeTakeFirstOrThrow();
    assert.equal(thread.status, 'FAILED');
    assert.match(thread.last_error ?? '', /REJECTED|no/);
    assert.deepEqual(await jobsOf(threadId), []);
  });

  test('deleting the thread removes its jobs', async () => {
    const { app } = env();
    const t = await publishedThread(env(), { autoRepostHours: 1 });
    assert.equal((await jobsOf(t.threadId)).length, 2);
    const res = await t.user.call(app, { method: 'DELETE', url: `/api/v1/posts/${t.threadId}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await jobsOf(t.threadId), []);
    await runAt(env(), t.loop, t.publishedAt.getTime() + 2 * DAY);
    assert.deepEqual(t.fake.repostCalls, []);
    assert.deepEqual(t.fake.analyticsCalls, []);
  });

  test('concurrent claims take disjoint jobs, and a held lease is not claimed again', async () => {
    const { ctx, clock } = env();
    const t = await publishedThread(env(), { autoRepostHours: 1, plug: { text: 'plug', minLikes: 3 } });
    clock.set(t.publishedAt.getTime() + HOUR);
    const lease = ctx.config.publisher.leaseMs;
    const [a, b] = await Promise.all([
      claimDue(jobQueue, { db: ctx.db, workerId: 'a', now: clock.now(), leaseMs: lease }, 2),
      claimDue(jobQueue, { db: ctx.db, workerId: 'b', now: clock.now(), leaseMs: lease }, 2),
    ]);
    const ids = [...a!, ...b!].map((j) => j.id).sort();
    assert.deepEqual(ids, (await jobsOf(t.threadId)).map((j) => j.id).sort(), 'all three claimed, none twice');
    assert.deepEqual(await claimDue(jobQueue, { db: ctx.db, workerId: 'c', now: clock.now(), leaseMs: lease }, 10), []);
    clock.advance(lease + 1);
    assert.equal(
      (await claimDue(jobQueue, { db: ctx.db, workerId: 'c', now: clock.now(), leaseMs: lease }, 10)).length,
      3,
      'claimable again once the leases ran out',
    );
  });

  test('jobs outlive the process: a new worker with fresh network clients runs them', async () => {
    const { ctx } = env();
    const t = await publishedThread(env(), { autoRepostHours: 2 });
    const restarted = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: restarted }, 'after-restart');
    await runAt(env(), loop, t.publishedAt.getTime() + 2 * HOUR);
    assert.deepEqual(restarted.reposted, [t.networkIds[0]]);
    assert.deepEqual(t.fake.repostCalls, []);
  });

  test('a network this server does not publish to, or a provider no longer ACTIVE, stops the job', async () => {
    const { ctx } = env();
    const t = await publishedThread(env(), { autoRepostHours: 1 });
    await runAt(env(), new PublisherLoop(ctx, {}, 'no-networks'), t.publishedAt.getTime() + HOUR);
    assert.equal((await t.job('REPOST'))?.last_error?.split(':')[0], 'NETWORK_NOT_CONFIGURED');
    assert.equal((await t.job('ANALYTICS'))?.status, 'FAILED');
    const u = await publishedThread(env(), { autoRepostHours: 1 });
    await ctx.db.updateTable('providers').set({ status: 'REVOKED' }).where('id', '=', u.providerId).execute();
    await runAt(env(), u.loop, u.publishedAt.getTime() + HOUR);
    const job = (await u.job('REPOST'))!;
    assert.equal(job.status, 'FAILED');
    assert.equal(job.last_error?.split(':')[0], 'PROVIDER_REVOKED');
    const provider = await ctx.db.selectFrom('providers').select('status').where('id', '=', u.providerId).executeTakeFirstOrThrow();
    assert.equal(provider.status, 'REVOKED', 'left as it was');
    assert.deepEqual(u.fake.repostCalls, []);
  });
});
