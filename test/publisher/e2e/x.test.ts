import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { personalWorkspace } from '../../../src/lib/workspace.js';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { scheduleFollowerJobs } from '../../../src/repos/followers.js';
import { addProvider } from '../../../src/services/providers/providers.js';
import { describeEachDb, type TestEnv } from '../../helpers/context.js';
import { FakeXApi } from '../../helpers/fakes/x-api.js';
import { pngBytes } from '../../helpers/media-files.js';
import { type MediaServer, startMediaServer } from '../../helpers/media-server.js';
import { createUser } from '../../helpers/seeds.js';

// One clock for Skein and for X: token lifetimes, media processing, the 24-hour cap and retries move with it.
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
const HOUR = 3_600_000;
const TOKEN_LIFETIME_MS = 2 * HOUR;
/** A due time well after the test's clock, whatever it has reached. */
const AT_LATER = () => new Date(clock.now().getTime() + 30 * 24 * HOUR).toISOString();
let fake: FakeXApi;
let media: MediaServer;

before(async () => {
  // A public client (no secret): the test context has no X_CLIENT_SECRET. Six posts a day per account, so a long thread meets the cap.
  fake = await FakeXApi.start({ clock, clientSecret: null, userDailyPosts: 6 });
  media = await startMediaServer();
});
after(async () => {
  await Promise.all([fake.close(), media.close()]);
});

let seq = 0;

/** An X account on the fake, connected in Skein as a connect would leave it; `expiresInMs` of its access token. */
async function connect(env: TestEnv, expiresInMs = TOKEN_LIFETIME_MS) {
  const { ctx } = env;
  const user = await createUser(ctx);
  const username = `xuser${++seq}${Math.floor(Math.random() * 1e4)}`;
  const account = fake.createAccount(username, { followers: 41 });
  const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
    kind: 'X',
    providerUserId: account.userId,
    username,
    accessToken: account.accessToken,
    refreshToken: account.refreshToken,
    tokenExpiresAt: new Date(clock.now().getTime() + expiresInMs),
  });
  return { user, provider, account, username };
}

