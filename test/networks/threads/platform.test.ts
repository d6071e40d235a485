import assert from 'node:assert/strict';
import { after, before, describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import type { PlatformAccount, PostProgress, PostToPublish, PublishError, PublishedRef, ReplyTarget } from '../../../src/networks/platform.js';
import { ThreadsClient } from '../../../src/networks/threads/client.js';
import { type ContainerPolling, ThreadsPlatform, type ThreadsPlatformOptions } from '../../../src/networks/threads/platform.js';
import { FakeGraphApi, type FakeGraphApiOptions } from '../../helpers/fakes/threads-graph-api.js';
import { type MediaServer, startMediaServer } from '../../helpers/media-server.js';

/** Where the posts' media lives: the fake Graph API downloads it, as Meta does. */
let cdn: MediaServer;
before(async () => {
  cdn = await startMediaServer();
});
after(() => cdn.close());

/** Everything a test needs: a fake Meta on a manual clock, and a platform whose sleep moves that clock. */
async function setup(
  t: TestContext,
  options: FakeGraphApiOptions = {},
  polling?: Partial<ContainerPolling>,
  timeoutMs = 1_000,
  mediaCheck?: ThreadsPlatformOptions['mediaCheck'],
) {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  const fake = await FakeGraphApi.start({ clock, ...options });
  t.after(() => fake.close());
  const slept: number[] = [];
  const sleep = async (ms: number) => {
    slept.push(ms);
    clock.advance(ms);
  };
  const client = new ThreadsClient({ apiUrl: fake.url, appId: fake.appId, appSecret: fake.appSecret, sleep, timeoutMs, now: () => clock.now().getTime() });
  const platform = new ThreadsPlatform({ client, ...(polling ? { polling } : {}), ...(mediaCheck ? { mediaCheck } : {}) });
  const { userId, accessToken } = fake.createAccount('skein_test');
  const account: PlatformAccount = {
    providerId: 'p1',
    providerUserId: userId,
    username: 'skein_test',
    accessToken,
    refreshToken: null,
    tokenExpiresAt: null,
    serviceUrl: null,
  };
  return { clock, fake, platform, account, slept };
}

function post(text: string, extra: Partial<PostToPublish> = {}): PostToPublish {
  return { id: `post-${text.slice(0, 8)}`, text, topic: null, media: [], spoilerRanges: [], isSpoilerMedia: false, writtenAt: new Date(0), ...extra };
}

/** Stands in for the publisher's database row: keeps the last progress saved, across attempts. */
class SavedProgress {
  current: PostProgress = { containerId: null, networkPostId: null, cid: null };
  readonly history: PostProgress[] = [];
  readonly onProgress = async (progress: PostProgress) => {
    this.history.push({ ...progress });
    this.current = { ...progress };
  };
}

function publish(
  env: { platform: ThreadsPlatform; account: PlatformAccount },
  p: PostToPublish,
  saved = new SavedProgress(),
  replyTo: ReplyTarget | null = null,
): Promise<PublishedRef> {
  return env.platform.publishPost({
    account: env.account,
    post: p,
    replyTo,
    progress: saved.current,
    onProgress: saved.onProgress,
    confirmLease: async () => {},
  });
}

function replyTo(root: PublishedRef, parent: PublishedRef): ReplyTarget {
  return { root, parent };
}

describe('ThreadsPlatform.publishPost', () => {
  test('publishes a text post and returns the media id (not the container id) with its permalink', async (t) => {
    const env = await setup(t);
    const saved = new SavedProgress();
    const ref = await publish(env, post('Hello from Skein'), saved);
    assert.equal(env.fake.published.length, 1);
    const [published] = env.fake.published;
    assert.equal(ref.networkPostId, published!.id);
    assert.notEqual(ref.networkPostId, published!.containerId);
    assert.equal(published!.text, 'Hello from Skein');
    assert.equal(published!.mediaType, 'TEXT_POST');
    assert.equal(ref.permalink, `https://www.threads.net/@skein_test/post/${published!.shortcode}`);
    assert.equal(ref.cid, null);
    assert.deepEqual(saved.current, { containerId: published!.containerId, networkPostId: published!.id, cid: null });
  });

  test('saves the container id before the publish call is made', async (t) => {
    const env = await setup(t);
    const publishCallsWhenSaved: number[] = [];
    await env.platform.publishPost({
      account: env.account,
      post: post('order matters'),
      replyTo: null,
      progress: { containerId: null, networkPostId: null, cid: null },
      onProgress: async (p) => {
        if (p.networkPostId === null) publishCallsWhenSaved.push(env.fake.callsTo('threads_publish').length);
      },
      confirmLease: async () => {},
    });
    assert.deepEqual(publishCallsWhenSaved, [0]);
    assert.equal(env.fake.callsTo('threads_publish').length, 1);
  });

  test('publishes an image with alt text and a media spoiler', async (t) => {
    const env = await setup(t);
    await publish(env, post('A photo', { media: [{ url: `${cdn.base}/a.jpg`, altText: 'A red kite over a field' }], isSpoilerMedia: true }));
    const [published] = env.fake.published;
    assert.equal(published!.mediaType, 'IMAGE');
    assert.deepEqual(published!.media, [{ type: 'IMAGE', url: `${cdn.base}/a.jpg`, altText: 'A red kite over a field' }]);
    assert.equal(published!.isSpoilerMedia, true);
  });

  test('publishes a video when the URL names an MP4 file', async (t) => {
    const env = await setup(t);
    await publish(env, post('A clip', { media: [{ url: `${cdn.base}/clip.mp4?v=2`, altText: null }] }));
    assert.equal(env.fake.published[0]!.mediaType, 'VIDEO');
    assert.equal(env.fake.published[0]!.media[0]!.type, 'VIDEO');
  });

  test('publishes a carousel: item containers with their alt text, then one carousel post', async (t) => {
    const env = await setup(t);
    const media = [
      { url: `${cdn.base}/1.png`, altText: 'first' },
      { url: `${cdn.base}/2.png`, altText: null },
      { url: `${cdn.base}/3.png`, altText: 'third' },
    ];
    await publish(env, post('Three pictures', { media, isSpoilerMedia: true, topic: 'Birds' }));
    assert.equal(env.fake.published.length, 1, 'a carousel is one post');
    const [published] = env.fake.published;
    assert.equal(published!.mediaType, 'CAROUSEL_ALBUM');
    assert.deepEqual(
      published!.media.map((m) => [m.url, m.altText]),
      media.map((m) => [m.url, m.altText]),
    );
    assert.equal(published!.text, 'Three pictures');
    assert.equal(published!.topicTag, 'Birds');
    assert.equal(published!.isSpoilerMedia, true);
    assert.equal(env.fake.callsTo('threads.create').length, 4);
  });

  test('waits for an IN_PROGRESS carousel item before creating the carousel', async (t) => {
    const env = await setup(t, { processingMs: { IMAGE: 5_000 } });
    await publish(
      env,
      post('Slow images', {
        media: [
          { url: `${cdn.base}/1.png`, altText: null },
          { url: `${cdn.base}/2.png`, altText: null },
        ],
      }),
    );
    assert.equal(env.fake.published.length, 1);
    assert.ok(env.slept.reduce((a, b) => a + b, 0) >= 5_000);
  });

  test('publishes a three-post thread, each a reply to the previous published post', async (t) => {
    const env = await setup(t);
    const first = await publish(env, post('1/3 start'));
    const second = await publish(env, post('2/3 middle'), new SavedProgress(), replyTo(first, first));
    const third = await publish(env, post('3/3 end'), new SavedProgress(), replyTo(first, second));
    assert.deepEqual(
      env.fake.published.map((p) => [p.text, p.replyToId, p.rootId]),
      [
        ['1/3 start', null, null],
        ['2/3 middle', first.networkPostId, first.networkPostId],
        ['3/3 end', second.networkPostId, first.networkPostId],
      ],
    );
    assert.equal(third.networkPostId, env.fake.published[2]!.id);
  });

  test('sends the topic as topic_tag', async (t) => {
    const env = await setup(t);
    await publish(env, post('About typescript', { topic: 'TypeScript' }));
    assert.equal(env.fake.published[0]!.topicTag, 'TypeScript');
  });

  test('passes spoiler ranges as UTF-16 offsets, unchanged, even after an emoji', async (t) => {
    const env = await setup(t);
    const text = '🎬 Ending: the butler did it. And more: twist';
    const butler = text.indexOf('the butler');
    const twist = text.indexOf('twist');
    const spoilerRanges = [
      { offset: butler, length: 'the butler did it'.length },
      { offset: twist, length: 5 },
    ];
    await publish(env, post(text, { spoilerRanges }));
    assert.deepEqual(env.fake.published[0]!.spoilers, spoilerRanges);
    const request = env.fake.callsTo('threads.create')[0]!;
    assert.deepEqual(
      JSON.parse(request.params.text_entities!),
      spoilerRanges.map((r) => ({ entity_type: 'SPOILER', ...r })),
    );
  });

  test('polls an IN_PROGRESS container with growing delays until FINISHED', async (t) => {
    const env = await setup(t, { processingMs: { IMAGE: 20_000 } }, { firstDelayMs: 2_000, maxDelayMs: 8_000, maxWaitMs: 60_000 });
    await publish(env, post('Processing', { media: [{ url: `${cdn.base}/big.jpg`, altText: null }] }));
    assert.deepEqual(env.slept, [2_000, 4_000, 8_000, 8_000]);
    assert.equal(env.fake.callsTo('threads_publish').length, 1);
    assert.equal(env.fake.published.length, 1);
  });

  test('gives up polling after maxWaitMs with a transient error, and the retry resumes the same container', async (t) => {
    const env = await setup(t, { processingMs: { VIDEO: 100_000 } }, { firstDelayMs: 10_000, maxDelayMs: 10_000, maxWaitMs: 30_000 });
    const saved = new SavedProgress();
    const p = post('Long video', { media: [{ url: `${cdn.base}/v.mov`, altText: null }] });
    await assert.rejects(publish(env, p, saved), (err: PublishError) => err.kind === 'transient' && err.code === 'THREADS_CONTAINER_NOT_READY');
    const containerId = saved.current.containerId;
    assert.ok(containerId);
    env.clock.advance(100_000);
    await publish(env, p, saved);
    assert.equal(env.fake.published.length, 1);
    assert.equal(env.fake.published[0]!.containerId, containerId, 'no second container');
    assert.equal(env.fake.callsTo('threads.create').length, 1);
  });

  test('a dropped publish response, then a retry with the saved progress, publishes exactly once', async (t) => {
    const env = await setup(t);
    const saved = new SavedProgress();
    env.fake.failNext('threads_publish', { kind: 'dropResponse' });
    await assert.rejects(publish(env, post('Exactly once'), saved), (err: PublishError) => err.kind === 'transient' && err.options.outcomeUnknown === true);
    assert.equal(env.fake.published.length, 1, 'Meta did publish it');
    assert.equal(saved.current.networkPostId, null, 'but Skein does not know the media id');
    // Another thread went out in between, so the lost post is no longer the newest.
    await publish(env, post('Something else'));
    const ref = await publish(env, post('Exactly once'), saved);
    assert.deepEqual(
      env.fake.published.map((p) => p.text),
      ['Exactly once', 'Something else'],
    );
    assert.equal(env.fake.callsTo('threads_publish').length, 2, 'the retry never called publish');
    assert.equal(env.fake.duplicatePublishAttempts, 0);
    assert.equal(ref.networkPostId, env.fake.published[0]!.id);
    assert.equal(saved.current.networkPostId, ref.networkPostId);
  });

  test("a lost answer is never matched to an older post with the same text while Meta's listing lags", async (t) => {
    const env = await setup(t, { listingLagMs: 60_000 });
    env.clock.advance(61_000);
    const yesterday = await publish(env, post('good morning'));
    env.clock.advance(86_400_000);
    const today = post('good morning', { id: 'post-today', writtenAt: env.clock.now() });
    const saved = new SavedProgress();
    env.fake.failNext('threads_publish', { kind: 'dropResponse' });
    await assert.rejects(publish(env, today, saved), (err: PublishError) => err.kind === 'transient');
    // Today's post is out but not listed yet; yesterday's, with the same text, is.
    await assert.rejects(publish(env, today, saved), (err: PublishError) => err.code === 'THREADS_PUBLISHED_POST_NOT_FOUND');
    env.clock.advance(61_000);
    const found = await publish(env, today, saved);
    assert.notEqual(found.networkPostId, yesterday.networkPostId);
    assert.equal(found.networkPostId, env.fake.published.at(-1)!.id);
    assert.equal(env.fake.published.filter((p) => p.text === 'good morning').length, 2, 'published once today');
  });

  test('a dropped publish response for a reply is recovered from the replies list by its parent', async (t) => {
    const env = await setup(t);
    const root = await publish(env, post('root'));
    const other = await publish(env, post('other root'));
    const saved = new SavedProgress();
    env.fake.failNext('threads_publish', { kind: 'dropResponse' });
    await assert.rejects(publish(env, post('same words'), saved, replyTo(root, root)));
    // A newer reply with the same text under another parent: only replied_to tells them apart.
    await publish(env, post('same words'), new SavedProgress(), replyTo(other, other));
    const ref = await publish(env, post('same words'), saved, replyTo(root, root));
    const mine = env.fake.published.filter((p) => p.replyToId === root.networkPostId);
    assert.equal(mine.length, 1);
    assert.equal(ref.networkPostId, mine[0]!.id);
    assert.equal(env.fake.callsTo('replies.list').length, 1);
    assert.equal(env.fake.published.length, 4);
  });

  test('a publish call that times out is not repeated blindly', async (t) => {
    const env = await setup(t, {}, undefined, 200);
    const saved = new SavedProgress();
    env.fake.failNext('threads_publish', { kind: 'hang' });
    await assert.rejects(publish(env, post('Slow Meta'), saved), (err: PublishError) => err.code === 'THREADS_TIMEOUT' && err.options.outcomeUnknown === true);
    assert.equal(env.fake.published.length, 0, 'the hung request was not carried out');
    await publish(env, post('Slow Meta'), saved);
    assert.equal(env.fake.published.length, 1);
    assert.equal(env.fake.published[0]!.containerId, saved.current.containerId, 'the saved FINISHED container was published');
  });

  test('a saved FINISHED container is published without creating another', async (t) => {
    const env = await setup(t);
    const saved = new SavedProgress();
    env.fake.failNext('threads_publish', { kind: 'http500' });
    await assert.rejects(publish(env, post('after a 500'), saved), (err: PublishError) => err.kind === 'transient');
    await publish(env, post('after a 500'), saved);
    assert.equal(env.fake.callsTo('threads.create').length, 1);
    assert.equal(env.fake.published.length, 1);
  });

  test('a saved container that failed processing is replaced by a new one', async (t) => {
    const env = await setup(t);
    const saved = new SavedProgress();
    const p = post('retry me', { media: [{ url: `${cdn.base}/x.jpg`, altText: null }] });
    env.fake.failNextContainer('UNKNOWN');
    await assert.rejects(publish(env, p, saved), (err: PublishError) => err.kind === 'transient');
    const first = saved.history[0]!.containerId!;
    assert.equal(env.fake.containerStatus(first), 'ERROR');
    assert.equal(saved.current.containerId, null, 'the dead container is dropped: nothing can go out from it, so the post is editable again');
    await publish(env, p, saved);
    assert.equal(env.fake.published.length, 1);
    assert.notEqual(env.fake.published[0]!.containerId, first);
    assert.equal(saved.current.containerId, env.fake.published[0]!.containerId, 'the new container was saved too');
  });

  test('an expired saved container is replaced by a new one', async (t) => {
    const env = await setup(t);
    const saved = new SavedProgress();
    env.fake.failNext('threads_publish', { kind: 'http429', retryAfterSec: 1 });
    await assert.rejects(publish(env, post('later'), saved));
    env.clock.advance(25 * 3_600_000);
    await publish(env, post('later'), saved);
    assert.equal(env.fake.containerStatus(saved.current.containerId!), 'PUBLISHED');
    assert.equal(env.fake.callsTo('threads.create').length, 2);
    assert.equal(env.fake.published.length, 1);
  });

  test('with a saved media id it only looks up the permalink', async (t) => {
    const env = await setup(t);
    const first = await publish(env, post('done already'));
    const before = env.fake.requests.length;
    const again = await env.platform.publishPost({
      account: env.account,
      post: post('done already'),
      replyTo: null,
      progress: { containerId: null, networkPostId: first.networkPostId, cid: null },
      onProgress: async () => assert.fail('nothing new to save'),
      confirmLease: async () => {},
    });
    assert.deepEqual(again, first);
    assert.deepEqual(
      env.fake.requests.slice(before).map((r) => r.endpoint),
      ['object.get'],
    );
  });

  test('a media processing error is permanent; UNKNOWN is transient', async (t) => {
    const env = await setup(t);
    const video = post('bad video', { media: [{ url: `${cdn.base}/bad.mp4`, altText: null }] });
    env.fake.failNextContainer('FAILED_DOWNLOADING_VIDEO');
    await assert.rejects(
      publish(env, video),
      (err: PublishError) => err.kind === 'permanent' && err.code === 'THREADS_MEDIA_FAILED' && /FAILED_DOWNLOADING_VIDEO/.test(err.message),
    );
    env.fake.failNextContainer('UNKNOWN');
    await assert.rejects(publish(env, video), (err: PublishError) => err.kind === 'transient' && err.code === 'THREADS_MEDIA_FAILED');
    assert.equal(env.fake.published.length, 0);
  });

  test('text over 500 UTF-8 bytes is a permanent error and nothing is saved', async (t) => {
    const env = await setup(t);
    const saved = new SavedProgress();
    const text = `${'x'.repeat(495)}’’’`; // 498 UTF-16 units, 504 bytes
    await assert.rejects(publish(env, post(text), saved), (err: PublishError) => err.kind === 'permanent' && err.code === 'THREADS_INVALID_PARAMETER');
    assert.deepEqual(saved.history, []);
    assert.equal(env.fake.published.length, 0);
  });

  test('an exhausted post quota is transient and creates no container', async (t) => {
    const env = await setup(t, { postQuota: 1 });
    await publish(env, post('one'));
    await assert.rejects(
      publish(env, post('two')),
      (err: PublishError) => err.kind === 'transient' && err.code === 'THREADS_QUOTA_EXHAUSTED' && (err.options.retryAfterMs ?? 0) > 0,
    );
    assert.equal(env.fake.callsTo('threads.create').length, 1);
  });

  test('replies are not held back by the post quota', async (t) => {
    const env = await setup(t, { postQuota: 1 });
    const root = await publish(env, post('one'));
    await publish(env, post('reply'), new SavedProgress(), replyTo(root, root));
    assert.equal(env.fake.published.length, 2);
  });

  test('an exhausted reply quota holds replies back (transient), with no container created', async (t) => {
    const env = await setup(t, { replyQuota: 1 });
    const root = await publish(env, post('root'));
    const first = await publish(env, post('reply one'), new SavedProgress(), replyTo(root, root));
    const creates = env.fake.callsTo('threads.create').length;
    await assert.rejects(
      publish(env, post('reply two'), new SavedProgress(), replyTo(root, first)),
      (err: PublishError) => err.kind === 'transient' && err.code === 'THREADS_QUOTA_EXHAUSTED' && /reply quota/.test(err.message),
    );
    assert.equal(env.fake.callsTo('threads.create').length, creates);
    await publish(env, post('a new top-level post is still fine'));
  });

  test('an expired token is an auth error', async (t) => {
    const env = await setup(t);
    env.clock.advance(61 * 24 * 3_600_000);
    await assert.rejects(publish(env, post('too late')), (err: PublishError) => err.kind === 'auth' && err.code === 'THREADS_TOKEN_INVALID');
  });

  test('an account without a token is an auth error before any call', async (t) => {
    const env = await setup(t);
    await assert.rejects(
      env.platform.publishPost({
        account: { ...env.account, accessToken: null },
        post: post('x'),
        replyTo: null,
        progress: new SavedProgress().current,
        onProgress: async () => {},
        confirmLease: async () => {},
      }),
      (err: PublishError) => err.kind === 'auth',
    );
    assert.equal(env.fake.requests.length, 0);
  });
});

describe('ThreadsPlatform.repost and fetchAnalytics', () => {
  test('reposts a published post', async (t) => {
    const env = await setup(t);
    const ref = await publish(env, post('worth repeating'));
    await env.platform.repost(env.account, ref);
    assert.equal(env.fake.reposts.length, 1);
    assert.equal(env.fake.reposts[0]!.repostOf, ref.networkPostId);
  });

  test('a repost whose answer was lost is found among the recent posts, not sent again (Meta may refuse a second one)', async (t) => {
    const env = await setup(t, { secondRepost: 'refused' });
    const ref = await publish(env, post('repost me once'));
    env.fake.failNext('repost', { kind: 'dropResponse' });
    await assert.rejects(env.platform.repost(env.account, ref), (err: PublishError) => err.kind === 'transient');
    await env.platform.repost(env.account, ref);
    assert.equal(env.fake.callsTo('repost').length, 1, 'no second repost call');
    assert.equal(env.fake.reposts.length, 1);
  });

  test('reads the six engagement counts by name', async (t) => {
    const env = await setup(t);
    const ref = await publish(env, post('popular'));
    env.fake.setInsights(ref.networkPostId, { views: 120, likes: 7, replies: 3, reposts: 2, quotes: 1, shares: 4 });
    const analytics = await env.platform.fetchAnalytics(env.account, ref);
    assert.deepEqual(analytics, { views: 120, likes: 7, replies: 3, reposts: 2, quotes: 1, shares: 4 });
    assert.equal(env.fake.callsTo('insights')[0]!.params.metric, 'views,likes,replies,reposts,quotes,shares');
  });
});

describe('the media check before a container is made', () => {
  const check = async (t: TestContext, url: string, mediaCheck: ThreadsPlatformOptions['mediaCheck'] = { allowPrivate: true }) => {
    const env = await setup(t, {}, undefined, 1_000, mediaCheck);
    return { env, result: publish(env, post('checked', { media: [{ url, altText: null }] })) };
  };

  test('a URL that answers an image is published; it was requested once by Skein and once by "Meta"', async (t) => {
    const before = cdn.requests.length;
    const { env, result } = await check(t, `${cdn.base}/ok-photo.jpg?sig=secret`);
    await result;
    assert.equal(env.fake.published.length, 1);
    assert.equal(cdn.requests.slice(before).filter((p) => p.startsWith('/ok-photo.jpg')).length, 2);
  });

  test('a 4xx fails the post with MEDIA_UNREACHABLE naming the URL without its query and the status; no container is made', async (t) => {
    const { env, result } = await check(t, `${cdn.base}/missing.jpg?token=secret`);
    await assert.rejects(result, (err: PublishError) => {
      assert.equal(err.kind, 'permanent');
      assert.equal(err.code, 'MEDIA_UNREACHABLE');
      assert.match(err.message, new RegExp(`${cdn.base}/missing\\.jpg: it answered HTTP 404`));
      assert.doesNotMatch(err.message, /secret/);
      return true;
    });
    assert.equal(env.fake.callsTo('threads.create').length, 0);
  });

  test('a web page instead of an image fails the post; a 5xx is transient (retried)', async (t) => {
    const page = await check(t, `${cdn.base}/photo.html`);
    await assert.rejects(page.result, (err: PublishError) => err.kind === 'permanent' && err.code === 'MEDIA_UNREACHABLE' && /text\/html/.test(err.message));
    const broken = await check(t, `${cdn.base}/broken.jpg`);
    await assert.rejects(broken.result, (err: PublishError) => err.kind === 'transient' && err.code === 'MEDIA_UNREACHABLE' && /503/.test(err.message));
  });

  test("without SKEIN_ALLOW_PRIVATE_MEDIA a private address is refused, also behind a redirect; Skein's own uploads are not requested", async (t) => {
    const strict = { allowPrivate: false };
    const direct = await check(t, `${cdn.base}/a.jpg`, strict);
    await assert.rejects(
      direct.result,
      (err: PublishError) => err.kind === 'permanent' && err.code === 'MEDIA_UNREACHABLE' && /private or reserved/.test(err.message),
    );
    // Media on an allowed host that redirects to one that is not: the redirect is checked too.
    const onlyFirst = { allowPrivate: false, allowAddress: (address: string) => address === '127.0.0.1' };
    const target = `${cdn.base.replace('127.0.0.1', '127.0.0.2')}/a.jpg`;
    const redirecting = await check(t, `${cdn.base}/redirect?to=${encodeURIComponent(target)}`, onlyFirst);
    await assert.rejects(
      redirecting.result,
      (err: PublishError) => err.kind === 'permanent' && err.code === 'MEDIA_UNREACHABLE' && /127\.0\.0\.2/.test(err.message),
    );
    const own = await check(t, `${cdn.base}/media/abc.jpg`, { allowPrivate: false, publicUrl: cdn.base });
    await own.result;
    assert.equal(own.env.fake.published.length, 1);
  });
});
