import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import type { MediaStorage } from '../../../src/media/storage.js';
import {
  ContainerNotReady,
  type MediaItem,
  type PlatformAccount,
  type PostOptions,
  type PostProgress,
  PublishError,
  type ReplyTarget,
} from '../../../src/networks/platform.js';
import { XClient } from '../../../src/networks/x/client.js';
import { XPlatform } from '../../../src/networks/x/platform.js';
import { type FakeXApi as Fake, FakeXApi, type FakeXOptions } from '../../helpers/fakes/x-api.js';
import { mp4Bytes } from '../../helpers/media-files.js';
import { startMediaServer } from '../../helpers/media-server.js';

const BIG_VIDEO = mp4Bytes({ samples: 30, sampleBytes: 300_000 });

async function setup(t: TestContext, options: FakeXOptions = {}) {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const fake = await FakeXApi.start({ clock, ...options });
  const media = await startMediaServer({ '/big.mp4': { type: 'video/mp4', body: BIG_VIDEO } });
  t.after(() => Promise.all([fake.close(), media.close()]));
  const { userId, accessToken, refreshToken } = fake.createAccount('tester');
  const client = new XClient({ apiUrl: fake.url, clientId: fake.clientId, clientSecret: fake.clientSecret, now: () => clock.now().getTime() });
  const platform = new XPlatform({
    client,
    uploads: null,
    allowPrivateMedia: true,
    sleep: async (ms) => clock.advance(ms),
  });
  const account: PlatformAccount = {
    providerId: 'p1',
    providerUserId: userId,
    username: 'tester',
    accessToken,
    refreshToken: null,
    tokenExpiresAt: null,
    serviceUrl: null,
  };
  let n = 0;
  /** Publishes one post as the publisher does; `progress` carries over what earlier attempts saved. */
  const publish = async (
    text: string,
    more: { media?: MediaItem[]; replyTo?: ReplyTarget | null; options?: Partial<PostOptions>; progress?: PostProgress; comeBackLater?: boolean } = {},
  ) => {
    const saved: { progress: PostProgress } = { progress: more.progress ?? { containerId: null, networkPostId: null, cid: null } };
    const promise = platform.publishPost({
      account,
      post: {
        id: `post-${++n}`,
        text,
        topic: null,
        media: more.media ?? [],
        spoilerRanges: [],
        isSpoilerMedia: false,
        writtenAt: clock.now(),
        options: { replyControl: 'everyone', quotesDisabled: false, quote: null, poll: null, langs: [], ...more.options },
      },
      replyTo: more.replyTo ?? null,
      progress: saved.progress,
      onProgress: async (p) => {
        saved.progress = p;
      },
      confirmLease: async () => {},
      ...(more.comeBackLater ? { comeBackLater: { containerSavedAt: null } } : {}),
    });
    return { promise, saved };
  };
  const publishOk = async (text: string, more: Parameters<typeof publish>[1] = {}) => {
    const { promise, saved } = await publish(text, more);
    return { ref: await promise, progress: saved.progress };
  };
  return { clock, fake, media, client, platform, account, userId, accessToken, refreshToken, publish, publishOk };
}

const published = (fake: Fake, userId: string) => fake.postsBy(userId);

function rejectsWith(code: string, kind: PublishError['kind'], check: (err: PublishError) => void = () => {}) {
  return (err: unknown) => {
    assert.ok(err instanceof PublishError, String(err));
    assert.equal(err.code, code, err.message);
    assert.equal(err.kind, kind);
    check(err);
    return true;
  };
}