async function threadRow(env: TestEnv, id: string) {
  return env.ctx.db.selectFrom('threads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function job(env: TestEnv, threadId: string, kind: 'REPOST' | 'ANALYTICS') {
  return env.ctx.db.selectFrom('jobs').selectAll().where('thread_id', '=', threadId).where('kind', '=', kind).executeTakeFirstOrThrow();
}

/** Runs the loop at each time the thread asks to be looked at again, until it is no longer READY. */
async function publishUntilSettled(env: TestEnv, loop: PublisherLoop, threadId: string) {
  for (let round = 0; round < 10; round++) {
    await loop.runOnce();
    const row = await threadRow(env, threadId);
    if (row.status !== 'READY') return row;
    clock.set(row.next_attempt_at!);
  }
  throw new Error('the thread never settled');
}

describeEachDb(
  'X end to end against the strict fake X API (over HTTP)',
  (env) => {
    test('a 5-post thread with an image, a GIF and a poll goes out once as a reply chain; analytics, followers and the auto-repost follow', async () => {
      const { app, ctx } = env();
      const { user, provider, account, username } = await connect(env());
      const uploaded = await user.call(app, {
        method: 'POST',
        url: '/api/v1/media',
        headers: { 'content-type': 'image/png' },
        payload: await pngBytes(40, 30),
      });
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: clock.now().toISOString(),
          autoRepost: { enabled: true, delays: ['3'] },
          posts: [
            { text: 'One: the picture', media: [{ url: uploaded.json().url, altText: 'a brown square' }] },
            { text: 'Two: it moves', media: [{ url: `${media.base}/spin.gif`, altText: 'a spinning square' }] },
            { text: 'Three: which one?', poll: { options: ['left', 'right'] } },
            { text: 'Four: <b> & "quotes" https://example.com/a/very/long/link' },
            { text: 'Five: the end' },
          ],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId: string = created.json().threadId;
      const uploads = () => fake.callsTo('media.upload').length + fake.callsTo('media.initialize').length;
      const uploadsBefore = uploads();
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-x');
      await loop.runOnce();
      // The GIF is still processing at X: the thread is handed back, not waited on in the worker.
      const waiting = await threadRow(env(), threadId);
      assert.equal(waiting.status, 'READY');
      assert.equal(fake.postsBy(account.userId).length, 1, 'the image post is out; the GIF post waits');
      const row = await publishUntilSettled(env(), loop, threadId);
      assert.equal(row.status, 'PUBLISHED');

      const tweets = fake.postsBy(account.userId);
      assert.equal(tweets.length, 5, 'five posts, once each');
      assert.deepEqual(
        tweets.map((t) => t.inReplyToId),
        [null, ...tweets.slice(0, -1).map((t) => t.id)],
        'each a reply to the previous',
      );
      assert.equal(tweets[0]!.mediaIds.length, 1);
      assert.equal(fake.media.get(tweets[0]!.mediaIds[0]!)!.altText, 'a brown square');
      assert.equal(fake.media.get(tweets[1]!.mediaIds[0]!)!.category, 'tweet_gif');
      assert.equal(fake.media.get(tweets[1]!.mediaIds[0]!)!.altText, 'a spinning square');
      assert.deepEqual(tweets[2]!.poll, { options: ['left', 'right'], durationMinutes: 1440 });
      assert.equal(uploads() - uploadsBefore, 2, 'each medium uploaded once');
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json();
      assert.equal(thread.status, 'PUBLISHED');
      assert.deepEqual(
        thread.posts.map((p: { permaLink: string }) => p.permaLink),
        tweets.map((t) => `https://x.com/${username}/status/${t.id}`),
      );

      // The analytics job reads X's public metrics (the access token, two hours old by then, refreshed on the way).
      fake.setMetrics(tweets[0]!.id, { like_count: 7, retweet_count: 2, reply_count: 3, quote_count: 1, impression_count: 120 });
      clock.set((await job(env(), threadId, 'ANALYTICS')).run_at);
      await loop.runOnce();
      const read = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread;
      const a = read.posts[0].analytics;
      assert.deepEqual([a.likes, a.reposts, a.replies, a.quotes], [7, 2, 3, 1]);

      // The auto-repost is a retweet of the first post, once; its token is past its two hours and refreshed first.
      clock.set((await job(env(), threadId, 'REPOST')).run_at);
      await loop.runOnce();
      await loop.runOnce();
      assert.deepEqual(fake.retweetsBy(account.userId), [tweets[0]!.id]);
      assert.equal((await job(env(), threadId, 'REPOST')).status, 'DONE');
      const stored = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      assert.equal(stored.status, 'ACTIVE');
      assert.ok(stored.token_expires_at! > clock.now(), 'a fresh pair was stored');
      assert.ok(fake.isTokenDead(account.refreshToken!), 'the refresh token used is dead: rotated');

      // The daily follower count.
      await scheduleFollowerJobs(ctx.db, clock.now(), provider.id);
      fake.setFollowers(account.userId, 42);
      await loop.runOnce();
      const followers = await user.call(app, {
        method: 'GET',
        url: `/api/v1/providers/${provider.id}/followers?from=2026-11-01T00:00:00&to=2026-12-31T00:00:00`,
      });
      assert.equal(followers.statusCode, 200, followers.body);
      assert.equal(followers.json().current.count, 42);
    });

    test("an account's own text limit is read again daily: subscribing to Premium lifts it to 25,000 from the next day's run, lapsing brings back 280", async () => {
      const { app, ctx } = env();
      const { user, provider, account } = await connect(env());
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-x-limits');
      const followersJob = () =>
        ctx.db.selectFrom('jobs').selectAll().where('provider_id', '=', provider.id).where('kind', '=', 'FOLLOWERS').executeTakeFirstOrThrow();
      const longPost = () =>
        user.call(app, {
          method: 'POST',
          url: '/api/v1/posts',
          payload: { providerId: provider.id, scheduleAt: AT_LATER(), posts: [{ text: 'x'.repeat(1000) }] },
        });
      const limitSaid = async () =>
        (await user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers.find((p: { id: string }) => p.id === provider.id).limits
          .textPerPost;
      // As a connect does: the daily job is booked, and its first run reads the account as it is.
      await scheduleFollowerJobs(ctx.db, clock.now(), provider.id);
      await loop.runOnce();
      assert.equal(await limitSaid(), 280);

      fake.setSubscription(account.userId, 'Premium');
      assert.equal((await longPost()).statusCode, 400, 'not known before the next daily read');
      const next = (await followersJob()).run_at;
      assert.ok(next.getTime() - clock.now().getTime() <= 24 * HOUR + 2 * HOUR, 'the next read is booked within the next UTC day');
      clock.set(next);
      await loop.runOnce();
      assert.equal(await limitSaid(), 25_000);
      const long = await longPost();
      assert.equal(long.statusCode, 201, long.body);

      fake.setSubscription(account.userId, 'None');
      clock.set((await followersJob()).run_at);
      await loop.runOnce();
      assert.equal(await limitSaid(), 280);
      assert.equal((await longPost()).statusCode, 400);
    });

    test('a token about to expire is refreshed once before publishing, and the thread goes out', async () => {
      const { app, ctx } = env();
      const { user, provider, account } = await connect(env(), 5 * 60_000);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: [{ text: 'fresh one' }, { text: 'fresh two' }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const refreshesBefore = fake.requests.filter((r) => r.path === '/2/oauth2/token').length;
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-x');
      await loop.runOnce();
      assert.equal(fake.requests.filter((r) => r.path === '/2/oauth2/token').length - refreshesBefore, 1, 'one refresh for the whole thread');
      assert.ok(fake.isTokenDead(account.refreshToken!));
      assert.equal((await threadRow(env(), created.json().threadId)).status, 'PUBLISHED');
      assert.deepEqual(
        fake.postsBy(account.userId).map((t) => t.text),
        ['fresh one', 'fresh two'],
      );
    });

    test("the account's 24-hour cap puts the thread back until the reset, with PROVIDER_RATE_LIMITED until it is published", async () => {
      const { app, ctx } = env();
      const { user, provider, account } = await connect(env());
      const texts = Array.from({ length: 8 }, (_, i) => `capped ${i + 1}`);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: texts.map((text) => ({ text })) },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId: string = created.json().threadId;
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-x');
      await loop.runOnce();
      assert.equal(fake.postsBy(account.userId).length, 6, 'six a day');
      const waiting = await threadRow(env(), threadId);
      assert.equal(waiting.status, 'READY', 'put back, not FAILED');
      const resetAt = waiting.next_attempt_at!;
      assert.ok(resetAt.getTime() - clock.now().getTime() > 23 * HOUR, 'due again at the reset, a day on');
      const attention = async () => (await user.call(app, { method: 'GET', url: '/api/v1/attention' })).json().items;
      const [item, ...others] = await attention();
      assert.deepEqual(others, []);
      assert.equal(item.kind, 'PROVIDER_RATE_LIMITED');
      assert.equal(item.threadId, threadId);
      assert.equal(item.providerId, provider.id);
      assert.equal(item.error.code, 'X_DAILY_LIMIT');
      assert.match(item.error.message, /24-hour posting limit/);

      clock.set(resetAt);
      // The token, older than its two hours by now, is refreshed on the way.
      await loop.runOnce();
      assert.equal((await threadRow(env(), threadId)).status, 'PUBLISHED');
      const tweets = fake.postsBy(account.userId);
      assert.deepEqual(
        tweets.map((t) => t.text),
        texts,
        'the rest goes out after the reset, nothing twice',
      );
      assert.equal(tweets[6]!.inReplyToId, tweets[5]!.id, 'the chain goes on');
      assert.deepEqual(await attention(), []);
    });

    test("X's 402 (the app's credits spent) fails the post with X_CREDITS_EXHAUSTED and X's message, never retried", async () => {
      const { app, ctx } = env();
      const { user, provider, account } = await connect(env());
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: [{ text: 'no credits' }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId: string = created.json().threadId;
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-x');
      fake.setCreditsExhausted(true);
      try {
        await loop.runOnce();
      } finally {
        fake.setCreditsExhausted(false);
      }
      assert.equal(fake.postsBy(account.userId).length, 0);
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json();
      assert.equal(thread.status, 'FAILED');
      assert.equal(thread.posts[0].error.code, 'X_CREDITS_EXHAUSTED');
      assert.match(thread.posts[0].error.message, /HTTP 402/);
      const items = (await user.call(app, { method: 'GET', url: '/api/v1/attention' })).json().items;
      assert.deepEqual(
        items.map((i: { kind: string; error?: { code: string } }) => [i.kind, i.error?.code]),
        [['THREAD_FAILED', 'X_CREDITS_EXHAUSTED']],
      );
    });
  },
  { clock, config: (c) => ({ ...c, media: { allowPrivate: true }, x: { apiUrl: fake.url, clientId: fake.clientId } }) },
);
