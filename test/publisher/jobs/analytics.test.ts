import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublishError } from '../../../src/networks/platform.js';
import { describeEachDb } from '../../helpers/context.js';
import { DAY, HOUR, MINUTE, publishedThread, runAt } from '../../helpers/jobs.js';

describeEachDb('analytics refresh job', (env) => {
  test('analytics appear in Get Thread after the first refresh and are refreshed on schedule', async () => {
    const t = await publishedThread(env(), { texts: ['a', 'b'] });
    let likes = 3;
    t.fake.analyticsOf = (ref) => ({ views: 40, likes: ref.networkPostId === t.networkIds[0] ? likes : 1, replies: 2, reposts: 1, quotes: 0, shares: null });
    let view = await t.view();
    assert.deepEqual(
      view.posts.map((p: { analytics: unknown }) => p.analytics),
      [null, null],
      'null before the first refresh',
    );
    await runAt(env(), t.loop, t.publishedAt.getTime() + 9 * MINUTE);
    assert.deepEqual(t.fake.analyticsCalls, [], 'the first refresh is at +10 min');
    const first = (await t.job('ANALYTICS'))!.run_at;
    await runAt(env(), t.loop, first);
    view = await t.view();
    assert.deepEqual(view.posts[0].analytics, { views: 40, likes: 3, replies: 2, reposts: 1, quotes: 0, shares: null, fetchedAt: first.toISOString() });
    assert.equal(view.posts[1].analytics.likes, 1);
    likes = 8;
    const second = (await t.job('ANALYTICS'))!.run_at;
    assert.ok(second.getTime() >= t.publishedAt.getTime() + HOUR, 'next at +1 h');
    await runAt(env(), t.loop, second.getTime() - 1000);
    assert.equal((await t.view()).posts[0].analytics.likes, 3, 'not refreshed before its time');
    await runAt(env(), t.loop, second);
    view = await t.view();
    assert.equal(view.posts[0].analytics.likes, 8);
    assert.equal(view.posts[0].analytics.fetchedAt, second.toISOString());
  });

  test('refreshes 33 times in 30 days (+10 min, +1 h, +6 h, then daily), then stops', async () => {
    const t = await publishedThread(env(), { texts: ['a', 'b'] });
    const runs: number[] = [];
    for (let job = (await t.job('ANALYTICS'))!; job.status === 'PENDING'; job = (await t.job('ANALYTICS'))!) {
      runs.push(job.run_at.getTime() - t.publishedAt.getTime());
      await runAt(env(), t.loop, job.run_at);
    }
    assert.equal((await t.job('ANALYTICS'))?.status, 'DONE');
    assert.equal(runs.length, 33);
    const planned = [10 * MINUTE, HOUR, 6 * HOUR, ...Array.from({ length: 30 }, (_, i) => (i + 1) * DAY)];
    runs.forEach((offset, i) => {
      const gap = planned[i]! - (planned[i - 1] ?? 0);
      assert.ok(
        offset >= planned[i]! && offset <= planned[i]! + gap / 10,
        `refresh ${i} at +${offset} ms, planned +${planned[i]} ms (+10 % of the gap at most)`,
      );
    });
    assert.equal(t.fake.analyticsCalls.length, 33 * 2, 'one call per post per refresh');
    await runAt(env(), t.loop, t.publishedAt.getTime() + 60 * DAY);
    assert.equal(t.fake.analyticsCalls.length, 33 * 2);
  });

  test('a worker that was down catches up with one refresh, not every missed one', async () => {
    const t = await publishedThread(env(), { texts: ['a'] });
    // Past the 3-day refresh and its spread (at most 2.4 h).
    await runAt(env(), t.loop, t.publishedAt.getTime() + 3 * DAY + 3 * HOUR);
    assert.equal(t.fake.analyticsCalls.length, 1);
    const next = (await t.job('ANALYTICS'))!.run_at.getTime() - t.publishedAt.getTime();
    assert.ok(next >= 4 * DAY && next < 4 * DAY + DAY / 10, 'the next refresh is the next one on the schedule');
  });

  test('transient errors back off with growing delays; a success resets them', async () => {
    const t = await publishedThread(env(), { texts: ['a', 'b'] });
    t.fake.analyticsFaults.push(new PublishError('transient', 'HTTP_500', 'oops'), new PublishError('transient', 'HTTP_500', 'oops'));
    const first = (await t.job('ANALYTICS'))!.run_at;
    await runAt(env(), t.loop, first);
    let job = (await t.job('ANALYTICS'))!;
    assert.equal(job.status, 'PENDING');
    assert.equal(job.attempts, 1);
    assert.equal(job.last_error, 'HTTP_500: oops');
    let wait = job.run_at.getTime() - first.getTime();
    assert.ok(wait >= 45_000 && wait <= 75_000, `~1 min, got ${wait}`);
    await runAt(env(), t.loop, job.run_at);
    job = (await t.job('ANALYTICS'))!;
    wait = job.run_at.getTime() - env().clock.now().getTime();
    assert.equal(job.attempts, 2);
    assert.ok(wait >= 90_000 && wait <= 150_000, `~2 min, got ${wait}`);
    await runAt(env(), t.loop, job.run_at);
    job = (await t.job('ANALYTICS'))!;
    assert.equal(job.attempts, 0);
    assert.equal(job.last_error, null);
    assert.ok(job.run_at.getTime() >= t.publishedAt.getTime() + HOUR, 'back on schedule');
    assert.notEqual((await t.view()).posts[1].analytics, null);
  });

  test('too many transient failures in a row end the job FAILED', async () => {
    const t = await publishedThread(env(), { texts: ['a'] });
    for (let i = 0; i < 20; i++) t.fake.analyticsFaults.push(new PublishError('transient', 'HTTP_503', 'unavailable'));
    let runs = 0;
    for (let job = (await t.job('ANALYTICS'))!; job.status === 'PENDING'; job = (await t.job('ANALYTICS'))!) {
      runs++;
      await runAt(env(), t.loop, job.run_at);
    }
    assert.equal(runs, 10);
    assert.equal((await t.job('ANALYTICS'))?.status, 'FAILED');
  });

  test('a post the network refuses for good is skipped; the others keep refreshing', async () => {
    const t = await publishedThread(env(), { texts: ['a', 'b'] });
    t.fake.analyticsFaults.push(new PublishError('permanent', 'NOT_FOUND', 'deleted'));
    await runAt(env(), t.loop, (await t.job('ANALYTICS'))!.run_at);
    const view = await t.view();
    assert.equal(view.posts[0].analytics, null);
    assert.equal(view.posts[1].analytics.views, 1);
    const job = (await t.job('ANALYTICS'))!;
    assert.equal(job.status, 'PENDING');
    assert.equal(job.attempts, 0);
  });

  test('an auth error marks the provider EXPIRED and stops the refreshes', async () => {
    const { app } = env();
    const t = await publishedThread(env(), { texts: ['a'] });
    t.fake.analyticsFaults.push(new PublishError('auth', 'TOKEN_EXPIRED', 'Error validating access token'));
    await runAt(env(), t.loop, (await t.job('ANALYTICS'))!.run_at);
    const job = (await t.job('ANALYTICS'))!;
    assert.equal(job.status, 'FAILED');
    assert.equal(job.last_error, 'TOKEN_EXPIRED: Error validating access token');
    const providers = (await t.user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
    assert.equal(providers.find((p: { id: string }) => p.id === t.providerId).status, 'EXPIRED');
    await runAt(env(), t.loop, t.publishedAt.getTime() + 5 * DAY);
    assert.equal(t.fake.analyticsCalls.length, 1);
  });

  test('counts that are not whole numbers are stored as null, so Get Thread still answers', async () => {
    const t = await publishedThread(env(), { texts: ['a'] });
    t.fake.analyticsOf = () => ({ views: 1.5, likes: -1, replies: Number.NaN, reposts: 7, quotes: null, shares: 2 ** 60 });
    await runAt(env(), t.loop, (await t.job('ANALYTICS'))!.run_at);
    const { analytics } = (await t.view()).posts[0];
    assert.deepEqual(
      { ...analytics, fetchedAt: undefined },
      { views: null, likes: null, replies: null, reposts: 7, quotes: null, shares: null, fetchedAt: undefined },
    );
  });
});