describe('XPlatform against the fake X API', () => {
  test('a thread is a reply chain; the permalink is x.com/<username>/status/<id>; reply settings go on each post', async (t) => {
    const { fake, userId, publishOk } = await setup(t);
    const first = await publishOk('1/3 a thread', { options: { replyControl: 'following' } });
    assert.equal(first.ref.permalink, `https://x.com/tester/status/${first.ref.networkPostId}`);
    assert.equal(first.progress.networkPostId, first.ref.networkPostId);
    const second = await publishOk('2/3 https://example.com/a/long/path', {
      replyTo: { root: first.ref, parent: first.ref },
      options: { replyControl: 'mentioned' },
    });
    const third = await publishOk('3/3 日本語 👍', { replyTo: { root: first.ref, parent: second.ref } });
    const posts = published(fake, userId);
    assert.deepEqual(
      posts.map((p) => [p.id, p.inReplyToId, p.replySettings]),
      [
        [first.ref.networkPostId, null, 'following'],
        [second.ref.networkPostId, first.ref.networkPostId, 'mentionedUsers'],
        [third.ref.networkPostId, second.ref.networkPostId, null],
      ],
    );
    assert.ok(posts.every((p) => p.conversationId === first.ref.networkPostId));
  });

  test('followers and nobody cannot be said on X: a permanent fault, nothing sent', async (t) => {
    const { fake, publish } = await setup(t);
    await assert.rejects((await publish('x', { options: { replyControl: 'nobody' } })).promise, rejectsWith('X_REPLY_CONTROL', 'permanent'));
    assert.equal(fake.callsTo('tweets.create').length, 0);
  });

  test('images with alt text: uploaded at once, the alt text set, the post carries them', async (t) => {
    const { fake, media, userId, publishOk } = await setup(t);
    const { ref, progress } = await publishOk('two pictures', {
      media: [
        { url: `${media.base}/a.png`, altText: 'A red square' },
        { url: `${media.base}/b.jpg`, altText: null },
      ],
    });
    const [post] = published(fake, userId);
    assert.equal(post!.id, ref.networkPostId);
    assert.equal(post!.mediaIds.length, 2);
    assert.deepEqual(
      post!.mediaIds.map((id) => fake.media.get(id)!.altText),
      ['A red square', null],
    );
    assert.equal(fake.callsTo('media.upload').length, 2);
    assert.equal(fake.callsTo('media.status').length, 0, 'images are ready when uploaded');
    assert.match(progress.containerId!, /^xa:\d+:\d+:\d+,\d+$/, 'the attempt, the upload time, the media ids');
  });

  test('a video goes in chunks and is waited on while X processes it; with comeBackLater the caller is told when to look again', async (t) => {
    const { fake, media, userId, publish, publishOk } = await setup(t);
    const video = { url: `${media.base}/big.mp4`, altText: 'A clip' };
    const later = await publish('a video', { media: [video], comeBackLater: true });
    await assert.rejects(later.promise, (err: unknown) => err instanceof ContainerNotReady);
    assert.match(later.saved.progress.containerId!, /^xm:\d+:~\d+$/);
    assert.equal(fake.callsTo('media.append').length, 3, `${BIG_VIDEO.length} bytes in 4 MiB chunks`);
    assert.equal(published(fake, userId).length, 0);
    // The retry resumes on the same upload and waits (in-process here) until X has processed it.
    const { ref } = await publishOk('a video', { media: [video], progress: later.saved.progress });
    assert.equal(fake.callsTo('media.initialize').length, 1, 'not uploaded again');
    const [post] = published(fake, userId);
    assert.equal(post!.id, ref.networkPostId);
    const uploaded = fake.media.get(post!.mediaIds[0]!)!;
    assert.deepEqual([uploaded.category, uploaded.altText], ['tweet_video', 'A clip']);
  });

  test('a GIF goes alone (chunked, tweet_gif); a GIF with an image is refused before anything is uploaded', async (t) => {
    const { fake, media, userId, publish, publishOk } = await setup(t);
    await publishOk('a gif', { media: [{ url: `${media.base}/a.gif`, altText: 'moving' }] });
    const [post] = published(fake, userId);
    assert.equal(fake.media.get(post!.mediaIds[0]!)!.category, 'tweet_gif');
    const mixed = await publish('mixed', {
      media: [
        { url: `${media.base}/a.gif`, altText: null },
        { url: `${media.base}/b.png`, altText: null },
      ],
    });
    await assert.rejects(mixed.promise, rejectsWith('MEDIA_MIX', 'permanent'));
    assert.equal(fake.callsTo('media.initialize').length, 1);
  });

  test("X's failed processing fails the post with its reason", async (t) => {
    const { fake, media, publish } = await setup(t);
    fake.failNextProcessing();
    const { promise } = await publish('bad video', { media: [{ url: `${media.base}/big.mp4`, altText: null }] });
    await assert.rejects(
      promise,
      rejectsWith('X_MEDIA_FAILED', 'permanent', (err) => assert.match(err.message, /Unsupported video format/)),
    );
  });

  test('a poll (a day long) and a quote by id or by x.com address', async (t) => {
    const { fake, userId, publishOk } = await setup(t);
    const quoted = fake.postAs(userId, 'quote me');
    await publishOk('pick one', { options: { poll: { options: ['yes', 'no'] } } });
    await publishOk('by id', { options: { quote: { networkPostId: quoted.id, cid: null } } });
    await publishOk('by address', { options: { quote: { networkPostId: `https://twitter.com/tester/status/${quoted.id}`, cid: null } } });
    const [, poll, byId, byUrl] = published(fake, userId);
    assert.deepEqual(poll!.poll, { options: ['yes', 'no'], durationMinutes: 1440 });
    assert.equal(byId!.quoteId, quoted.id);
    assert.equal(byUrl!.quoteId, quoted.id);
  });

  test("X's refusal of a quote (self-serve plans since 2026) fails the post with X's reason", async (t) => {
    const { fake, userId, publish } = await setup(t, { selfServe: true });
    const quoted = fake.postAs(userId, 'quote me');
    const { promise } = await publish('quoting', { options: { quote: { networkPostId: quoted.id, cid: null } } });
    await assert.rejects(
      promise,
      rejectsWith('X_REFUSED', 'permanent', (err) => assert.match(err.message, /Quoting posts is not available/)),
    );
  });

  test('a lost answer: the retry finds the post among the account’s own and adopts it, nothing posted twice', async (t) => {
    const { fake, userId, publish, publishOk } = await setup(t);
    const root = await publishOk('root');
    fake.failNext('tweets.create', { kind: 'dropResponse' });
    const lost = await publish('the reply', { replyTo: { root: root.ref, parent: root.ref } });
    await assert.rejects(
      lost.promise,
      rejectsWith('X_NETWORK', 'transient', (err) => assert.equal(err.options.outcomeUnknown, true)),
    );
    assert.match(lost.saved.progress.containerId!, /^xa:/);
    const creates = fake.callsTo('tweets.create').length;
    const retry = await publishOk('the reply', { replyTo: { root: root.ref, parent: root.ref }, progress: lost.saved.progress });
    assert.equal(fake.callsTo('tweets.create').length, creates, 'found, not sent again');
    const posts = published(fake, userId);
    assert.equal(posts.length, 2);
    assert.equal(retry.ref.networkPostId, posts[1]!.id);
  });

  test('a lost answer with media is found by its uploads; a 503 after the post was made too', async (t) => {
    const { fake, media, userId, publish, publishOk } = await setup(t);
    fake.failNext('tweets.create', { kind: 'http503AfterCommit' });
    const lost = await publish('https://example.com/see & <this>', { media: [{ url: `${media.base}/a.png`, altText: null }] });
    await assert.rejects(
      lost.promise,
      rejectsWith('X_SERVER_ERROR', 'transient', (err) => assert.equal(err.options.outcomeUnknown, true)),
    );
    await publishOk('https://example.com/see & <this>', { media: [{ url: `${media.base}/a.png`, altText: null }], progress: lost.saved.progress });
    assert.equal(published(fake, userId).length, 1);
    assert.equal(fake.callsTo('media.upload').length, 1, 'not uploaded again');
  });

  test("an uploaded video streams from the media storage in X's 4 MiB segments: the first is sent before the last byte is read", async (t) => {
    const { fake, client, account, clock, userId } = await setup(t);
    const MiB = 1024 * 1024;
    const total = 10 * MiB;
    /** How many appends X had received when the storage handed out each MiB. */
    const appendsSeen: number[] = [];
    async function* video() {
      for (let i = 0; i < 10; i++) {
        appendsSeen.push(fake.callsTo('media.append').length);
        yield Buffer.alloc(MiB, i);
      }
    }
    const row = {
      id: 'vid1',
      account_id: 'a',
      team_id: null,
      type: 'VIDEO' as const,
      mime_type: 'video/mp4',
      ext: 'mp4',
      bytes: total,
      width: 640,
      height: 360,
      duration_ms: 4000,
      sha256: '0',
      storage_key: 'vid1.mp4',
      created_at: clock.now(),
    };
    const storage = { get: async () => Readable.from(video()) } as unknown as MediaStorage;
    const platform = new XPlatform({
      client,
      uploads: { publicUrl: 'http://skein.test', storage, find: async (id) => (id === row.id ? row : undefined) },
      allowPrivateMedia: true,
      sleep: async (ms) => clock.advance(ms),
    });
    const ref = await platform.publishPost({
      account,
      post: {
        id: 'streamed',
        text: 'a streamed video',
        topic: null,
        media: [{ url: 'http://skein.test/media/vid1.mp4', altText: null }],
        spoilerRanges: [],
        isSpoilerMedia: false,
        writtenAt: clock.now(),
        options: { replyControl: 'everyone', quotesDisabled: false, quote: null, poll: null, langs: [] },
      },
      replyTo: null,
      progress: { containerId: null, networkPostId: null, cid: null },
      onProgress: async () => {},
      confirmLease: async () => {},
    });
    assert.equal(published(fake, userId)[0]!.id, ref.networkPostId);
    const appends = fake.callsTo('media.append');
    assert.equal(appends.length, 3, '10 MiB in segments of 4, 4 and 2 MiB');
    assert.equal(fake.media.get(published(fake, userId)[0]!.mediaIds[0]!)!.totalBytes, total);
    assert.ok(appendsSeen[9]! >= 2, `two segments were sent before the storage gave the last MiB (appends seen: ${appendsSeen.join(',')})`);
  });

  test('media ids saved more than a day ago are not sent: X has forgotten them, so the retry uploads again', async (t) => {
    const { fake, media, userId, publish, publishOk, clock, client, account, refreshToken } = await setup(t);
    const image = { url: `${media.base}/a.png`, altText: 'A square' };
    // X answers 503 without making the post: the attempt and its uploads are saved.
    fake.failNext('tweets.create', { kind: 'http503' });
    const first = await publish('a day late', { media: [image] });
    await assert.rejects(first.promise, rejectsWith('X_SERVER_ERROR', 'transient'));
    const stale = first.saved.progress.containerId!;
    const oldId = /:(\d+)$/.exec(stale)![1]!;
    clock.advance(25 * 3_600_000);
    account.accessToken = (await client.refresh(refreshToken!)).accessToken; // as the publisher's withFreshTokens would
    const { ref, progress } = await publishOk('a day late', { media: [image], progress: first.saved.progress });
    const [post] = published(fake, userId);
    assert.equal(post!.id, ref.networkPostId);
    assert.equal(fake.callsTo('media.upload').length, 2, 'uploaded again');
    assert.notDeepEqual(post!.mediaIds, [oldId], 'the new upload is on the post, not the expired one');
    assert.equal(fake.media.get(post!.mediaIds[0]!)!.altText, 'A square');
    assert.match(progress.containerId!, new RegExp(`^xa:${/^xa:(\d+):/.exec(stale)![1]}:`), 'the first attempt is still the one looked up from');

    // Within the day, the saved upload is used as it is; a marker from before upload times were kept counts as too old.
    fake.failNext('tweets.create', { kind: 'http503' });
    const second = await publish('within the day', { media: [image] });
    await assert.rejects(second.promise);
    clock.advance(3_600_000);
    await publishOk('within the day', { media: [image], progress: second.saved.progress });
    assert.equal(fake.callsTo('media.upload').length, 3, 'not uploaded again');
    const legacy = `xm:${oldId}`;
    await publishOk('an old marker', { media: [image], progress: { containerId: legacy, networkPostId: null, cid: null } });
    assert.equal(fake.callsTo('media.upload').length, 4, 'an old marker without its upload time: uploaded again');
  });

  test('a lost answer matched by text through t.co links and escaped characters', async (t) => {
    const { fake, userId, publish, publishOk } = await setup(t);
    const text = 'see https://example.com/a/b?c=1 & <this>';
    fake.failNext('tweets.create', { kind: 'dropResponse' });
    const lost = await publish(text);
    await assert.rejects(lost.promise);
    await publishOk(text, { progress: lost.saved.progress });
    assert.equal(published(fake, userId).length, 1);
    assert.equal(fake.callsTo('tweets.create').length, 1, 'found by its text, not sent again');
  });

  test("nothing went out: the retry sends once; X's duplicate refusal is never taken as success by itself", async (t) => {
    const { fake, userId, clock, publish, publishOk } = await setup(t);
    fake.failNext('tweets.create', { kind: 'http503' });
    const first = await publish('only once');
    await assert.rejects(first.promise, rejectsWith('X_SERVER_ERROR', 'transient'));
    await publishOk('only once', { progress: first.saved.progress });
    assert.equal(published(fake, userId).length, 1);
    // The same text posted elsewhere a moment ago: X refuses it, and on a first attempt nothing of
    // Skein's can be out, so nothing is looked up and the refusal stands.
    fake.postAs(userId, 'said before');
    clock.advance(1_000);
    const lookups = fake.callsTo('users.tweets').length;
    await assert.rejects(
      (await publish('said before')).promise,
      rejectsWith('X_DUPLICATE', 'permanent', (err) => assert.match(err.message, /duplicate content/)),
    );
    assert.equal(fake.callsTo('users.tweets').length, lookups, 'nothing looked up on a first attempt');
    // After an attempt that did not land, the refusal sends it looking again; a post from before
    // the attempt began is not adopted.
    fake.postAs(userId, 'echo');
    clock.advance(10 * 60_000);
    fake.failNext('tweets.create', { kind: 'http503' });
    const lost = await publish('echo');
    await assert.rejects(lost.promise, rejectsWith('X_SERVER_ERROR', 'transient'));
    await assert.rejects((await publish('echo', { progress: lost.saved.progress })).promise, rejectsWith('X_DUPLICATE', 'permanent'));
    assert.equal(fake.callsTo('users.tweets').length, lookups + 2, 'looked up before the resend and after the refusal');
    assert.equal(published(fake, userId).length, 3);
  });

  test('a deleted parent fails the reply with X’s reason', async (t) => {
    const { fake, publish, publishOk } = await setup(t);
    const root = await publishOk('root');
    fake.deleteTweet(root.ref.networkPostId);
    const { promise } = await publish('reply', { replyTo: { root: root.ref, parent: root.ref } });
    await assert.rejects(promise, rejectsWith('X_PARENT_GONE', 'permanent'));
  });

  test('429: transient with retryAfter until the reset, and nothing is sent until then', async (t) => {
    const { fake, clock, publish, publishOk } = await setup(t, { windowLimits: { 'tweets.create': 1 } });
    await publishOk('one');
    const check = (err: PublishError) => {
      assert.equal(err.options.outcomeUnknown, false);
      assert.ok((err.options.retryAfterMs ?? 0) > 14 * 60_000, `waits for the reset: ${err.options.retryAfterMs}`);
    };
    await assert.rejects((await publish('two')).promise, rejectsWith('X_RATE_LIMITED', 'transient', check));
    const calls = fake.callsTo('tweets.create').length;
    await assert.rejects((await publish('two')).promise, rejectsWith('X_RATE_LIMITED', 'transient', check));
    assert.equal(fake.callsTo('tweets.create').length, calls, 'held back by the client');
    clock.advance(15 * 60_000);
    await publishOk('two');
  });

  test('the 24-hour cap: transient X_DAILY_LIMIT with retryAfter until the daily reset', async (t) => {
    const { clock, client, account, refreshToken, publish, publishOk } = await setup(t, { userDailyPosts: 2 });
    await publishOk('one');
    clock.advance(60 * 60_000);
    await publishOk('two');
    // Access tokens last two hours: the publisher refreshes them (X rotates the refresh token).
    const keepFresh = async () => {
      const pair = await client.refresh(account.refreshToken ?? refreshToken!);
      account.accessToken = pair.accessToken;
      account.refreshToken = pair.refreshToken;
    };
    await assert.rejects(
      (await publish('three')).promise,
      rejectsWith('X_DAILY_LIMIT', 'transient', (err) => {
        const left = err.options.retryAfterMs ?? 0;
        assert.ok(left > 22 * 3_600_000 && left <= 23 * 3_600_000, `until a day after the first post: ${left}`);
      }),
    );
    clock.advance(23 * 3_600_000);
    await keepFresh();
    await publishOk('three');
  });

  test("402 credits exhausted: permanent X_CREDITS_EXHAUSTED with X's message; 401 is an auth fault", async (t) => {
    const { fake, clock, publish } = await setup(t);
    fake.setCreditsExhausted(true);
    await assert.rejects(
      (await publish('paid')).promise,
      rejectsWith('X_CREDITS_EXHAUSTED', 'permanent', (err) => assert.match(err.message, /credits depleted/)),
    );
    fake.setCreditsExhausted(false);
    clock.advance(2 * 3_600_000 + 1);
    await assert.rejects((await publish('expired token')).promise, rejectsWith('X_TOKEN_INVALID', 'auth'));
  });

  test('analytics from public_metrics, followers from users/me, a repost once', async (t) => {
    const { fake, platform, account, userId, publishOk } = await setup(t);
    const { ref } = await publishOk('count me');
    await platform.repost(account, ref);
    await platform.repost(account, ref);
    assert.deepEqual(fake.retweetsBy(userId), [ref.networkPostId]);
    fake.setMetrics(ref.networkPostId, { like_count: 7, reply_count: 2, quote_count: 1, impression_count: 345 });
    assert.deepEqual(await platform.fetchAnalytics(account, ref), { views: 345, likes: 7, replies: 2, reposts: 1, quotes: 1, shares: null });
    fake.setFollowers(userId, 321);
    assert.equal(await platform.fetchFollowers(account), 321);
    assert.equal((await platform.fetchLimits(account)).maxCharacters, 280);
    const premium = fake.createAccount('premium', { subscription: 'Premium' });
    assert.equal((await platform.fetchLimits({ ...account, accessToken: premium.accessToken })).maxCharacters, 25_000);
    assert.equal(await platform.lookUpPermalink(account, ref), ref.permalink);
    fake.deleteTweet(ref.networkPostId);
    await assert.rejects(platform.fetchAnalytics(account, ref), rejectsWith('X_POST_GONE', 'permanent'));
  });
});
