import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublishError } from '../../../src/networks/platform.js';
import { claimDue } from '../../../src/publisher/claim.js';
import { jobQueue } from '../../../src/repos/jobs.js';
import { describeEachDb } from '../../helpers/context.js';
import { DAY, HOUR, MINUTE, type PublishedThread, publishedThread, runAt } from '../../helpers/jobs.js';

const PLUG = { text: 'Liked it? Follow me for more', minLikes: 5 };

describeEachDb('auto-plug job', (env) => {
  /** The first post's likes are `likes.value`; every other post has none. */
  function likesOnFirst(t: PublishedThread, likes: { value: number }) {
    t.fake.analyticsOf = (ref) => ({
      views: 100,
      likes: ref.networkPostId === t.networkIds[0] ? likes.value : 0,
      replies: 0,
      reposts: 0,
      quotes: 0,
      shares: 0,
    });
  }
  const plugs = (t: PublishedThread) => t.fake.published.filter((p) => p.text === PLUG.text);

  test('posts the plug once, when the first post reaches minLikes, as a reply to the last post', async () => {
    const t = await publishedThread(env(), { texts: ['a', 'b', 'c'], plug: PLUG });
    const likes = { value: 4 };
    likesOnFirst(t, likes);
    const firstCheck = t.publishedAt.getTime() + 15 * MINUTE;
    assert.equal((await t.job('PLUG'))?.run_at.toISOString(), new Date(firstCheck).toISOString());
    await runAt(env(), t.loop, firstCheck);
    assert.deepEqual(plugs(t), [], '4 likes of 5: not yet');
    const job = (await t.job('PLUG'))!;
    assert.equal(job.status, 'PENDING');
    assert.equal(job.run_at.getTime(), firstCheck + 15 * MINUTE, 'checked again 15 min later');
    likes.value = 5;
    await runAt(env(), t.loop, job.run_at.getTime() - 1000);
    assert.deepEqual(plugs(t), [], 'not before the next check');
    await runAt(env(), t.loop, job.run_at);
    const [plug, ...more] = plugs(t);
    assert.ok(plug);
    assert.deepEqual(more, []);
    assert.equal(plug.replyTo, t.networkIds[2], 'a reply to the last post');
    assert.equal(plug.replyRoot, t.networkIds[0], 'in the thread of the first post');
    assert.equal(plug.postId, job.id, 'published under the job id');
    const done = (await t.job('PLUG'))!;
    assert.equal(done.status, 'DONE');
    assert.equal(done.network_post_id, plug.networkPostId);
    assert.equal(done.permalink, `https://fake.example/p/${plug.networkPostId}`);
    for (const at of [HOUR, DAY, 8 * DAY]) await runAt(env(), t.loop, t.publishedAt.getTime() + at);
    assert.equal(plugs(t).length, 1, 'never again');
    const view = await t.view();
    assert.equal(view.posts.length, 3, 'the plug is not one of the thread posts');
    assert.equal(view.posts[0].analytics.likes, 5, 'the likes read for the plug are kept as analytics');
  });

  test('a lost response: the retry finishes the same reply, never a second one', async () => {
    const t = await publishedThread(env(), { plug: PLUG });
    likesOnFirst(t, { value: 50 });
    t.fake.faults.push({ dropResponse: true });
    await runAt(env(), t.loop, t.publishedAt.getTime() + 15 * MINUTE);
    assert.equal(plugs(t).length, 1, 'posted on the network');
    const job = (await t.job('PLUG'))!;
    assert.equal(job.status, 'PENDING');
    assert.equal(job.last_error, 'TIMEOUT: response lost');
    await runAt(env(), t.loop, job.run_at);
    assert.equal((await t.job('PLUG'))?.status, 'DONE');
    assert.equal(plugs(t).length, 1);
    assert.equal(t.fake.calls.filter((id) => id === job.id).length, 2, 'the retry asked the network about the same post id');
  });

  test('a worker that crashed while posting: after its lease, one plug', async () => {
    const { ctx, clock } = env();
    const t = await publishedThread(env(), { plug: PLUG });
    likesOnFirst(t, { value: 50 });
    clock.set(t.publishedAt.getTime() + 15 * MINUTE);
    const job = (await claimDue(jobQueue, { db: ctx.db, workerId: 'crasher', now: clock.now(), leaseMs: ctx.config.publisher.leaseMs }, 10)).find(
      (j) => j.kind === 'PLUG',
    )!;
    assert.ok(job);
    const parent = { networkPostId: t.networkIds.at(-1)!, cid: null, permalink: null };
    const root = { networkPostId: t.networkIds[0]!, cid: null, permalink: null };
    await t.fake.publishPost({
      account: {} as never,
      post: { id: job.id, text: PLUG.text, topic: null, media: [], spoilerRanges: [], isSpoilerMedia: false, writtenAt: job.created_at },
      replyTo: { root, parent },
      progress: { containerId: null, networkPostId: null, cid: null },
      onProgress: async () => {},
      confirmLease: async () => {},
    });
    await t.loop.runOnce();
    assert.equal((await t.job('PLUG'))?.status, 'RUNNING', 'lease still held');
    await runAt(env(), t.loop, clock.now().getTime() + ctx.config.publisher.leaseMs + 1000);
    assert.equal((await t.job('PLUG'))?.status, 'DONE');
    assert.equal(plugs(t).length, 1);
  });

  test('once the reply was started it is finished, even if likes drop below minLikes', async () => {
    const { ctx } = env();
    const t = await publishedThread(env(), { plug: PLUG });
    likesOnFirst(t, { value: 0 });
    const job = (await t.job('PLUG'))!;
    // An earlier run decided to post and saved the network state before its answer was lost.
    await ctx.db.updateTable('jobs').set({ network_container_id: 'container-1' }).where('id', '=', job.id).execute();
    await runAt(env(), t.loop, job.run_at);
    assert.equal(plugs(t).length, 1);
    assert.equal((await t.job('PLUG'))?.status, 'DONE');
  });

  test('gives up after 7 days without enough likes, checking less often as the thread ages', async () => {
    const t = await publishedThread(env(), { plug: PLUG });
    likesOnFirst(t, { value: 4 });
    const deadline = t.publishedAt.getTime() + 7 * DAY;
    const checks: number[] = [];
    for (let job = (await t.job('PLUG'))!; job.status === 'PENDING'; job = (await t.job('PLUG'))!) {
      checks.push(job.run_at.getTime() - t.publishedAt.getTime());
      await runAt(env(), t.loop, job.run_at);
    }
    assert.deepEqual(plugs(t), []);
    const job = (await t.job('PLUG'))!;
    assert.equal(job.status, 'FAILED');
    assert.match(job.last_error!, /^MIN_LIKES_NOT_REACHED: The first post had 4 of 5 likes after 7 days/);
    assert.equal(checks.at(-1), deadline - t.publishedAt.getTime(), 'the last check is at the deadline');
    const gaps = checks.slice(1).map((c, i) => c - checks[i]!);
    assert.deepEqual([...new Set(gaps)], [15 * MINUTE, 30 * MINUTE, HOUR]);
    // 15 min until 6 h (24 checks), every 30 min until 24 h (36), hourly until 7 days (144).
    assert.equal(checks.length, 24 + 36 + 144);
  });

  test('a transient error while reading likes backs off and tries again', async () => {
    const t = await publishedThread(env(), { plug: PLUG });
    likesOnFirst(t, { value: 9 });
    const firstCheck = t.publishedAt.getTime() + 15 * MINUTE;
    // The analytics job runs at +10 min; queue the fault after it.
    await runAt(env(), t.loop, firstCheck - MINUTE);
    t.fake.analyticsFaults.push(new PublishError('transient', 'HTTP_429', 'rate limited', { retryAfterMs: 10 * MINUTE }));
    await runAt(env(), t.loop, firstCheck);
    const job = (await t.job('PLUG'))!;
    assert.equal(job.status, 'PENDING');
    assert.equal(job.run_at.getTime(), firstCheck + 10 * MINUTE, 'Retry-After honoured');
    await runAt(env(), t.loop, job.run_at);
    assert.equal(plugs(t).length, 1);
  });

  test('no plug job when the workspace had auto-plug off', async () => {
    const t = await publishedThread(env());
    assert.equal(await t.job('PLUG'), undefined);
  });
});
