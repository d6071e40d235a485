import assert from 'node:assert/strict';
import { test } from 'node:test';
import { personalWorkspace } from '../../../src/lib/workspace.js';
import { PublishError } from '../../../src/networks/platform.js';
import { claimDue } from '../../../src/publisher/claim.js';
import { jobQueue } from '../../../src/repos/jobs.js';
import { addProvider } from '../../../src/services/providers/providers.js';
import { describeEachDb } from '../../helpers/context.js';
import { DAY, HOUR, publishedThread, runAt } from '../../helpers/jobs.js';

describeEachDb('auto-repost job', (env) => {
  test('reposts the first post once, exactly when the delay has passed', async () => {
    const t = await publishedThread(env(), { texts: ['a', 'b', 'c'], autoRepostHours: 2 });
    const due = t.publishedAt.getTime() + 2 * HOUR;
    assert.equal((await t.job('REPOST'))?.run_at.toISOString(), new Date(due).toISOString());
    await runAt(env(), t.loop, due - 1000);
    assert.deepEqual(t.fake.repostCalls, [], 'not before the delay');
    await runAt(env(), t.loop, due);
    assert.deepEqual(t.fake.reposted, [t.networkIds[0]], 'the first post, once');
    assert.equal((await t.job('REPOST'))?.status, 'DONE');
    await runAt(env(), t.loop, due + 1000);
    await runAt(env(), t.loop, due + 10 * DAY);
    assert.equal(t.fake.repostCalls.length, 1, 'never again');
  });

  test('no repost job, and no repost, without autoRepost', async () => {
    const t = await publishedThread(env());
    assert.equal(await t.job('REPOST'), undefined);
    for (const hours of [1, 24, 168, 200]) await runAt(env(), t.loop, t.publishedAt.getTime() + hours * HOUR);
    assert.deepEqual(t.fake.repostCalls, []);
  });

  test('a worker that crashed after reposting: its lease runs out and the job ends with one repost', async () => {
    const { ctx, clock } = env();
    const t = await publishedThread(env(), { autoRepostHours: 3 });
    clock.set(t.publishedAt.getTime() + 3 * HOUR);
    // The crashing worker claims every due job, reposts, and dies before recording it.
    const claimed = await claimDue(jobQueue, { db: ctx.db, workerId: 'crasher', now: clock.now(), leaseMs: ctx.config.publisher.leaseMs }, 10);
    const job = claimed.find((j) => j.kind === 'REPOST')!;
    assert.ok(job);
    await t.fake.repost({} as never, { networkPostId: t.networkIds[0]!, cid: null, permalink: null });
    await t.loop.runOnce();
    assert.equal(t.fake.repostCalls.length, 1, 'the lease is still held');
    assert.equal((await t.job('REPOST'))?.status, 'RUNNING');
    await runAt(env(), t.loop, clock.now().getTime() + ctx.config.publisher.leaseMs + 1000);
    assert.equal(t.fake.repostCalls.length, 2, 'asked again: the outcome was never recorded');
    assert.deepEqual(t.fake.reposted, [t.networkIds[0]], 'one repost on the network');
    const done = (await t.job('REPOST'))!;
    assert.equal(done.status, 'DONE');
    assert.equal(done.attempts, 2);
    await runAt(env(), t.loop, clock.now().getTime() + DAY);
    assert.equal(t.fake.repostCalls.length, 2);
  });

  test('a lost response and a 503 are retried with growing backoff; still one repost', async () => {
    const { clock } = env();
    const t = await publishedThread(env(), { autoRepostHours: 1 });
    t.fake.repostFaults.push({ dropResponse: true }, new PublishError('transient', 'HTTP_503', 'unavailable'));
    const due = t.publishedAt.getTime() + HOUR;
    await runAt(env(), t.loop, due);
    let job = (await t.job('REPOST'))!;
    assert.equal(job.status, 'PENDING');
    assert.equal(job.last_error, 'TIMEOUT: response lost');
    assert.ok(job.run_at.getTime() >= due + 45_000 && job.run_at.getTime() <= due + 75_000, `first backoff ~1 min, got ${job.run_at.toISOString()}`);
    await t.loop.runOnce();
    assert.equal(t.fake.repostCalls.length, 1, 'not before the backoff');
    await runAt(env(), t.loop, job.run_at);
    job = (await t.job('REPOST'))!;
    assert.equal(job.last_error, 'HTTP_503: unavailable');
    const waited = job.run_at.getTime() - clock.now().getTime();
    assert.ok(waited >= 90_000 && waited <= 150_000, `second backoff ~2 min, got ${waited} ms`);
    await runAt(env(), t.loop, job.run_at);
    assert.equal((await t.job('REPOST'))?.status, 'DONE');
    assert.equal(t.fake.repostCalls.length, 3);
    assert.deepEqual(t.fake.reposted, [t.networkIds[0]]);
  });

  test('an auth error marks the provider EXPIRED and stops the job', async () => {
    const { app } = env();
    const t = await publishedThread(env(), { autoRepostHours: 1 });
    t.fake.repostFaults.push(new PublishError('auth', 'TOKEN_EXPIRED', 'Error validating access token'));
    await runAt(env(), t.loop, t.publishedAt.getTime() + HOUR);
    const job = (await t.job('REPOST'))!;
    assert.equal(job.status, 'FAILED');
    assert.equal(job.last_error, 'TOKEN_EXPIRED: Error validating access token');
    const providers = (await t.user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
    assert.equal(providers.find((p: { id: string }) => p.id === t.providerId).status, 'EXPIRED');
    await runAt(env(), t.loop, t.publishedAt.getTime() + 2 * DAY);
    assert.equal(t.fake.repostCalls.length, 1);
  });

  test('an auth error after the account was reconnected with a new token leaves the provider ACTIVE', async () => {
    const { ctx, app } = env();
    const t = await publishedThread(env(), { autoRepostHours: 1 });
    const before = await ctx.db.selectFrom('providers').selectAll().where('id', '=', t.providerId).executeTakeFirstOrThrow();
    // While the repost call is on its way, the user reconnects the account (a new token); then
    // the network refuses the old token the job was sent with.
    t.fake.repost = async () => {
      await addProvider(ctx, before.account_id, personalWorkspace(before.account_id), {
        kind: 'THREADS',
        providerUserId: before.provider_user_id,
        username: before.username,
        accessToken: 'token-after-reconnect',
      });
      throw new PublishError('auth', 'TOKEN_EXPIRED', 'Error validating access token');
    };
    await runAt(env(), t.loop, t.publishedAt.getTime() + HOUR);
    assert.equal((await t.job('REPOST'))?.status, 'FAILED');
    const providers = (await t.user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
    assert.equal(providers.find((p: { id: string }) => p.id === t.providerId).status, 'ACTIVE', 'the reconnected account stays ACTIVE');
  });

  test('a permanent error fails the job at once', async () => {
    const t = await publishedThread(env(), { autoRepostHours: 1 });
    t.fake.repostFaults.push(new PublishError('permanent', 'MEDIA_NOT_FOUND', 'The post no longer exists'));
    await runAt(env(), t.loop, t.publishedAt.getTime() + HOUR);
    const job = (await t.job('REPOST'))!;
    assert.equal(job.status, 'FAILED');
    assert.equal(job.last_error, 'MEDIA_NOT_FOUND: The post no longer exists');
  });
});
