import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { personalWorkspace } from '../../../src/lib/workspace.js';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { addProvider } from '../../../src/services/providers/providers.js';
import { describeEachDb, type TestEnv } from '../../helpers/context.js';
import { FakeMastodonApi } from '../../helpers/fakes/mastodon-api.js';
import { pngBytes } from '../../helpers/media-files.js';
import { createUser } from '../../helpers/seeds.js';

// One clock for Skein and for the Mastodon server: media processing, idempotency and retries move with it.
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
const HOUR = 3_600_000;
let fake: FakeMastodonApi;

before(async () => {
  fake = await FakeMastodonApi.start({ clock, processingMs: { image: 3_000 } });
});
after(async () => {
  await fake.close();
});

/**
 * An account on the fake server and a published 3-post thread of it, with a follow-up added
 * before it went out (`image`: with an image uploaded to Skein) and an auto-plug.
 */
async function publishedThread(
  env: TestEnv,
  followUp: { text: string; delayMinutes: number; image?: string },
  plug?: { text: string; minLikes: number },
  autoRepostHours?: number,
) {
  const { app, ctx } = env;
  const user = await createUser(ctx);
  const { image, ...fields } = followUp;
  const media: Array<{ url: string; altText: string }> = [];
  if (image) {
    const res = await user.call(app, { method: 'POST', url: '/api/v1/media', headers: { 'content-type': 'image/png' }, payload: await pngBytes(40, 30) });
    assert.equal(res.statusCode, 201, res.body);
    media.push({ url: res.json().url, altText: image });
  }
  const username = `fu${Math.floor(Math.random() * 1e6)}`;
  const account = fake.createAccount(username);
  const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
    kind: 'MASTODON',
    providerUserId: account.accountId,
    username: `${username}@${fake.domain}`,
    accessToken: account.accessToken,
    serviceUrl: fake.url,
  });
  if (plug) {
    const res = await user.call(app, { method: 'PUT', url: '/api/v1/auto-plug', payload: { enabled: true, ...plug } });
    assert.equal(res.statusCode, 200, res.body);
  }
  const created = await user.call(app, {
    method: 'POST',
    url: '/api/v1/posts',
    payload: {
      providerId: provider.id,
      scheduleAt: new Date(clock.now().getTime() + 60_000).toISOString(),
      posts: [{ text: 'first' }, { text: 'second' }, { text: 'last' }],
      ...(autoRepostHours ? { autoRepost: { enabled: true, delays: [String(autoRepostHours)] } } : {}),
    },
  });
  assert.equal(created.statusCode, 201, created.body);
  const threadId: string = created.json().threadId;
  const added = await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: { ...fields, media } });
  assert.equal(added.statusCode, 201, added.body);
  const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-follow-up-mastodon');
  clock.advance(60_000);
  await loop.runOnce();
  const mine = () => fake.postsBy(account.accountId);
  assert.equal(mine().length, 3);
  const followUpRow = () => ctx.db.selectFrom('follow_ups').selectAll().where('id', '=', added.json().id).executeTakeFirstOrThrow();
  const shown = async () => (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}/follow-ups` })).json().followUps[0];
  return { user, username, account, threadId, loop, mine, followUpRow, shown, first: mine()[0]!, last: mine()[2]! };
}

describeEachDb(
  'follow-up replies and the auto-plug on the strict fake Mastodon server (over HTTP)',
  (env) => {
    test("a follow-up's image is waited for through the queue (handed back, not waited on in the worker); a lost answer is found by its upload; one reply to the last status", async () => {
      const t = await publishedThread(env(), { text: 'And the photo 📷', delayMinutes: 5, image: 'the view' });
      const uploadsBefore = fake.callsTo('media.create').length;

      // Due: the image is uploaded and still processing. The worker hands the reply back to the
      // queue with a time to look again and returns at once (an in-process wait would never end:
      // the server's clock does not move while the worker sleeps).
      clock.set((await t.shown()).dueAt);
      await t.loop.runOnce();
      assert.equal(fake.callsTo('media.create').length, uploadsBefore + 1);
      assert.equal(t.mine().length, 3, 'nothing is posted while the image is processing');
      const waiting = await t.followUpRow();
      assert.equal(waiting.status, 'PENDING');
      assert.ok(waiting.run_at && waiting.run_at > clock.now(), 'due again later');
      assert.ok(waiting.network_container_id?.startsWith('m:'), 'the upload is saved');
      assert.equal(waiting.attempts, 0, 'a hand-back is not a failed attempt');

      // Processed by then. The server posts the reply and the connection is cut before its answer;
      // more than the server's hour of idempotency passes, so only the lookup can prevent a second one.
      clock.set(waiting.run_at!);
      fake.failNext('statuses.create', { kind: 'dropResponse' });
      await t.loop.runOnce();
      assert.equal(t.mine().length, 4, 'the reply is out');
      const unknown = await t.followUpRow();
      assert.equal(unknown.status, 'PENDING', 'the outcome was unknown: tried again later');
      clock.set(unknown.run_at!);
      clock.advance(2 * HOUR);
      await t.loop.runOnce();

      assert.equal(t.mine().length, 4, 'published once');
      assert.equal(fake.callsTo('media.create').length, uploadsBefore + 1, 'the image is uploaded once');
      const reply = t.mine()[3]!;
      assert.equal(reply.inReplyToId, t.last.id, "in_reply_to_id: the thread's last status");
      assert.equal(reply.text, 'And the photo 📷');
      assert.deepEqual(reply.mediaIds, waiting.network_container_id!.slice(2).split(','));
      assert.equal(fake.media.get(reply.mediaIds[0]!)!.description, 'the view');
      const shown = await t.shown();
      assert.equal(shown.status, 'PUBLISHED');
      assert.equal(shown.permaLink, `${fake.url}/@${t.username}/${reply.id}`);
    });

    test('the Idempotency-Key of a follow-up is its id on every send: the server answers a resend within the hour with the same status', async () => {
      const t = await publishedThread(env(), { text: 'One more thing', delayMinutes: 10 });
      const { id } = await t.shown();
      clock.set((await t.shown()).dueAt);
      await t.loop.runOnce();
      assert.equal(t.mine().length, 4);
      const reply = t.mine()[3]!;
      assert.equal(reply.inReplyToId, t.last.id);
      // Forget everything Skein knew of the send (as if its saving had been lost) and make it due:
      // the status is sent again with the same key, and the server answers with the first one.
      await env()
        .ctx.db.updateTable('follow_ups')
        .set({ status: 'PENDING', network_container_id: null, network_post_id: null, run_at: clock.now() })
        .where('id', '=', id)
        .execute();
      const sendsBefore = fake.callsTo('statuses.create').length;
      await t.loop.runOnce();
      const sends = fake.callsTo('statuses.create').slice(sendsBefore - 1);
      assert.equal(sends.length, 2, 'sent again');
      assert.deepEqual(
        sends.map((s) => s.idempotencyKey),
        [`skein-post-${id}`, `skein-post-${id}`],
      );
      assert.equal(t.mine().length, 4, 'still one reply');
      const row = await t.followUpRow();
      assert.equal(row.status, 'PUBLISHED');
      assert.equal(row.network_post_id, reply.id);
    });

    test('the auto-plug replies to the last status once the first has its likes, once, with its own Idempotency-Key, also after a lost answer', async () => {
      const t = await publishedThread(env(), { text: 'follow-up', delayMinutes: 600 }, { text: 'Liked it? Follow me for more', minLikes: 2 });
      const plugJob = () =>
        env().ctx.db.selectFrom('jobs').selectAll().where('thread_id', '=', t.threadId).where('kind', '=', 'PLUG').executeTakeFirstOrThrow();
      const waiting = await plugJob();
      fake.setCounts(t.first.id, { favourites: 2 });
      clock.set(waiting.run_at);
      fake.failNext('statuses.create', { kind: 'dropResponse' });
      await t.loop.runOnce();
      assert.equal(t.mine().length, 4, 'the plug is out, its answer lost');
      const retry = await plugJob();
      assert.equal(retry.status, 'PENDING');
      clock.set(retry.run_at);
      clock.advance(2 * HOUR);
      fake.setCounts(t.first.id, { favourites: 0 }); // the decision was made: the likes no longer matter
      await t.loop.runOnce();
      const plugs = t.mine().filter((s) => s.text === 'Liked it? Follow me for more');
      assert.equal(plugs.length, 1, 'published once');
      assert.equal(plugs[0]!.inReplyToId, t.last.id, "in_reply_to_id: the thread's last status");
      assert.equal(plugs[0]!.idempotencyKey, `skein-post-${waiting.id}`);
      const done = await plugJob();
      assert.equal(done.status, 'DONE');
      assert.equal(done.network_post_id, plugs[0]!.id);
    });

    test('the auto-repost job reblogs the first status once; the analytics job and Refresh now store favourites, reblogs and replies (views null)', async () => {
      const { ctx, app } = env();
      const t = await publishedThread(env(), { text: 'later', delayMinutes: 10_000 }, undefined, 2);
      const job = (kind: 'REPOST' | 'ANALYTICS') =>
        ctx.db.selectFrom('jobs').selectAll().where('thread_id', '=', t.threadId).where('kind', '=', kind).executeTakeFirstOrThrow();
      const repost = await job('REPOST');
      clock.set(repost.run_at);
      await t.loop.runOnce();
      await t.loop.runOnce();
      assert.deepEqual(
        fake.reblogsBy(t.account.accountId).map((s) => s.reblogOf),
        [t.first.id],
        'one reblog of the first status',
      );
      assert.equal((await job('REPOST')).status, 'DONE');

      fake.setCounts(t.first.id, { favourites: 7, reblogs: 1 });
      fake.setCounts(t.last.id, { favourites: 2, replies: 4 });
      clock.set((await job('ANALYTICS')).run_at);
      await t.loop.runOnce();
      const { thread } = (await t.user.call(app, { method: 'GET', url: `/api/v1/posts/${t.threadId}` })).json();
      const counts = (a: Record<string, unknown>) => [a.views, a.likes, a.reposts, a.replies];
      assert.deepEqual(counts(thread.posts[0].analytics), [null, 7, 1, 1]);
      assert.deepEqual(counts(thread.posts[2].analytics), [null, 2, 0, 4]);
      fake.setCounts(t.first.id, { favourites: 8 });
      const refreshed = await t.user.call(app, { method: 'POST', url: `/api/v1/posts/${t.threadId}/analytics/refresh`, payload: {} });
      assert.equal(refreshed.statusCode, 200, refreshed.body);
      assert.equal(refreshed.json().thread.posts[0].analytics.likes, 8);
    });
  },
  { clock, config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
