import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { MastodonClient } from '../../../src/networks/mastodon/client.js';
import { MastodonPlatform } from '../../../src/networks/mastodon/platform.js';
import { type PlatformAccount, type PostProgress, PublishError } from '../../../src/networks/platform.js';
import { FakeMastodonApi, type FakeMastodonOptions } from '../../helpers/fakes/mastodon-api.js';
import { pngBytes } from '../../helpers/media-files.js';

async function setup(t: TestContext, options: FakeMastodonOptions = {}) {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const fake = await FakeMastodonApi.start({ clock, ...options });
  t.after(() => fake.close());
  const { accountId, accessToken } = fake.createAccount('tester');
  const client = new MastodonClient({ allowPrivate: true, now: () => clock.now().getTime() });
  const platform = new MastodonPlatform({
    client,
    uploads: null,
    allowPrivateMedia: true,
  });
  const account: PlatformAccount = {
    providerId: 'p1',
    providerUserId: accountId,
    username: `tester@${fake.domain}`,
    accessToken,
    refreshToken: null,
    tokenExpiresAt: null,
    serviceUrl: fake.url,
  };
  const publish = async (text: string) => {
    let progress: PostProgress = { containerId: null, networkPostId: null, cid: null };
    const ref = await platform.publishPost({
      account,
      post: { id: `post-${text}`, text, topic: null, media: [], spoilerRanges: [], isSpoilerMedia: false, writtenAt: clock.now() },
      replyTo: null,
      progress,
      onProgress: async (p) => {
        progress = p;
      },
      confirmLease: async () => {},
    });
    return { ref, progress };
  };
  return { clock, fake, client, platform, account, accountId, accessToken, publish };
}

describe('MastodonPlatform against the fake server', () => {
  test('auto-repost is a reblog, once; analytics are favourites, reblogs and replies (views null); followers; the permalink', async (t) => {
    const { fake, platform, account, accountId, publish } = await setup(t);
    const { ref, progress } = await publish('hello fediverse');
    assert.equal(progress.networkPostId, ref.networkPostId);
    assert.equal(ref.permalink, `${fake.url}/@tester/${ref.networkPostId}`);
    await platform.repost(account, ref);
    await platform.repost(account, ref);
    assert.equal(fake.reblogsBy(accountId).length, 1, 'a second repost answers the first boost');
    fake.setCounts(ref.networkPostId, { favourites: 7, replies: 2 });
    assert.deepEqual(await platform.fetchAnalytics(account, ref), { views: null, likes: 7, replies: 2, reposts: 1, quotes: null, shares: null });
    fake.setFollowers(accountId, 321);
    assert.equal(await platform.fetchFollowers(account), 321);
    assert.equal(await platform.lookUpPermalink(account, ref), ref.permalink);
  });

  test('rate limits: once the server says none remain, no call goes out until its reset; a revoked token is an auth error', async (t) => {
    const { fake, platform, account, accessToken, clock, publish } = await setup(t, { rateLimits: { calls: 1 } });
    await publish('one');
    const before = fake.requests.length;
    await assert.rejects(publish('two'), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.equal(err.code, 'MASTODON_RATE_LIMITED');
      assert.equal(err.kind, 'transient');
      assert.equal(err.options.outcomeUnknown, false);
      assert.ok((err.options.retryAfterMs ?? 0) > 4 * 60_000, `waits for the reset: ${err.options.retryAfterMs}`);
      return true;
    });
    await assert.rejects(platform.fetchFollowers(account), /rate limit/);
    assert.equal(fake.requests.length, before, 'nothing sent while the limit is used up');
    clock.advance(5 * 60_000);
    await publish('two');
    fake.revokeToken(accessToken);
    clock.advance(5 * 60_000);
    await assert.rejects(publish('three'), (err: unknown) => err instanceof PublishError && err.kind === 'auth');
  });

  test('uploads have their own limit (30 in 30 minutes): used up, it holds uploads back until its reset, and statuses still go out', async (t) => {
    const { fake, client, accountId, accessToken, clock, publish } = await setup(t, { rateLimits: { media: 1 } });
    const upload = async () =>
      client.uploadMedia(fake.url, accessToken, { bytes: await pngBytes(8, 6), mimeType: 'image/png', name: 'a.png', description: null });
    await upload();
    const uploads = fake.callsTo('media.create').length;
    await assert.rejects(upload(), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.equal(err.code, 'MASTODON_RATE_LIMITED');
      assert.ok((err.options.retryAfterMs ?? 0) > 25 * 60_000, `waits for the uploads' reset: ${err.options.retryAfterMs}`);
      return true;
    });
    assert.equal(fake.callsTo('media.create').length, uploads, 'no upload sent while its limit is used up');
    await publish('text goes out');
    assert.equal(fake.postsBy(accountId).length, 1);
    clock.advance(30 * 60_000);
    await upload();
    assert.equal(fake.callsTo('media.create').length, uploads + 1);
  });

  test("an image over the server's own size limit is refused by the server (422): a permanent fault with its reason, nothing posted", async (t) => {
    const { fake, client, accountId, accessToken } = await setup(t, { imageSizeLimit: 2_000 });
    const bytes = await pngBytes(400, 400);
    assert.ok(bytes.length > 2_000, `the test image is ${bytes.length} bytes`);
    await assert.rejects(client.uploadMedia(fake.url, accessToken, { bytes, mimeType: 'image/png', name: 'big.png', description: null }), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.equal(err.kind, 'permanent');
      assert.match(err.message, /file size must be less than/);
      return true;
    });
    assert.equal([...fake.media.values()].filter((m) => m.accountId === accountId).length, 0);
    const small = await pngBytes(8, 6);
    await client.uploadMedia(fake.url, accessToken, { bytes: small, mimeType: 'image/png', name: 'small.png', description: null });
    assert.equal([...fake.media.values()].filter((m) => m.accountId === accountId).length, 1, 'under the limit: accepted');
  });
});
